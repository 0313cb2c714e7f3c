import { ACCOUNTING_FORMAT_LABELS, type AccountingFormat } from '@shared/contracts/accounting-formats';
import { ACTIVITY_TYPE_LABELS, type ActivityType } from '@shared/contracts/activity-vocabulary';
import { API_KEY_SCOPE_LABELS, type ApiKeyScope } from '@shared/contracts/api-key-vocabulary';
import { CONTRACT_TRANSITIONS } from '@shared/contracts/contract-lifecycle';
import { PAYMENT_METHOD_LABELS, type PaymentMethod } from '@shared/contracts/invoice-vocabulary';
import { formatAmount, formatCents } from '@shared/money';
import { formatBasisPoints } from '@shared/rates';
import { isRole, ROLE_LABELS } from '@shared/roles';

/**
 * The audit trail in words (product.md section 17): a sentence for each event the product writes, with field
 * labels, money as dollars ("$1,480.00", the one money formatter) and linked records by their number or name,
 * and the labels and shown values of its field-level changes. Linked records (invoices, customers, contracts,
 * users, products, packages, credit notes, payouts' reps, contract lines' products) are resolved by the audit
 * list's own statement (audit.repo `refs`: record id -> name); a record gone since keeps the name its snapshot
 * holds, else its kind and id.
 */

/** What a sentence is built from: the event, its snapshots (objects, empty when none) and the names of its links. */
export type SummaryInput = {
  action: string;
  entity: string;
  entityId: string;
  /** The record's name (the list's label): "Acme Corp", "INV-2026-000012", a contract's title and customer. */
  label: string | null;
  before: unknown;
  after: unknown;
  /** Linked records by id: their number or name. */
  refs: Readonly<Record<string, string>>;
};

type Snapshot = Record<string, unknown>;

/** The snapshot's value helpers a rule reads with. */
type Facts = {
  /** A field of the after snapshot, else of the before one. */
  get(field: string): unknown;
  text(field: string): string | null;
  number(field: string): number | null;
  /** A cents field as "$1,480.00" (null when missing). */
  money(field: string): string | null;
  /** A YYYY-MM-DD (or ISO) field as "Dec 15, 2026". */
  day(field: string): string | null;
  /** The linked record an id field names, by number or name (or the snapshot's own name field). */
  ref(field: string, fallback?: string | null): string | null;
  /** The event's own record by name: a contract's title, an invoice's number, a customer's name. */
  record: string;
  /** The labels of the fields that changed (for "... updated: Name, Phone"). */
  changed: string;
  before: Snapshot;
  after: Snapshot;
  input: SummaryInput;
};

type Rule = (f: Facts) => string;

const isObject = (value: unknown): value is Snapshot =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const snapshot = (value: unknown): Snapshot => (isObject(value) ? value : {});
const quoted = (name: string | null | undefined) => (name ? `"${name}"` : '');
const join = (...parts: (string | null | undefined | false)[]) => parts.filter(Boolean).join('');
/** Formatters made once: a page of events formats hundreds of values. */
const COUNT = new Intl.NumberFormat('en-US');
const DAY_FORMAT = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});
const plural = (n: number, one: string, many: string) => `${COUNT.format(n)} ${n === 1 ? one : many}`;

/** "Dec 15, 2026" for a YYYY-MM-DD day or the day of an ISO timestamp (UTC). */
export function auditDay(value: string): string {
  const date = new Date(`${value.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return value;
  return DAY_FORMAT.format(date);
}

/** "Dec 15, 2026, 14:05 UTC" for an ISO timestamp. */
function auditInstant(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  const time = date.toISOString().slice(11, 16);
  return `${auditDay(date.toISOString())}, ${time} UTC`;
}

const methodLabel = (method: string | null) =>
  method ? (PAYMENT_METHOD_LABELS[method as PaymentMethod] ?? method).toLowerCase() : null;
const card = (f: Facts) => {
  const brand = f.text('cardBrand');
  const last4 = f.text('cardLast4');
  return last4 ? ` (${brand ? `${brand[0].toUpperCase()}${brand.slice(1)} ` : ''}•••• ${last4})` : '';
};
const invoiceOf = (f: Facts) => f.ref('invoiceId', f.text('invoiceNumber'));
const onInvoice = (f: Facts) => {
  const invoice = invoiceOf(f);
  return invoice ? ` on invoice ${invoice}` : '';
};
const contract = (f: Facts) => `contract ${quoted(f.record)}`;
const reasonOf = (f: Facts, field = 'reason') => {
  const reason = f.text(field);
  return reason ? `: ${reason}` : '';
};
const version = (f: Facts) => `Insertion order version ${f.number('version') ?? '?'} of ${contract(f)}`;
/** An activity by its type and subject: 'Task "Call back"' (the live subject when the snapshot has none). */
const activity = (f: Facts) =>
  `${ACTIVITY_TYPE_LABELS[f.text('type') as ActivityType] ?? 'Activity'} ${quoted(f.text('subject') ?? f.record)}`;
const lineProduct = (f: Facts) => f.ref('lineId') ?? 'a line';
const periodFrom = (f: Facts) => (f.day('periodStart') ? ` for the period from ${f.day('periodStart')}` : '');
const impressions = (n: number | null) => plural(n ?? 0, 'impression', 'impressions');
const settingsGroup = (f: Facts) => {
  const group = f.input.entityId.replace(/[-_]/g, ' ');
  return `${group.charAt(0).toUpperCase()}${group.slice(1)} settings`;
};
const personName = (f: Facts) => {
  const first = f.text('firstName');
  const last = f.text('lastName');
  const name = [first, last].filter(Boolean).join(' ');
  return name || f.input.label || f.text('email');
};
const roleOf = (f: Facts) => {
  const role = f.text('role');
  return role && isRole(role) ? ` (${ROLE_LABELS[role]})` : '';
};
const updated = (what: string, f: Facts) => join(what, ' updated', f.changed ? `: ${f.changed}` : '');
const holdsText = (f: Facts) => {
  const holds = Array.isArray(f.after.holds) ? (f.after.holds as Snapshot[]) : [];
  return holds
    .map((hold) =>
      join(
        `${Number(hold.quantity ?? 1)} × ${String(hold.product ?? 'product')}`,
        typeof hold.heldFrom === 'string' ? ` from ${auditDay(hold.heldFrom)}` : '',
        typeof hold.heldTo === 'string' ? ` to ${auditDay(hold.heldTo)}` : '',
      ),
    )
    .join('; ');
};
const webhook = (f: Facts) => `Webhook endpoint ${f.text('url') ?? f.record}`;
/** " (primary, billing)": the flags a contact was created with. */
const contactFlags = (f: Facts) => {
  const flags = [f.get('isPrimary') === true && 'primary', f.get('isBilling') === true && 'billing'].filter(Boolean);
  return flags.length ? ` (${flags.join(', ')})` : '';
};
const stepLabel = (step: string | null) =>
  step === 'second_reminder' ? 'Second reminder' : step === 'first_reminder' ? 'First reminder' : 'Reminder';

/** The contract status actions' sentences (contract-status writes `contract.<done>` for each transition). */
const STATUS_RULES: Record<string, Rule> = {
  sent: (f) => `Contract ${quoted(f.record)} sent to the customer${f.text('reason') ? ` (${f.text('reason')})` : ''}`,
  activated: (f) => `Contract ${quoted(f.record)} activated${f.text('reason') ? ` (${f.text('reason')})` : ''}`,
  paused: (f) => {
    const reason = f.text('reason');
    if (f.text('pauseReason') !== 'non_payment')
      return `Contract ${quoted(f.record)} paused${reason ? ` (${reason})` : ''}`;
    // Dunning's reason starts with the words the sentence already says ("non-payment: an invoice unpaid ...").
    const why = reason?.replace(/^non-payment:\s*/i, '');
    return `Contract ${quoted(f.record)} paused for non-payment${why ? `: ${why}` : ''}`;
  },
  resumed: (f) => `Contract ${quoted(f.record)} resumed${f.text('reason') ? ` (${f.text('reason')})` : ''}`,
  canceled: (f) => `Contract ${quoted(f.record)} canceled${reasonOf(f, 'cancelReason')}`,
  completed: (f) => `Contract ${quoted(f.record)} completed${f.text('reason') ? ` (${f.text('reason')})` : ''}`,
};

/**
 * A sentence for every action the product writes (server/test/audit-actions.test.ts fails when an action is
 * written anywhere without one here).
 */
export const SUMMARY_RULES: Record<string, Rule> = {
  'accounting_export.created': (f) =>
    join(
      `Accounting export ${f.text('number') ?? f.record} created`,
      `: ${ACCOUNTING_FORMAT_LABELS[f.text('format') as AccountingFormat] ?? f.text('format') ?? 'file'}`,
      `, ${plural(f.number('documentCount') ?? 0, 'document', 'documents')}`,
      f.day('from') && f.day('to') ? ` from ${f.day('from')} to ${f.day('to')}` : '',
      f.money('totalCents') ? `, ${f.money('totalCents')}` : '',
    ),
  // Activities (product.md section 19): named by their type and subject.
  'activity.created': (f) =>
    join(
      `${activity(f)} logged`,
      f.ref('customerId') ? ` for ${f.ref('customerId')}` : '',
      f.day('dueAt') ? `, due ${f.day('dueAt')}` : '',
    ),
  'activity.updated': (f) => updated(activity(f), f),
  'activity.completed': (f) => `${activity(f)} marked done`,
  'activity.deleted': (f) => `${activity(f)} deleted`,
  'api_key.created': (f) => `API key ${quoted(f.text('name') ?? f.record)} created`,
  'api_key.revoked': (f) => `API key ${quoted(f.text('name') ?? f.record)} revoked`,
  'checkout.opened': (f) => {
    const invoices = Array.isArray(f.after.invoiceIds)
      ? (f.after.invoiceIds as unknown[]).map((id) => f.input.refs[String(id)] ?? `#${String(id).slice(-6)}`)
      : [];
    const from = f.text('source') === 'pay_link' ? 'the pay link' : 'the client portal';
    return join(
      `Checkout opened from ${from} for ${f.money('amountCents') ?? formatCents(0)}`,
      invoices.length ? ` (${invoices.length === 1 ? 'invoice' : 'invoices'} ${invoices.join(', ')})` : '',
    );
  },
  'commission.earned': (f) =>
    join(
      `Commission earned: ${f.money('amountCents')}`,
      f.number('rateBp') !== null ? ` (${formatBasisPoints(f.number('rateBp')!)})` : '',
      f.ref('repId') ? ` for ${f.ref('repId')}` : '',
      invoiceOf(f) ? ` on invoice ${invoiceOf(f)}` : '',
    ),
  'commission.adjusted': (f) =>
    f.get('creditNoteId')
      ? join(
          `Commission adjusted for credit note ${f.ref('creditNoteId')}: ${f.money('amountCents')}`,
          f.ref('repId') ? ` for ${f.ref('repId')}` : '',
        )
      : join(
          `Commission reversed${onInvoice(f)}: ${f.money('amountCents')}`,
          f.ref('repId') ? ` for ${f.ref('repId')}` : '',
        ),
  ...Object.fromEntries(
    Object.values(CONTRACT_TRANSITIONS).map((rule) => [`contract.${rule.done}`, STATUS_RULES[rule.done]]),
  ),
  'contract.billing_started': (f) => `Billing started for ${contract(f)}`,
  'contract.created': (f) =>
    join(
      `Contract ${quoted(f.record)} created`,
      f.ref('customerId') ? ` for ${quoted(f.ref('customerId'))}` : '',
      f.money('totalCents') ? `: ${f.money('totalCents')}` : '',
      f.text('status') ? ` (${f.text('status')})` : '',
    ),
  'contract.updated': (f) => updated(`Contract ${quoted(f.record)}`, f),
  'contract.deleted': (f) => `Contract ${quoted(f.record)} deleted`,
  'contract.resent': (f) => `Contract ${quoted(f.record)} sent again${f.text('to') ? ` to ${f.text('to')}` : ''}`,
  'contract.renewed': (f) =>
    `Contract ${quoted(f.record)} renewed by ${quoted(f.ref('renewedBy') ?? 'a new contract')}`,
  'contract.payment_link_created': (f) => `Pay link created for ${contract(f)}`,
  'contract.renewal_hold_started': (f) => join(`Renewal hold started on ${contract(f)}`, `: ${holdsText(f)}`),
  'contract.renewal_hold_released': (f) => join(`Renewal hold released on ${contract(f)}`, `: ${holdsText(f)}`),
  'contract.line_added': (f) => {
    const line = snapshot(f.after.line);
    return join(
      `Line added to ${contract(f)}: ${f.input.refs[String(line.productId)] ?? 'a product'}`,
      typeof line.flightStart === 'string' ? ` from ${auditDay(line.flightStart)}` : '',
      f.money('monthlyAmountCents') ? `; monthly amount ${f.money('monthlyAmountCents')}` : '',
    );
  },
  'contract.line_ended': (f) => {
    const line = snapshot(f.after.line);
    return join(
      `Line ended on ${contract(f)}: ${f.input.refs[String(line.productId)] ?? 'a product'}`,
      typeof line.flightEnd === 'string' ? ` ends on ${auditDay(line.flightEnd)}` : '',
      f.money('monthlyAmountCents') ? `; monthly amount ${f.money('monthlyAmountCents')}` : '',
    );
  },
  'creative.uploaded': (f) =>
    join(
      `Creative ${quoted(f.text('originalName') ?? f.record)} uploaded`,
      f.text('contractTitle') ? ` to contract ${quoted(f.text('contractTitle'))}` : '',
    ),
  'creative.deleted': (f) => `Creative ${quoted(f.text('originalName') ?? f.record)} deleted`,
  'credit_note.issued': (f) =>
    join(
      `Credit note ${f.text('number') ?? f.record} issued`,
      invoiceOf(f) ? ` on invoice ${invoiceOf(f)}` : '',
      `: ${f.money('amountCents')}`,
      f.text('reason') ? ` (${f.text('reason')})` : '',
      (f.number('toBalanceCents') ?? 0) > 0 ? `; ${f.money('toBalanceCents')} to the customer's credit balance` : '',
    ),
  // Autopay (product.md section 18): charges of a card on file, and the methods and switch of a customer.
  'autopay.charged': (f) =>
    join(
      `Autopay charged ${f.money('appliedCents')}`,
      f.text('method') ? ` to ${f.text('method')}` : '',
      ` for invoice ${f.text('invoiceNumber') ?? f.record}`,
      f.number('attempt') !== null ? ` (attempt ${f.number('attempt')})` : '',
    ),
  'autopay.failed': (f) =>
    join(
      `Autopay attempt ${f.number('attempt') ?? ''} failed on invoice ${f.text('invoiceNumber') ?? f.record}`,
      f.text('reason') ? `: ${f.text('reason')!.replace(/\.$/, '')}` : '',
      f.day('nextAttemptOn') ? `; next attempt ${f.day('nextAttemptOn')}` : '; no retry left',
    ),
  'autopay.refunded': (f) =>
    `Autopay charge of ${f.money('amountCents')} for invoice ${f.text('invoiceNumber') ?? f.record} refunded: it was paid meanwhile`,
  'autopay.excess_refunded': (f) =>
    `${f.money('unappliedCents')} charged beyond what invoice ${f.text('invoiceNumber') ?? f.record} owed was refunded`,
  'autopay.refund_failed': (f) =>
    `${f.money('unappliedCents')} charged beyond what invoice ${f.text('invoiceNumber') ?? f.record} owed could not be refunded: refund it by hand`,
  'autopay.enabled': () => 'Autopay turned on',
  'autopay.disabled': () => 'Autopay turned off',
  'payment_method.saved': (f) => `Payment method ${f.text('method') ?? ''} saved`.replace('  ', ' '),
  'payment_method.default': (f) => `${f.text('method') ?? 'A payment method'} made the default`,
  'payment_method.removed': (f) =>
    join(
      `Payment method ${f.text('method') ?? ''} removed`,
      f.get('autopayTurnedOff') === true ? '; autopay turned off' : '',
    ),
  'payment_method.updated': (f) => `${f.text('method') ?? 'A payment method'} updated by the card's issuer`,
  'payment_method.setup_link_sent': (f) =>
    join('Payment set-up link sent', f.text('sentTo') ? ` to ${f.text('sentTo')}` : ''),
  'customer.created': (f) => `Customer ${quoted(f.text('name') ?? f.record)} created`,
  'customer.updated': (f) => updated(`Customer ${quoted(f.text('name') ?? f.record)}`, f),
  'customer.deleted': (f) => `Customer ${quoted(f.text('name') ?? f.record)} deleted`,
  'customer.credit_refunded': (f) =>
    join(
      `Credit balance of ${f.money('amountCents')} refunded to ${quoted(f.record)}`,
      f.text('method') ? ` by ${methodLabel(f.text('method'))}` : '',
      f.money('balanceCents') ? `; ${f.money('balanceCents')} left` : '',
    ),
  // A customer's contacts (product.md section 19); the customer named from the snapshot's customerId.
  'contact.created': (f) =>
    join(
      `Contact ${quoted(f.text('name') ?? f.record)} added`,
      f.ref('customerId') ? ` to ${quoted(f.ref('customerId'))}` : '',
      contactFlags(f),
    ),
  'contact.updated': (f) => updated(`Contact ${quoted(f.text('name') ?? f.record)}`, f),
  'contact.deleted': (f) =>
    join(
      `Contact ${quoted(f.text('name') ?? f.record)} deleted`,
      f.ref('customerId') ? ` from ${quoted(f.ref('customerId'))}` : '',
    ),
  // Agencies of record (product.md section 20), recorded on the advertiser; the agency named from the snapshot.
  'customer.agency_set': (f) => `Agency ${quoted(f.text('agencyName'))} set for ${quoted(f.record)}`,
  'customer.agency_updated': (f) => updated(`Agency ${quoted(f.text('agencyName'))}`, f),
  'customer.agency_removed': (f) => `Agency ${quoted(f.text('agencyName'))} removed from ${quoted(f.record)}`,
  'customer.portal_invited': (f) =>
    join(
      `Client portal invitation sent to ${f.text('email') ?? 'the customer'} for ${quoted(f.record)}`,
      f.get('accountCreated') === true ? ' (account created)' : '',
    ),
  'delivery.recorded': (f) =>
    join(
      `Delivery recorded on ${contract(f)}: ${impressions(f.number('impressions'))} of ${lineProduct(f)}`,
      periodFrom(f),
      typeof f.before.impressions === 'number' ? ` (was ${impressions(f.before.impressions)})` : '',
    ),
  'delivery.final': (f) =>
    join(
      `Delivery final on ${contract(f)}: ${impressions(f.number('impressions'))}`,
      f.number('booked') !== null ? ` of ${impressions(f.number('booked'))} booked` : '',
      ` of ${lineProduct(f)}`,
      periodFrom(f),
    ),
  'delivery.settled': (f) => {
    const remedy = f.text('remedy');
    const how = remedy === 'credit' ? 'by a credit note' : remedy === 'makegood' ? 'by a makegood' : 'with no remedy';
    return join(
      `Under-delivery settled ${how} on ${contract(f)}: ${impressions(f.number('shortfall'))} short of ${lineProduct(f)}`,
      periodFrom(f),
    );
  },
  'insertion_order.sent': (f) => join(`${version(f)} sent`, f.text('to') ? ` to ${f.text('to')}` : ''),
  'insertion_order.superseded': (f) => `${version(f)} superseded`,
  'insertion_order.viewed': (f) => `${version(f)} viewed by the customer`,
  'insertion_order.accepted': (f) =>
    join(`${version(f)} signed`, f.text('signerName') ? ` by ${f.text('signerName')}` : ''),
  'insertion_order.declined': (f) => join(`${version(f)} declined`, reasonOf(f)),
  'invoice.issued': (f) => join(`Invoice ${f.text('number') ?? f.record} issued`, `: ${f.money('totalCents')}`),
  'invoice.paid': (f) =>
    join(`Invoice ${f.record} paid in full`, f.money('amountPaidCents') ? `: ${f.money('amountPaidCents')}` : ''),
  'invoice.voided': (f) => join(`Invoice ${f.text('number') ?? f.record} voided`, reasonOf(f)),
  'invoice.refunded': (f) =>
    join(`Invoice ${f.text('number') ?? f.record} voided and ${f.money('refundedCents')} refunded`, reasonOf(f)),
  'invoice.reminder_sent': (f) =>
    join(
      `${stepLabel(f.text('step'))} sent for invoice ${f.text('number') ?? f.record}`,
      f.number('daysOverdue') !== null ? `, ${plural(f.number('daysOverdue')!, 'day', 'days')} overdue` : '',
    ),
  'invoice.resent': (f) =>
    join(`Invoice ${f.text('number') ?? f.record} e-mailed again`, f.text('to') ? ` to ${f.text('to')}` : ''),
  'deal.created': (f) =>
    join(
      `Deal ${quoted(f.text('title') ?? f.record)} created in ${f.text('stage') ?? 'the pipeline'}`,
      f.money('amountCents') ? ` for ${f.money('amountCents')}` : '',
    ),
  'deal.updated': (f) => updated(`Deal ${quoted(f.record)}`, f),
  'deal.moved': (f) =>
    join(
      `Deal ${quoted(f.record)} moved from ${f.before.stage ?? 'a stage'} to ${f.after.stage ?? 'a stage'}`,
      f.text('reason') ? ` (${f.text('reason')})` : '',
    ),
  'deal.won': (f) => join(`Deal ${quoted(f.record)} won`, f.text('reason') ? ` (${f.text('reason')})` : ''),
  'deal.lost': (f) => join(`Deal ${quoted(f.record)} lost`, f.text('reason') ? `: ${f.text('reason')}` : ''),
  'deal.deleted': (f) => `Deal ${quoted(f.text('title') ?? f.record)} deleted`,
  'deal.contract_created': (f) =>
    join(
      `Contract ${quoted(f.ref('contractId') ?? 'draft')} drafted from deal ${quoted(f.record)}`,
      f.before.stage !== f.after.stage ? `; moved to ${f.after.stage}` : '',
    ),
  'forecast.targets_updated': (f) => {
    const targets = Array.isArray(f.after.targets) ? (f.after.targets as { month?: string }[]) : [];
    const months = [...new Set(targets.map((t) => t.month).filter(Boolean))].sort();
    return `Forecast targets set: ${plural(targets.length, 'target', 'targets')}${months.length ? ` (${months[0]}${months.length > 1 ? ` to ${months[months.length - 1]}` : ''})` : ''}`;
  },
  'pipeline.stages_updated': (f) =>
    `Pipeline stages saved: ${Array.isArray(f.after.stages) ? (f.after.stages as string[]).join(', ') : ''}`,
  'package.created': (f) => `Package ${quoted(f.text('name') ?? f.record)} created`,
  'package.updated': (f) => updated(`Package ${quoted(f.text('name') ?? f.record)}`, f),
  'package.deleted': (f) => `Package ${quoted(f.text('name') ?? f.record)} deleted`,
  'product.created': (f) => `Product ${quoted(f.text('name') ?? f.record)} created`,
  'product.updated': (f) => updated(`Product ${quoted(f.text('name') ?? f.record)}`, f),
  'product.deleted': (f) => `Product ${quoted(f.text('name') ?? f.record)} deleted`,
  'product.archived': (f) => `Product ${quoted(f.text('name') ?? f.record)} archived (still in use)`,
  'password.changed': (f) => `Password changed for ${quoted(f.record)}`,
  'payment.recorded': (f) =>
    f.text('method') === 'credit'
      ? `Credit balance of ${f.money('amountCents')} applied${onInvoice(f)}`
      : join(
          `Payment of ${f.money('amountCents')} by ${methodLabel(f.text('method'))}${card(f)} recorded`,
          onInvoice(f),
        ),
  'payment.failed': (f) =>
    join(
      `Payment of ${f.money('amountCents')} failed`,
      card(f),
      onInvoice(f),
      f.text('failureMessage') ? `: ${f.text('failureMessage')}` : '',
    ),
  'payment.refunded': (f) =>
    f.text('method') === 'credit'
      ? `${f.money('amountCents')} returned to the credit balance${invoiceOf(f) ? ` from invoice ${invoiceOf(f)}` : ''}`
      : join(`Refund of ${f.money('amountCents')} by ${methodLabel(f.text('method'))}`, onInvoice(f)),
  'payment.unapplied': (f) =>
    `${f.money('unappliedCents')} of a checkout payment on ${contract(f)} was left unapplied (no invoice due)`,
  'payout.requested': (f) =>
    join(
      `Payout requested: ${f.money('requestedCents')}`,
      f.money('availableBeforeCents') ? ` of ${f.money('availableBeforeCents')} available` : '',
    ),
  'payout.approved': (f) => `Payout approved: ${f.money('approvedCents')} of ${f.money('requestedCents')} requested`,
  'payout.rejected': (f) =>
    join(`Payout rejected: ${f.money('requestedCents')} requested`, f.text('reason') ? ` (${f.text('reason')})` : ''),
  'payout.disbursed': (f) => `Payout disbursed: ${f.money('approvedCents')}`,
  'profile.updated': (f) => updated(`Profile of ${quoted(personName(f))}`, f),
  'receipt.resent': (f) =>
    join(`Receipt for invoice ${f.record} e-mailed again`, f.text('to') ? ` to ${f.text('to')}` : ''),
  'settings.updated': (f) => updated(settingsGroup(f), f),
  'settings.logo_updated': (f) => {
    const size = f.number('width') !== null ? ` (${f.number('width')} x ${f.number('height')} px)` : '';
    return `Company logo ${Object.keys(f.before).length > 0 ? 'replaced' : 'uploaded'}${size}`;
  },
  'user.created': (f) => `User ${quoted(personName(f))} created${roleOf(f)}`,
  'user.updated': (f) => updated(`User ${quoted(personName(f))}`, f),
  'user.deleted': (f) => `User ${quoted(personName(f))} deleted`,
  'user.password_reset_sent': (f) => `Password reset link sent to ${f.text('email') ?? quoted(f.record)}`,
  'user.password_set': (f) =>
    join(`Password set by ${quoted(f.record)}`, f.text('via') ? ` with ${f.text('via')}` : ''),
  'webhook.created': (f) => `${webhook(f)} created`,
  'webhook.updated': (f) => updated(webhook(f), f),
  'webhook.enabled': (f) => `${webhook(f)} enabled`,
  'webhook.disabled': (f) => join(`${webhook(f)} disabled`, reasonOf(f, 'disabledReason')),
  'webhook.deleted': (f) => `${webhook(f)} deleted`,
  'webhook.secret_rotated': (f) =>
    `Signing secret of ${webhook(f).charAt(0).toLowerCase()}${webhook(f).slice(1)} rotated`,
  'webhook.secret_revealed': (f) =>
    `Signing secret of ${webhook(f).charAt(0).toLowerCase()}${webhook(f).slice(1)} shown`,
  'webhook.delivery_resent': (f) => `Delivery resent to ${webhook(f).charAt(0).toLowerCase()}${webhook(f).slice(1)}`,
};

/** "contract.status_changed" -> "Contract status changed": an action without a rule (an old event). */
export function describeAction(action: string): string {
  const text = action.replace(/[._]/g, ' ').trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// ---------------------------------------------------------------------------------------------------------
// Field labels and shown values
// ---------------------------------------------------------------------------------------------------------

/** Labels that the words of a field's name do not give. */
const FIELD_LABELS: Record<string, string> = {
  amountCents: 'Amount',
  amountPaidCents: 'Amount paid',
  approvedCents: 'Approved',
  availableBeforeCents: 'Available before the request',
  appliedCents: 'Applied to the invoice',
  balanceCents: 'Credit balance left',
  booked: 'Impressions booked',
  cardLast4: 'Card',
  checkoutSessionId: 'Checkout',
  contentSha256: 'Content SHA-256',
  creditNoteId: 'Credit note',
  creditedCents: 'Credited',
  daysChanged: 'Days changed',
  email: 'E-mail',
  invoiceIds: 'Invoices',
  isBilling: 'Billing contact',
  isPrimary: 'Primary contact',
  ip: 'IP address',
  isActive: 'Active',
  lineId: 'Line',
  lineItems: 'Lines',
  pdfSha256: 'PDF SHA-256',
  rateBp: 'Commission rate',
  refundOf: 'Refund of payment',
  refundedCents: 'Refunded',
  renewedBy: 'Renewed by',
  repId: 'Sales rep',
  requestedCents: 'Requested',
  returnedCents: 'Returned to available',
  salesRepId: 'Sales rep',
  signedPdfSha256: 'Signed PDF SHA-256',
  stripePaymentLinkId: 'Stripe payment link',
  stripeSubscriptionId: 'Stripe subscription',
  taxCents: 'Tax',
  to: 'Sent to',
  toBalanceCents: "To the customer's credit balance",
  totalCents: 'Total',
  unappliedCents: 'Unapplied',
  url: 'URL',
};

/** Fields that hold dollars (API-shaped snapshots: customers, products, packages, contracts' answers). */
const DOLLAR_FIELDS = new Set([
  'creditBalance',
  'defaultPrice',
  'seasonalPrice',
  'price',
  'unitPrice',
  'discount',
  'setupFee',
  'totalAmount',
  'monthlyAmount',
  'oneTimeAmount',
]);

/** Fields that name another record by id (shown by its number or name): invoiceId, invoiceIds, createdBy. */
const ID_FIELDS = /(?:Id|Ids|By)$/;

/** "defaultTaxRate" -> "Default tax rate"; "requestedCents" -> "Requested"; "address.city" -> "Address: City". */
export function fieldLabel(field: string): string {
  return field
    .split('.')
    .map((part) => {
      if (FIELD_LABELS[part]) return FIELD_LABELS[part];
      const words = part
        .replace(/(Cents|Bp)$/, '')
        .replace(/Ids?$/, '')
        .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
        .replace(/_/g, ' ')
        .toLowerCase()
        .trim();
      return words ? words.charAt(0).toUpperCase() + words.slice(1) : part;
    })
    .join(': ');
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** A snapshot's value as the screen shows it: money as dollars, rates as percents, days as "Dec 15, 2026". */
export function fieldValue(field: string, value: unknown, refs: Readonly<Record<string, string>> = {}): string {
  if (value === null || value === undefined || value === '') return '—';
  const key = field.slice(field.lastIndexOf('.') + 1);
  if (typeof value === 'number') {
    if (/Cents$/.test(key) && Number.isSafeInteger(value)) return formatCents(value);
    if (DOLLAR_FIELDS.has(key)) return formatAmount(value);
    if (/Bp$/.test(key)) return formatBasisPoints(value);
    return COUNT.format(value);
  }
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'string') {
    if (ID_FIELDS.test(key) && refs[value]) return refs[value];
    if (key === 'scope' && value in API_KEY_SCOPE_LABELS) return API_KEY_SCOPE_LABELS[value as ApiKeyScope];
    if (key === 'role' && isRole(value)) return ROLE_LABELS[value];
    if (key === 'method' && value in PAYMENT_METHOD_LABELS) return PAYMENT_METHOD_LABELS[value as PaymentMethod];
    if (DAY.test(value)) return auditDay(value);
    if (INSTANT.test(value)) return auditInstant(value);
    return value;
  }
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) {
    return value.length === 0 ? '—' : value.map((item) => (ID_FIELDS.test(key) && refs[item]) || item).join(', ');
  }
  return JSON.stringify(value);
}

/** "Name, Phone" (at most 6 labels, then "and 2 more"). */
function listed(labels: string[]): string {
  const shown = labels.slice(0, 6).join(', ');
  return labels.length > 6 ? `${shown} and ${labels.length - 6} more` : shown;
}

/** Changes that say nothing to a reader of a sentence (kept in the changes themselves). */
const QUIET_FIELDS = new Set(['updatedAt', 'createdAt', 'id']);

/**
 * The event as one sentence. `changedFields` are the paths whose values differ (the event's changes), for
 * the "... updated: Name, Phone" rules.
 */
export function auditSummary(input: SummaryInput, changedFields: readonly string[] = []): string {
  const before = snapshot(input.before);
  const after = snapshot(input.after);
  const get = (field: string) => (field in after ? after[field] : before[field]);
  const facts: Facts = {
    get,
    text: (field) => {
      const value = get(field);
      return typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : null;
    },
    number: (field) => {
      const value = get(field);
      return typeof value === 'number' && Number.isFinite(value) ? value : null;
    },
    money: (field) => {
      const value = get(field);
      return typeof value === 'number' && Number.isSafeInteger(value) ? formatCents(value) : null;
    },
    day: (field) => {
      const value = get(field);
      return typeof value === 'string' && (DAY.test(value) || INSTANT.test(value)) ? auditDay(value) : null;
    },
    ref: (field, fallback = null) => {
      const value = get(field);
      return (typeof value === 'string' && input.refs[value]) || fallback;
    },
    record: input.refs[input.entityId] ?? input.label ?? `${input.entity} #${input.entityId.slice(-6)}`,
    changed: listed([
      ...new Set(changedFields.filter((f) => !QUIET_FIELDS.has(f)).map((f) => fieldLabel(f.split('.')[0]))),
    ]),
    before,
    after,
    input,
  };
  const rule = SUMMARY_RULES[input.action];
  if (!rule) return join(describeAction(input.action), input.label ? `: ${input.label}` : '');
  return rule(facts);
}
