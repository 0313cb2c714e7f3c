import { z } from 'zod';
import { IO_STATUSES } from './insertion-order-vocabulary';

/**
 * The public payment side: the pay-link page (/p/{token}), the built-in hosted checkout
 * (/checkout/{token}) and its card form. The card form's schema is used by the form and by the route.
 */

// ---------------------------------------------------------------------------------------------------------
// Messages
// ---------------------------------------------------------------------------------------------------------

export const CHECKOUT_MESSAGES = {
  invalidPayLink: 'This payment link is not valid',
  invalidCheckout: 'This checkout link is not valid',
  nothingDue: 'Nothing is due on this contract right now.',
  /** "Pay all due" with no invoice billed to the client's customer that has something due. */
  nothingDueToPayAll: 'Nothing is due on your invoices right now.',
  checkoutExpired: 'This checkout has expired. Go back to the payment page to start a new one.',
  alreadyPaid: 'This invoice has already been paid.',
  checkoutOpening: 'Your checkout is being prepared. Please try again in a moment.',
  amountChanged:
    'The amount due has changed since this checkout was opened. Go back to the payment page to start again.',
  declined: 'Your card was declined.',
  cardNumberRequired: 'Card number is required',
  cardNumberIncomplete: 'Your card number is incomplete.',
  cardNumberInvalid: 'Your card number is invalid.',
  expiryRequired: 'Expiration date is required',
  expiryIncomplete: "Your card's expiration date is incomplete.",
  expiryInvalidMonth: "Your card's expiration month is invalid.",
  expiryPast: "Your card's expiration date is in the past.",
  cvcIncomplete: "Your card's security code is incomplete.",
  nameRequired: 'Name on card is required',
} as const;

/** Why a pay link offers no payment, in the words the page shows. */
export function closedContractMessage(status: string): string {
  return status === 'completed'
    ? 'This contract is completed, so there is nothing to pay through this link.'
    : 'This contract was canceled, so there is nothing to pay through this link.';
}

// ---------------------------------------------------------------------------------------------------------
// Cards
// ---------------------------------------------------------------------------------------------------------

/**
 * The built-in provider's test cards (the same numbers as Stripe's test mode). Any other number is
 * declined: the built-in checkout never moves real money, so it must never accept a real card.
 */
export const TEST_CARDS = {
  visa: '4242424242424242',
  mastercard: '5555555555554444',
  amex: '378282246310005',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  expired: '4000000000000069',
  incorrectCvc: '4000000000000127',
  /** Saves, then every off-session charge is declined (soft). */
  declinesOffSession: '4000000000000341',
  /** Needs authentication (3-D Secure) on every charge. */
  authentication: '4000002760003184',
} as const;

export const CARD_BRANDS = ['visa', 'mastercard', 'amex', 'discover', 'unknown'] as const;
export type CardBrand = (typeof CARD_BRANDS)[number];

export const CARD_BRAND_LABELS: Record<CardBrand, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  unknown: 'Card',
};

export const digitsOnly = (value: string) => value.replace(/\D/g, '');

/** The Luhn checksum every card number carries in its last digit. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** The card network from the number's leading digits (enough for display and the CVC length). */
export function cardBrand(digits: string): CardBrand {
  if (/^4/.test(digits)) return 'visa';
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^(5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720)/.test(digits)) return 'mastercard';
  if (/^(6011|65|64[4-9])/.test(digits)) return 'discover';
  return 'unknown';
}

/** Card numbers are 15 digits for American Express, 16 for the others (at most 19 for any network). */
export function cardNumberLength(brand: CardBrand): number {
  return brand === 'amex' ? 15 : 16;
}

/** "4242424242424242" -> "4242 4242 4242 4242"; American Express as 4-6-5. */
export function formatCardNumber(value: string): string {
  const digits = digitsOnly(value).slice(0, 19);
  const groups = cardBrand(digits) === 'amex' ? [4, 6, 5] : [4, 4, 4, 4, 3];
  const parts: string[] = [];
  let at = 0;
  for (const size of groups) {
    if (at >= digits.length) break;
    parts.push(digits.slice(at, at + size));
    at += size;
  }
  return parts.join(' ');
}

/** "1234" -> "12 / 34" while typing; a lone month digit above 1 becomes "0N". */
export function formatExpiry(value: string): string {
  let digits = digitsOnly(value).slice(0, 4);
  if (/^[2-9]$/.test(digits)) digits = `0${digits}`;
  return digits.length <= 2 ? digits : `${digits.slice(0, 2)} / ${digits.slice(2)}`;
}

/** "MM / YY" (or MM/YY, MMYY, MM/YYYY) -> { month, year } with a four-digit year; null when incomplete. */
export function parseExpiry(value: string): { month: number; year: number } | null {
  const match = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(value);
  if (!match) return null;
  const month = Number(match[1]);
  const year = match[2].length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
  return { month, year };
}

/** A card is good through the last day of its expiry month. */
export function expiryIsPast(expiry: { month: number; year: number }, today: Date = new Date()): boolean {
  const current = today.getFullYear() * 12 + today.getMonth();
  return expiry.year * 12 + (expiry.month - 1) < current;
}

export const cardPaymentSchema = z.object({
  cardNumber: z
    .string({ message: CHECKOUT_MESSAGES.cardNumberRequired })
    .max(40, CHECKOUT_MESSAGES.cardNumberInvalid)
    .transform(digitsOnly)
    .superRefine((digits, ctx) => {
      if (digits.length === 0) ctx.addIssue({ code: 'custom', message: CHECKOUT_MESSAGES.cardNumberRequired });
      else if (digits.length < 12 || digits.length < Math.min(cardNumberLength(cardBrand(digits)), 19)) {
        ctx.addIssue({ code: 'custom', message: CHECKOUT_MESSAGES.cardNumberIncomplete });
      } else if (digits.length > 19 || !luhnValid(digits)) {
        ctx.addIssue({ code: 'custom', message: CHECKOUT_MESSAGES.cardNumberInvalid });
      }
    }),
  expiry: z
    .string({ message: CHECKOUT_MESSAGES.expiryRequired })
    .max(20, CHECKOUT_MESSAGES.expiryIncomplete)
    .trim()
    .superRefine((value, ctx) => {
      if (!value) {
        ctx.addIssue({ code: 'custom', message: CHECKOUT_MESSAGES.expiryRequired });
        return;
      }
      const parsed = parseExpiry(value);
      if (!parsed) ctx.addIssue({ code: 'custom', message: CHECKOUT_MESSAGES.expiryIncomplete });
      else if (parsed.month < 1 || parsed.month > 12) {
        ctx.addIssue({ code: 'custom', message: CHECKOUT_MESSAGES.expiryInvalidMonth });
      } else if (expiryIsPast(parsed)) ctx.addIssue({ code: 'custom', message: CHECKOUT_MESSAGES.expiryPast });
    }),
  cvc: z
    .string({ message: CHECKOUT_MESSAGES.cvcIncomplete })
    .trim()
    .regex(/^\d{3,4}$/, CHECKOUT_MESSAGES.cvcIncomplete),
  name: z
    .string({ message: CHECKOUT_MESSAGES.nameRequired })
    .trim()
    .min(1, CHECKOUT_MESSAGES.nameRequired)
    .max(100, 'Name on card cannot be longer than 100 characters'),
  /** "Save this card and pay future invoices of this contract automatically" (product.md section 18): off by default. */
  saveCard: z.boolean().optional().default(false),
});
export type CardPaymentValues = z.input<typeof cardPaymentSchema>;
export type CardPayment = z.output<typeof cardPaymentSchema>;

// ---------------------------------------------------------------------------------------------------------
// Params and answers
// ---------------------------------------------------------------------------------------------------------

/** A link's token from the path; one that is malformed answers the same 404 as an unknown one. */
export const tokenParamSchema = z.object({ token: z.string().max(200) });

/** Tokens are base64url (192 random bits); nothing else can name a pay link or a checkout. */
export const isWellFormedToken = (token: string) => /^[A-Za-z0-9_-]{16,100}$/.test(token);

export const PAY_LINK_STATES = ['due', 'nothing_due', 'closed'] as const;
export type PayLinkState = (typeof PAY_LINK_STATES)[number];

export const payLinkInvoiceSchema = z.object({
  id: z.string(),
  number: z.string(),
  periodStart: z.string(),
  periodEnd: z.string(),
  dueDate: z.string(),
  status: z.string(),
  total: z.number(),
  amountPaid: z.number(),
  amountDue: z.number(),
  overdue: z.boolean(),
});
export type PayLinkInvoice = z.infer<typeof payLinkInvoiceSchema>;

export const firstPaymentLineSchema = z.object({
  description: z.string(),
  quantity: z.number(),
  unitPrice: z.number(),
  discount: z.number(),
  amount: z.number(),
  seasonal: z.boolean(),
});

/** The first invoice of a contract not billed yet: what its first payment charges. */
export const firstPaymentSchema = z.object({
  periodStart: z.string(),
  periodEnd: z.string(),
  lines: z.array(firstPaymentLineSchema),
  subtotal: z.number(),
  tax: z.number(),
  taxLabel: z.string(),
  taxRate: z.number(),
  taxIncluded: z.boolean(),
  total: z.number(),
});
export type FirstPayment = z.infer<typeof firstPaymentSchema>;

export const payLinkSchema = z.object({
  business: z.object({ name: z.string() }),
  customer: z.object({ name: z.string(), company: z.string().nullable() }),
  contract: z.object({
    id: z.string(),
    title: z.string().nullable(),
    description: z.string().nullable(),
    status: z.string(),
    startDate: z.string(),
  }),
  /** due: a Pay button; nothing_due and closed: a message and no payment. */
  state: z.enum(PAY_LINK_STATES),
  message: z.string().nullable(),
  invoices: z.array(payLinkInvoiceSchema),
  firstPayment: firstPaymentSchema.nullable(),
  totalDue: z.number(),
  /**
   * The contract's newest insertion order version (product.md section 15): the page shows the IO step first,
   * and payment waits until it is accepted. null: none was ever sent (the contract pays as before).
   */
  insertionOrder: z.object({ token: z.string(), version: z.number().int(), status: z.enum(IO_STATUSES) }).nullable(),
});
export type PayLink = z.infer<typeof payLinkSchema>;

export const checkoutUrlSchema = z.object({ checkoutUrl: z.string() });
export type CheckoutUrlResponse = z.infer<typeof checkoutUrlSchema>;

export const CHECKOUT_STATUSES = ['open', 'completed', 'expired'] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];

/** What the hosted checkout page shows. */
export const checkoutSchema = z.object({
  business: z.object({ name: z.string() }),
  customer: z.object({ name: z.string(), email: z.string() }),
  description: z.string(),
  amount: z.number(),
  status: z.enum(CHECKOUT_STATUSES),
  /** Where "Back" leads: the pay-link page, or the client portal. */
  returnUrl: z.string(),
  /** Set once completed: the success page. */
  redirectUrl: z.string().nullable(),
  expiresAt: z.string(),
  /** The consent the "Save this card ..." box stands for (product.md section 18), shown beside it. */
  autopayConsent: z.string(),
});
export type Checkout = z.infer<typeof checkoutSchema>;

export const checkoutPaidSchema = z.object({ redirectUrl: z.string() });
export type CheckoutPaid = z.infer<typeof checkoutPaidSchema>;

/**
 * The page a successful payment leads to (it never marks anything paid). With the checkout's token it also names
 * what was paid and offers the receipt (GET /api/checkout/{token}/receipt): the token is the capability the payer
 * already holds, and it comes first in the query so that the capability links' masking finds it
 * (server/lib/capability-links.ts). Without it (older links): ui-spec's page with the contract id alone. A
 * "Pay all due" checkout (several contracts) names no contract.
 */
export const paymentSuccessPath = (contractId: string | null, checkoutToken?: string) => {
  const contract = contractId ? `contract=${encodeURIComponent(contractId)}` : '';
  if (!checkoutToken) return `/payment/success${contract ? `?${contract}` : ''}`;
  return `/payment/success?checkout=${encodeURIComponent(checkoutToken)}${contract ? `&${contract}` : ''}`;
};

// ---------------------------------------------------------------------------------------------------------
// The receipt of a checkout (the payment success page)
// ---------------------------------------------------------------------------------------------------------

/** paid: the provider confirmed it (the receipt is there); pending: not confirmed yet (Stripe's webhook is on its way). */
export const CHECKOUT_RECEIPT_STATES = ['paid', 'pending'] as const;
export type CheckoutReceiptState = (typeof CHECKOUT_RECEIPT_STATES)[number];

/** One invoice a payment went to: what it paid on it, and what is still due on it now. */
export const receiptInvoiceSchema = z.object({
  number: z.string(),
  periodStart: z.string(),
  periodEnd: z.string(),
  total: z.number(),
  amountPaid: z.number(),
  amountDue: z.number(),
});
export type ReceiptInvoice = z.infer<typeof receiptInvoiceSchema>;

/** What was paid: the same facts as the receipt e-mail and the receipt PDF. */
export const receiptSchema = z.object({
  /** Dollars received by this payment (every invoice it went to). */
  amount: z.number(),
  /** When the money moved (ISO), and its business day (YYYY-MM-DD). */
  paidAt: z.string(),
  paidOn: z.string(),
  /** "Visa ending in 4242", "Wire transfer" */
  method: z.string(),
  invoices: z.array(receiptInvoiceSchema),
  /** Dollars still due on those invoices now. */
  amountDue: z.number(),
  /** The contract's title (or its short number): never its description, which is the rep's own words. */
  contractName: z.string(),
  /** Where the receipt e-mail went. */
  emailedTo: z.string(),
});
export type Receipt = z.infer<typeof receiptSchema>;

export const checkoutReceiptSchema = z.object({
  business: z.object({ name: z.string() }),
  state: z.enum(CHECKOUT_RECEIPT_STATES),
  /** The contract paid for; null for a "Pay all due" (invoices of several contracts). */
  contractId: z.string().nullable(),
  /** A pay-link payer's way back: its pay page (/p/{token}); null for a portal checkout. */
  payPageUrl: z.string().nullable(),
  /**
   * A portal checkout's way back: the client's page of the contract (the portal itself for a "Pay all due");
   * null for a pay-link checkout.
   */
  contractPageUrl: z.string().nullable(),
  /** Null while pending (and when the money could go to no invoice: finance refunds it). */
  receipt: receiptSchema.nullable(),
  /** The receipt as a PDF, through the same checkout token; null without a receipt. */
  pdfUrl: z.string().nullable(),
});
export type CheckoutReceipt = z.infer<typeof checkoutReceiptSchema>;

/** The receipt PDF's file name: "receipt-INV-2026-000123.pdf". */
export const receiptFilename = (invoiceNumber: string) => `receipt-${invoiceNumber}.pdf`;

/** The client's own page of a contract (client/src/lib/paths.ts portalContract): its invoices, Pay Now, documents. */
export const portalContractPath = (contractId: string) => `/portal/contracts/${encodeURIComponent(contractId)}`;

/**
 * Where a customer manages its payment details for a contract: a session of Stripe's customer portal when
 * Stripe is configured and the contract has a Stripe customer (provider "stripe"; the URL is the customer's
 * own, short-lived), otherwise the product's own portal page of the contract (provider "builtin"), where the
 * client signs in to see its invoices and pay them.
 */
export const billingPortalSchema = z.object({ url: z.string(), provider: z.enum(['stripe', 'builtin']) });
export type BillingPortal = z.infer<typeof billingPortalSchema>;

export const BILLING_PORTAL_MESSAGES = {
  payLinkMode: 'This contract is paid through its payment link: its customer has no portal payment details',
  unavailable: 'The payment provider could not open the customer portal. Please try again in a moment.',
} as const;
