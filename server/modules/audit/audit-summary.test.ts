import { describe, expect, it } from 'vitest';
import { auditSummary, fieldLabel, fieldValue, SUMMARY_RULES, type SummaryInput } from './audit-summary';

/**
 * Every action the product writes, with a before/after of the shape its writer records, and the sentence the
 * audit trail shows for it: a literal table written by hand. Record ids are short stand-ins; `refs` holds the
 * names the audit list's statement resolves for them.
 */

const INV = '11111111-1111-4111-8111-111111111111';
const INV2 = '11111111-1111-4111-8111-222222222222';
const CONTRACT = '22222222-2222-4222-8222-222222222222';
const RENEWAL = '22222222-2222-4222-8222-333333333333';
const CUSTOMER = '33333333-3333-4333-8333-333333333333';
const REP = '44444444-4444-4444-8444-444444444444';
const USER = '44444444-4444-4444-8444-555555555555';
const PRODUCT = '55555555-5555-4555-8555-555555555555';
const LINE = '66666666-6666-4666-8666-666666666666';
const CREDIT_NOTE = '77777777-7777-4777-8777-777777777777';
const PAYOUT = '88888888-8888-4888-8888-888888888888';
const OTHER = '99999999-9999-4999-8999-999999999999';

const REFS: Record<string, string> = {
  [INV]: 'INV-2026-000123',
  [INV2]: 'INV-2026-000124',
  [CONTRACT]: 'Spring Campaign',
  [RENEWAL]: 'Spring Campaign 2027',
  [CUSTOMER]: 'Bella Notte Trattoria',
  [REP]: 'Jordan Rep',
  [USER]: 'Casey Finance',
  [PRODUCT]: 'Pre-roll Video Ad',
  [LINE]: 'Pre-roll Video Ad',
  [CREDIT_NOTE]: 'CN-2026-000004',
  [PAYOUT]: 'Jordan Rep',
};

type Row = [action: string, entity: string, entityId: string, before: unknown, after: unknown, expected: string];

const LINE_SNAPSHOT = { id: LINE, productId: PRODUCT, quantity: 1, unitPriceCents: 50_000, flightStart: '2026-12-15' };

const TABLE: Row[] = [
  [
    'accounting_export.created',
    'accounting_export',
    OTHER,
    null,
    {
      number: 'EXP-2026-000001',
      format: 'xero-invoices',
      from: '2026-11-01',
      to: '2026-11-30',
      documentCount: 12,
      totalCents: 1_480_000,
    },
    'Accounting export EXP-2026-000001 created: Xero invoices, 12 documents from Nov 1, 2026 to Nov 30, 2026, $14,800.00',
  ],
  [
    'api_key.created',
    'api_key',
    OTHER,
    null,
    { name: 'Ad server', scope: 'delivery', role: null, hint: 'adcrm_…x1', expiresAt: null },
    'API key "Ad server" created',
  ],
  [
    'api_key.revoked',
    'api_key',
    OTHER,
    { status: 'active' },
    { name: 'Ad server', scope: 'delivery', status: 'revoked' },
    'API key "Ad server" revoked',
  ],
  [
    'checkout.opened',
    'contract',
    CONTRACT,
    null,
    {
      checkoutSessionId: OTHER,
      source: 'pay_link',
      provider: 'builtin',
      invoiceIds: [INV, INV2],
      amountCents: 296_000,
    },
    'Checkout opened from the pay link for $2,960.00 (invoices INV-2026-000123, INV-2026-000124)',
  ],
  [
    'commission.earned',
    'commission',
    OTHER,
    null,
    { repId: REP, invoiceId: INV, amountCents: 14_800, rateBp: 1000 },
    'Commission earned: $148.00 (10%) for Jordan Rep on invoice INV-2026-000123',
  ],
  [
    'commission.adjusted',
    'commission',
    OTHER,
    null,
    { repId: REP, creditNoteId: CREDIT_NOTE, amountCents: -1_000, rateBp: 1000 },
    'Commission adjusted for credit note CN-2026-000004: -$10.00 for Jordan Rep',
  ],
  [
    'contract.sent',
    'contract',
    CONTRACT,
    { status: 'draft' },
    { status: 'sent' },
    'Contract "Spring Campaign" sent to the customer',
  ],
  [
    'contract.activated',
    'contract',
    CONTRACT,
    { status: 'sent' },
    { status: 'active', reason: 'first payment (stripe)' },
    'Contract "Spring Campaign" activated (first payment (stripe))',
  ],
  [
    'contract.paused',
    'contract',
    CONTRACT,
    { status: 'active' },
    { status: 'paused', pauseReason: 'non_payment' },
    'Contract "Spring Campaign" paused for non-payment',
  ],
  [
    'contract.resumed',
    'contract',
    CONTRACT,
    { status: 'paused' },
    { status: 'active' },
    'Contract "Spring Campaign" resumed',
  ],
  [
    'contract.canceled',
    'contract',
    CONTRACT,
    { status: 'active' },
    { status: 'canceled', cancelReason: 'Budget cut' },
    'Contract "Spring Campaign" canceled: Budget cut',
  ],
  [
    'contract.completed',
    'contract',
    CONTRACT,
    { status: 'active' },
    { status: 'completed', reason: 'term ended' },
    'Contract "Spring Campaign" completed (term ended)',
  ],
  [
    'contract.billing_started',
    'contract',
    CONTRACT,
    { stripeSubscriptionId: null },
    { stripeSubscriptionId: 'sub_1' },
    'Billing started for contract "Spring Campaign"',
  ],
  [
    'contract.created',
    'contract',
    CONTRACT,
    null,
    { title: 'Spring Campaign', customerId: CUSTOMER, status: 'draft', totalCents: 1_200_000 },
    'Contract "Spring Campaign" created for "Bella Notte Trattoria": $12,000.00 (draft)',
  ],
  [
    'contract.updated',
    'contract',
    CONTRACT,
    { title: 'Spring', startDate: '2026-12-01', updatedAt: '2026-11-01T00:00:00Z' },
    { title: 'Spring Campaign', startDate: '2026-12-15', updatedAt: '2026-11-02T00:00:00Z' },
    'Contract "Spring Campaign" updated: Title, Start date',
  ],
  ['contract.deleted', 'contract', CONTRACT, { title: 'Spring Campaign' }, null, 'Contract "Spring Campaign" deleted'],
  [
    'contract.resent',
    'contract',
    CONTRACT,
    null,
    { to: 'giulia@bellanotte.example' },
    'Contract "Spring Campaign" sent again to giulia@bellanotte.example',
  ],
  [
    'contract.renewed',
    'contract',
    CONTRACT,
    { renewedBy: null },
    { renewedBy: RENEWAL },
    'Contract "Spring Campaign" renewed by "Spring Campaign 2027"',
  ],
  [
    'contract.payment_link_created',
    'contract',
    CONTRACT,
    { stripePaymentLinkId: null },
    { stripePaymentLinkId: 'plink_1' },
    'Pay link created for contract "Spring Campaign"',
  ],
  [
    'contract.renewal_hold_started',
    'contract',
    CONTRACT,
    null,
    {
      holds: [
        { lineId: LINE, product: 'Homepage Takeover', quantity: 1, heldFrom: '2027-12-20', heldTo: '2027-12-26' },
      ],
    },
    'Renewal hold started on contract "Spring Campaign": 1 × Homepage Takeover from Dec 20, 2027 to Dec 26, 2027',
  ],
  [
    'contract.renewal_hold_released',
    'contract',
    CONTRACT,
    null,
    {
      holds: [
        { lineId: LINE, product: 'Homepage Takeover', quantity: 2, heldFrom: '2027-12-20', heldTo: '2027-12-26' },
      ],
    },
    'Renewal hold released on contract "Spring Campaign": 2 × Homepage Takeover from Dec 20, 2027 to Dec 26, 2027',
  ],
  [
    'contract.line_added',
    'contract',
    CONTRACT,
    null,
    { line: LINE_SNAPSHOT, adjustments: [], monthlyAmountCents: 150_000 },
    'Line added to contract "Spring Campaign": Pre-roll Video Ad from Dec 15, 2026; monthly amount $1,500.00',
  ],
  [
    'contract.line_ended',
    'contract',
    CONTRACT,
    { line: LINE_SNAPSHOT },
    { line: { ...LINE_SNAPSHOT, flightEnd: '2027-01-31' }, adjustments: [], monthlyAmountCents: 100_000 },
    'Line ended on contract "Spring Campaign": Pre-roll Video Ad ends on Jan 31, 2027; monthly amount $1,000.00',
  ],
  [
    'creative.uploaded',
    'creative',
    OTHER,
    null,
    { originalName: 'banner-728x90.png', contractTitle: 'Spring Campaign', sizeBytes: 12_000 },
    'Creative "banner-728x90.png" uploaded to contract "Spring Campaign"',
  ],
  [
    'creative.deleted',
    'creative',
    OTHER,
    { originalName: 'banner-728x90.png' },
    null,
    'Creative "banner-728x90.png" deleted',
  ],
  [
    'credit_note.issued',
    'credit_note',
    CREDIT_NOTE,
    { invoiceStatus: 'paid', creditedCents: 0 },
    {
      number: 'CN-2026-000004',
      invoiceId: INV,
      invoiceNumber: 'INV-2026-000123',
      kind: 'partial',
      reason: 'Goodwill',
      amountCents: 10_000,
      appliedCents: 0,
      toBalanceCents: 10_000,
    },
    "Credit note CN-2026-000004 issued on invoice INV-2026-000123: $100.00 (Goodwill); $100.00 to the customer's credit balance",
  ],
  [
    'customer.created',
    'customer',
    CUSTOMER,
    null,
    { name: 'Bella Notte Trattoria' },
    'Customer "Bella Notte Trattoria" created',
  ],
  [
    'customer.updated',
    'customer',
    CUSTOMER,
    { name: 'Bella Notte Trattoria', city: 'Austin', phone: null },
    { name: 'Bella Notte Trattoria', city: 'Denver', phone: '555-0100' },
    'Customer "Bella Notte Trattoria" updated: City, Phone',
  ],
  [
    'customer.deleted',
    'customer',
    CUSTOMER,
    { name: 'Bella Notte Trattoria' },
    null,
    'Customer "Bella Notte Trattoria" deleted',
  ],
  [
    'customer.credit_refunded',
    'customer',
    CUSTOMER,
    null,
    { amountCents: 15_000, method: 'check', reference: null, balanceCents: 42_500 },
    'Credit balance of $150.00 refunded to "Bella Notte Trattoria" by check; $425.00 left',
  ],
  [
    'customer.portal_invited',
    'customer',
    CUSTOMER,
    null,
    { userId: USER, email: 'giulia@bellanotte.example', accountCreated: true, link: 'set-password' },
    'Client portal invitation sent to giulia@bellanotte.example for "Bella Notte Trattoria" (account created)',
  ],
  [
    'delivery.recorded',
    'contract',
    CONTRACT,
    { impressions: 100_000, clicks: null, final: false },
    { lineId: LINE, periodStart: '2026-11-01', booked: 150_000, impressions: 120_000, clicks: 300, final: true },
    'Delivery recorded on contract "Spring Campaign": 120,000 impressions of Pre-roll Video Ad for the period from Nov 1, 2026 (was 100,000 impressions)',
  ],
  [
    'delivery.final',
    'contract',
    CONTRACT,
    null,
    { lineId: LINE, periodStart: '2026-11-01', booked: 150_000, impressions: 120_000, clicks: null, graceDays: 3 },
    'Delivery final on contract "Spring Campaign": 120,000 impressions of 150,000 impressions booked of Pre-roll Video Ad for the period from Nov 1, 2026',
  ],
  [
    'delivery.settled',
    'contract',
    CONTRACT,
    null,
    { lineId: LINE, periodStart: '2026-11-01', remedy: 'credit', shortfall: 30_000 },
    'Under-delivery settled by a credit note on contract "Spring Campaign": 30,000 impressions short of Pre-roll Video Ad for the period from Nov 1, 2026',
  ],
  [
    'insertion_order.sent',
    'contract',
    CONTRACT,
    null,
    { version: 2, pdfSha256: 'ab', contentSha256: 'cd', to: 'giulia@bellanotte.example' },
    'Insertion order version 2 of contract "Spring Campaign" sent to giulia@bellanotte.example',
  ],
  [
    'insertion_order.superseded',
    'contract',
    CONTRACT,
    null,
    { version: 1 },
    'Insertion order version 1 of contract "Spring Campaign" superseded',
  ],
  [
    'insertion_order.viewed',
    'contract',
    CONTRACT,
    null,
    { version: 2 },
    'Insertion order version 2 of contract "Spring Campaign" viewed by the customer',
  ],
  [
    'insertion_order.accepted',
    'contract',
    CONTRACT,
    null,
    { version: 2, signerName: 'Giulia Rossi', signerEmail: 'giulia@bellanotte.example', ip: '203.0.113.7' },
    'Insertion order version 2 of contract "Spring Campaign" signed by Giulia Rossi',
  ],
  [
    'insertion_order.declined',
    'contract',
    CONTRACT,
    null,
    { version: 2, reason: 'Wrong dates', ip: '203.0.113.7' },
    'Insertion order version 2 of contract "Spring Campaign" declined: Wrong dates',
  ],
  [
    'invoice.issued',
    'invoice',
    INV,
    null,
    {
      number: 'INV-2026-000123',
      contractId: CONTRACT,
      periodStart: '2026-12-01',
      subtotalCents: 140_000,
      taxCents: 8_000,
      totalCents: 148_000,
    },
    'Invoice INV-2026-000123 issued: $1,480.00',
  ],
  [
    'invoice.paid',
    'invoice',
    INV,
    { amountPaidCents: 0 },
    { status: 'paid', amountPaidCents: 148_000, paidAt: '2026-12-05T10:00:00Z' },
    'Invoice INV-2026-000123 paid in full: $1,480.00',
  ],
  [
    'invoice.voided',
    'invoice',
    INV,
    null,
    { status: 'void', reason: 'Billed twice', refundedCents: 0, number: 'INV-2026-000123' },
    'Invoice INV-2026-000123 voided: Billed twice',
  ],
  [
    'invoice.refunded',
    'invoice',
    INV,
    null,
    { status: 'void', reason: 'Billed twice', refundedCents: 148_000, number: 'INV-2026-000123' },
    'Invoice INV-2026-000123 voided and $1,480.00 refunded: Billed twice',
  ],
  [
    'invoice.reminder_sent',
    'invoice',
    INV,
    null,
    { step: 'first_reminder', number: 'INV-2026-000123', daysOverdue: 3 },
    'First reminder sent for invoice INV-2026-000123, 3 days overdue',
  ],
  [
    'invoice.resent',
    'invoice',
    INV,
    null,
    { number: 'INV-2026-000123', to: 'giulia@bellanotte.example' },
    'Invoice INV-2026-000123 e-mailed again to giulia@bellanotte.example',
  ],
  [
    'package.created',
    'package',
    OTHER,
    null,
    { name: 'Holiday Bundle', price: 2500 },
    'Package "Holiday Bundle" created',
  ],
  [
    'package.updated',
    'package',
    OTHER,
    { name: 'Holiday Bundle', price: 2500 },
    { name: 'Holiday Bundle', price: 2750 },
    'Package "Holiday Bundle" updated: Price',
  ],
  ['package.deleted', 'package', OTHER, { name: 'Holiday Bundle' }, null, 'Package "Holiday Bundle" deleted'],
  ['product.created', 'product', PRODUCT, null, { name: 'Pre-roll Video Ad' }, 'Product "Pre-roll Video Ad" created'],
  [
    'product.updated',
    'product',
    PRODUCT,
    { name: 'Pre-roll Video Ad', defaultPrice: 500 },
    { name: 'Pre-roll Video Ad', defaultPrice: 550 },
    'Product "Pre-roll Video Ad" updated: Default price',
  ],
  ['product.deleted', 'product', PRODUCT, { name: 'Pre-roll Video Ad' }, null, 'Product "Pre-roll Video Ad" deleted'],
  [
    'product.archived',
    'product',
    PRODUCT,
    { name: 'Pre-roll Video Ad', isActive: true },
    { name: 'Pre-roll Video Ad', isActive: false },
    'Product "Pre-roll Video Ad" archived (still in use)',
  ],
  ['password.changed', 'user', USER, null, null, 'Password changed for "Casey Finance"'],
  [
    'payment.recorded',
    'payment',
    OTHER,
    null,
    {
      invoiceId: INV,
      invoiceNumber: 'INV-2026-000123',
      amountCents: 148_000,
      method: 'check',
      provider: 'manual',
      reference: 'chk 1',
    },
    'Payment of $1,480.00 by check recorded on invoice INV-2026-000123',
  ],
  [
    'payment.failed',
    'payment',
    OTHER,
    null,
    {
      invoiceId: INV,
      invoiceNumber: 'INV-2026-000123',
      amountCents: 90_500,
      method: 'card',
      provider: 'builtin',
      cardBrand: 'visa',
      cardLast4: '0002',
      failureMessage: 'Your card was declined.',
    },
    'Payment of $905.00 failed (Visa •••• 0002) on invoice INV-2026-000123: Your card was declined.',
  ],
  [
    'autopay.charged',
    'invoice',
    INV,
    null,
    {
      invoiceNumber: 'INV-2026-000123',
      attempt: 2,
      amountCents: 120_00,
      appliedCents: 120_00,
      refundCents: 0,
      method: 'Visa •••• 4242',
    },
    'Autopay charged $120.00 to Visa •••• 4242 for invoice INV-2026-000123 (attempt 2)',
  ],
  [
    'autopay.failed',
    'invoice',
    INV,
    null,
    {
      invoiceNumber: 'INV-2026-000123',
      attempt: 1,
      amountCents: 120_00,
      method: 'Visa •••• 9995',
      declineKind: 'soft',
      reason: 'Your card has insufficient funds.',
      nextAttemptOn: '2026-12-09',
    },
    'Autopay attempt 1 failed on invoice INV-2026-000123: Your card has insufficient funds; next attempt Dec 9, 2026',
  ],
  [
    'autopay.refunded',
    'invoice',
    INV,
    null,
    { invoiceNumber: 'INV-2026-000123', attempt: 1, amountCents: 120_00, appliedCents: 0, refundCents: 120_00 },
    'Autopay charge of $120.00 for invoice INV-2026-000123 refunded: it was paid meanwhile',
  ],
  [
    'autopay.excess_refunded',
    'invoice',
    INV,
    null,
    { invoiceNumber: 'INV-2026-000123', unappliedCents: 20_00 },
    '$20.00 charged beyond what invoice INV-2026-000123 owed was refunded',
  ],
  [
    'autopay.refund_failed',
    'invoice',
    INV,
    null,
    { invoiceNumber: 'INV-2026-000123', unappliedCents: 20_00 },
    '$20.00 charged beyond what invoice INV-2026-000123 owed could not be refunded: refund it by hand',
  ],
  ['autopay.enabled', 'customer', CUSTOMER, { autopayEnabled: false }, { autopayEnabled: true }, 'Autopay turned on'],
  ['autopay.disabled', 'customer', CUSTOMER, { autopayEnabled: true }, { autopayEnabled: false }, 'Autopay turned off'],
  [
    'payment_method.saved',
    'customer',
    CUSTOMER,
    null,
    { paymentMethodId: OTHER, method: 'Visa •••• 4242', source: 'setup_link', isDefault: true },
    'Payment method Visa •••• 4242 saved',
  ],
  [
    'payment_method.default',
    'customer',
    CUSTOMER,
    null,
    { paymentMethodId: OTHER, method: 'Mastercard •••• 4444' },
    'Mastercard •••• 4444 made the default',
  ],
  [
    'payment_method.removed',
    'customer',
    CUSTOMER,
    null,
    { paymentMethodId: OTHER, method: 'Visa •••• 4242', newDefault: null, autopayTurnedOff: true },
    'Payment method Visa •••• 4242 removed; autopay turned off',
  ],
  [
    'payment_method.updated',
    'customer',
    CUSTOMER,
    { method: 'Visa •••• 4242', expMonth: 12, expYear: 2026, status: 'active' },
    { method: 'Visa •••• 1881', expMonth: 12, expYear: 2029, status: 'active' },
    "Visa •••• 1881 updated by the card's issuer",
  ],
  [
    'payment_method.setup_link_sent',
    'customer',
    CUSTOMER,
    null,
    { sentTo: 'ap@example.test', expiresAt: '2026-12-10T12:00:00.000Z' },
    'Payment set-up link sent to ap@example.test',
  ],
  [
    'payment.refunded',
    'payment',
    OTHER,
    null,
    { invoiceId: INV, refundOf: OTHER, amountCents: 90_500, method: 'wire', provider: 'manual' },
    'Refund of $905.00 by wire transfer on invoice INV-2026-000123',
  ],
  [
    'payment.unapplied',
    'contract',
    CONTRACT,
    null,
    { checkoutSessionId: OTHER, provider: 'builtin', providerPaymentId: 'pay_1', unappliedCents: 2_000 },
    '$20.00 of a checkout payment on contract "Spring Campaign" was left unapplied (no invoice due)',
  ],
  [
    'payout.requested',
    'payout',
    PAYOUT,
    null,
    { status: 'pending', requestedCents: 50_000, availableBeforeCents: 80_000 },
    'Payout requested: $500.00 of $800.00 available',
  ],
  [
    'payout.approved',
    'payout',
    PAYOUT,
    { status: 'pending' },
    { status: 'approved', requestedCents: 50_000, approvedCents: 40_000, returnedCents: 10_000 },
    'Payout approved: $400.00 of $500.00 requested',
  ],
  [
    'payout.rejected',
    'payout',
    PAYOUT,
    { status: 'pending' },
    { status: 'rejected', requestedCents: 50_000, reason: 'Not earned yet' },
    'Payout rejected: $500.00 requested (Not earned yet)',
  ],
  [
    'payout.disbursed',
    'payout',
    PAYOUT,
    { status: 'approved' },
    { status: 'disbursed', approvedCents: 40_000 },
    'Payout disbursed: $400.00',
  ],
  [
    'profile.updated',
    'user',
    USER,
    { firstName: 'Casey', lastName: 'Finance', email: 'casey@example.test' },
    { firstName: 'Casey', lastName: 'Finance', email: 'casey.f@example.test' },
    'Profile of "Casey Finance" updated: E-mail',
  ],
  [
    'receipt.resent',
    'invoice',
    INV,
    null,
    { paymentId: OTHER, to: 'giulia@bellanotte.example' },
    'Receipt for invoice INV-2026-000123 e-mailed again to giulia@bellanotte.example',
  ],
  [
    'settings.updated',
    'settings',
    'tax',
    { defaultTaxRate: 8, taxLabel: 'Tax' },
    { defaultTaxRate: 8.25, taxLabel: 'Sales tax' },
    'Tax settings updated: Default tax rate, Tax label',
  ],
  [
    'settings.logo_updated',
    'settings',
    'company',
    null,
    { contentType: 'image/png', bytes: 5120, width: 320, height: 96, sha256: 'ab'.repeat(32) },
    'Company logo uploaded (320 x 96 px)',
  ],
  [
    'user.created',
    'user',
    USER,
    null,
    { firstName: 'Casey', lastName: 'Finance', email: 'casey@example.test', role: 'finance' },
    'User "Casey Finance" created (Finance)',
  ],
  [
    'user.updated',
    'user',
    USER,
    { firstName: 'Casey', lastName: 'Finance', role: 'finance', isActive: true },
    { firstName: 'Casey', lastName: 'Finance', role: 'admin', isActive: false },
    'User "Casey Finance" updated: Role, Active',
  ],
  ['user.deleted', 'user', USER, { firstName: 'Casey', lastName: 'Finance' }, null, 'User "Casey Finance" deleted'],
  [
    'user.password_reset_sent',
    'user',
    USER,
    null,
    { email: 'casey@example.test' },
    'Password reset link sent to casey@example.test',
  ],
  [
    'user.password_set',
    'user',
    USER,
    null,
    { via: 'invitation link' },
    'Password set by "Casey Finance" with invitation link',
  ],
  [
    'webhook.created',
    'webhook_endpoint',
    OTHER,
    null,
    { url: 'https://hooks.example.test/adcrm', description: null, events: ['invoice.paid'], enabled: true },
    'Webhook endpoint https://hooks.example.test/adcrm created',
  ],
  [
    'webhook.updated',
    'webhook_endpoint',
    OTHER,
    { url: 'https://hooks.example.test/adcrm', events: ['invoice.paid'], enabled: true },
    { url: 'https://hooks.example.test/adcrm', events: ['invoice.paid', 'contract.sent'], enabled: true },
    'Webhook endpoint https://hooks.example.test/adcrm updated: Events',
  ],
  [
    'webhook.enabled',
    'webhook_endpoint',
    OTHER,
    { url: 'https://hooks.example.test/adcrm', enabled: false },
    { url: 'https://hooks.example.test/adcrm', enabled: true },
    'Webhook endpoint https://hooks.example.test/adcrm enabled',
  ],
  [
    'webhook.disabled',
    'webhook_endpoint',
    OTHER,
    { enabled: true },
    { enabled: false, url: 'https://hooks.example.test/adcrm', disabledReason: 'Gone (410)' },
    'Webhook endpoint https://hooks.example.test/adcrm disabled: Gone (410)',
  ],
  [
    'webhook.deleted',
    'webhook_endpoint',
    OTHER,
    { url: 'https://hooks.example.test/adcrm' },
    null,
    'Webhook endpoint https://hooks.example.test/adcrm deleted',
  ],
  [
    'webhook.secret_rotated',
    'webhook_endpoint',
    OTHER,
    null,
    { url: 'https://hooks.example.test/adcrm', previousSecretExpiresAt: '2026-12-03T10:00:00Z' },
    'Signing secret of webhook endpoint https://hooks.example.test/adcrm rotated',
  ],
  [
    'webhook.secret_revealed',
    'webhook_endpoint',
    OTHER,
    null,
    null,
    'Signing secret of webhook endpoint https://hooks.example.test/adcrm shown',
  ],
  [
    'webhook.delivery_resent',
    'webhook_endpoint',
    OTHER,
    null,
    { deliveryId: 12, resentAs: 13 },
    'Delivery resent to webhook endpoint https://hooks.example.test/adcrm',
  ],
];

/** The list's label of a webhook endpoint (its URL, as audit.repo reads it); other records are named by `refs`. */
const LABELS: Record<string, string> = {
  webhook_endpoint: 'https://hooks.example.test/adcrm',
};

function inputOf([action, entity, entityId, before, after]: Row): SummaryInput {
  return { action, entity, entityId, label: LABELS[entity] ?? null, before, after, refs: REFS };
}

/** The fields that differ, as the audit service's diff finds them (top-level keys here). */
function changedOf(before: unknown, after: unknown): string[] {
  const a = (before ?? {}) as Record<string, unknown>;
  const b = (after ?? {}) as Record<string, unknown>;
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter(
    (key) => JSON.stringify(a[key] ?? null) !== JSON.stringify(b[key] ?? null),
  );
}

describe('audit summaries', () => {
  it('has one row in this table for every action with a rule, and a rule for every row', () => {
    expect(TABLE.map(([action]) => action).sort()).toEqual(Object.keys(SUMMARY_RULES).sort());
  });

  it.each(TABLE)('%s', (...row) => {
    const [, , , before, after, expected] = row;
    expect(auditSummary(inputOf(row), changedOf(before, after))).toBe(expected);
  });

  it('words the variants of an action by what its snapshot says', () => {
    const variants: [Row, string][] = [
      [
        [
          'settings.logo_updated',
          'settings',
          'company',
          { contentType: 'image/png', bytes: 5120, width: 320, height: 96, sha256: 'ab'.repeat(32) },
          { contentType: 'image/jpeg', bytes: 9000, width: 400, height: 100, sha256: 'cd'.repeat(32) },
          '',
        ],
        'Company logo replaced (400 x 100 px)',
      ],
      [
        [
          'payment.recorded',
          'payment',
          OTHER,
          null,
          { invoiceId: INV, amountCents: 57_500, method: 'credit', provider: 'credit' },
          '',
        ],
        'Credit balance of $575.00 applied on invoice INV-2026-000123',
      ],
      [
        [
          'payment.recorded',
          'payment',
          OTHER,
          null,
          { invoiceId: INV, amountCents: 148_000, method: 'card', cardBrand: 'visa', cardLast4: '4242' },
          '',
        ],
        'Payment of $1,480.00 by card (Visa •••• 4242) recorded on invoice INV-2026-000123',
      ],
      [
        ['payment.refunded', 'payment', OTHER, null, { invoiceId: INV, amountCents: 57_500, method: 'credit' }, ''],
        '$575.00 returned to the credit balance from invoice INV-2026-000123',
      ],
      [
        [
          'commission.adjusted',
          'commission',
          OTHER,
          null,
          { repId: REP, invoiceId: INV, amountCents: -14_800, rateBp: 1000 },
          '',
        ],
        'Commission reversed on invoice INV-2026-000123: -$148.00 for Jordan Rep',
      ],
      [
        [
          'checkout.opened',
          'contract',
          CONTRACT,
          null,
          { source: 'portal', invoiceIds: [INV], amountCents: 148_000 },
          '',
        ],
        'Checkout opened from the client portal for $1,480.00 (invoice INV-2026-000123)',
      ],
      [
        [
          'delivery.settled',
          'contract',
          CONTRACT,
          null,
          { lineId: LINE, periodStart: '2026-11-01', remedy: 'makegood', shortfall: 1 },
          '',
        ],
        'Under-delivery settled by a makegood on contract "Spring Campaign": 1 impression short of Pre-roll Video Ad for the period from Nov 1, 2026',
      ],
      [
        [
          'invoice.reminder_sent',
          'invoice',
          INV,
          null,
          { step: 'second_reminder', number: 'INV-2026-000123', daysOverdue: 1 },
          '',
        ],
        'Second reminder sent for invoice INV-2026-000123, 1 day overdue',
      ],
      // The first super admin, made at the first start: only an e-mail and a role.
      [
        ['user.created', 'user', OTHER, null, { email: 'owner@example.test', role: 'super_admin' }, ''],
        'User "owner@example.test" created (Super Admin)',
      ],
      [
        [
          'contract.paused',
          'contract',
          CONTRACT,
          { status: 'active' },
          {
            status: 'paused',
            pauseReason: 'non_payment',
            reason: 'non-payment: an invoice unpaid 21 days after its due date',
          },
          '',
        ],
        'Contract "Spring Campaign" paused for non-payment: an invoice unpaid 21 days after its due date',
      ],
      [
        ['contract.paused', 'contract', CONTRACT, { status: 'active' }, { status: 'paused' }, ''],
        'Contract "Spring Campaign" paused',
      ],
      // An autopay failure with no attempt left (a hard decline, or the last retry).
      [
        [
          'autopay.failed',
          'invoice',
          INV,
          null,
          { invoiceNumber: 'INV-2026-000123', attempt: 1, reason: 'Your card has expired.', nextAttemptOn: null },
          '',
        ],
        'Autopay attempt 1 failed on invoice INV-2026-000123: Your card has expired; no retry left',
      ],
      // A payment failed at a checkout (recorded on the contract): no invoice named.
      [
        ['payment.failed', 'contract', CONTRACT, null, { amountCents: 90_500, failureMessage: 'Declined' }, ''],
        'Payment of $905.00 failed: Declined',
      ],
      // A record gone since: its snapshot's name, else its kind and id.
      [['customer.deleted', 'customer', OTHER, { name: 'Gone Ltd' }, null, ''], 'Customer "Gone Ltd" deleted'],
      [['contract.deleted', 'contract', OTHER, { status: 'draft' }, null, ''], 'Contract "contract #999999" deleted'],
      // An action without a rule (an event of an older version): its words and the record.
      [['contract.status_changed', 'contract', CONTRACT, null, null, ''], 'Contract status changed'],
    ];
    for (const [row, expected] of variants) {
      expect(auditSummary(inputOf(row)), row[0]).toBe(expected);
    }
  });
});

describe('field labels and shown values', () => {
  it('labels fields by their words, money as dollars, links by name (literal table)', () => {
    const table: [field: string, value: unknown, label: string, shown: string][] = [
      ['approvedCents', 40_000, 'Approved', '$400.00'],
      ['requestedCents', 50_000, 'Requested', '$500.00'],
      ['totalCents', 148_000, 'Total', '$1,480.00'],
      ['monthlyAmountCents', -1_050, 'Monthly amount', '-$10.50'],
      ['creditBalance', 425, 'Credit balance', '$425.00'],
      ['defaultPrice', 1500.5, 'Default price', '$1,500.50'],
      ['rateBp', 825, 'Commission rate', '8.25%'],
      ['taxRateBp', 1000, 'Tax rate', '10%'],
      ['invoiceId', INV, 'Invoice', 'INV-2026-000123'],
      ['customerId', CUSTOMER, 'Customer', 'Bella Notte Trattoria'],
      ['salesRepId', REP, 'Sales rep', 'Jordan Rep'],
      ['contractId', OTHER, 'Contract', OTHER],
      ['createdBy', USER, 'Created by', 'Casey Finance'],
      ['renewalOfId', RENEWAL, 'Renewal of', 'Spring Campaign 2027'],
      ['invoiceIds', [INV, INV2], 'Invoices', 'INV-2026-000123, INV-2026-000124'],
      ['startDate', '2026-12-15', 'Start date', 'Dec 15, 2026'],
      ['paidAt', '2026-12-05T10:04:00.000Z', 'Paid at', 'Dec 5, 2026, 10:04 UTC'],
      ['isActive', false, 'Active', 'No'],
      ['inventoryRequired', true, 'Inventory required', 'Yes'],
      ['role', 'sales_manager', 'Role', 'Sales Manager'],
      ['scope', 'read', 'Scope', 'Read-only'],
      ['method', 'wire', 'Method', 'Wire transfer'],
      ['impressions', 120_000, 'Impressions', '120,000'],
      ['address.city', 'Denver', 'Address: City', 'Denver'],
      ['events', ['invoice.paid', 'contract.sent'], 'Events', 'invoice.paid, contract.sent'],
      ['phone', null, 'Phone', '—'],
      ['lineItems', [{ quantity: 1 }], 'Lines', '[{"quantity":1}]'],
    ];
    expect(table.map(([field, value]) => [field, value, fieldLabel(field), fieldValue(field, value, REFS)])).toEqual(
      table,
    );
  });
});
