import type { Cents } from '../money';
import { lineAmountCents, MAX_CENTS } from '../money';

/**
 * The words of contracts, shared by every other contract file: statuses and their labels and tones,
 * payment modes, the term and quantity limits, every validation message, and the field rules the form and
 * the API both apply.
 */

export const CONTRACT_STATUSES = ['draft', 'sent', 'active', 'paused', 'canceled', 'completed'] as const;
export type ContractStatus = (typeof CONTRACT_STATUSES)[number];

export const PAYMENT_MODES = ['portal', 'pay_link'] as const;
export type PaymentMode = (typeof PAYMENT_MODES)[number];

export const PAYMENT_MODE_LABELS: Record<PaymentMode, { label: string; description: string }> = {
  portal: { label: 'Client Portal', description: 'Customer manages payments online' },
  pay_link: { label: 'Pay-Link', description: 'Send secure payment link via e-mail' },
};

/**
 * A contract's short id, as people quote it: its last 8 characters (ui-spec.md section 9; dashboards show
 * the last 6).
 */
export function shortContractId(id: string, length: 6 | 8 = 8): string {
  return id.slice(-length);
}

/**
 * How a document or e-mail names a contract billed to an agency (product.md section 20): "Advertiser: Bella Notte
 * Trattoria — Billed to: Cardinal Media" (an em dash with spaces).
 */
export function advertiserBilledTo(advertiserName: string, billToName: string): string {
  return `Advertiser: ${advertiserName} — Billed to: ${billToName}`;
}

export const MIN_TERM_MONTHS = 1;
export const MAX_TERM_MONTHS = 120;
/** The form's value for "No Package". */
export const NO_PACKAGE = 'none';

/** Every validation message of the contract form and API, in one place (ui-spec.md section 5). */
export const CONTRACT_MESSAGES = {
  customerRequired: 'Customer is required',
  startDateRequired: 'Start date is required',
  paymentModeRequired: 'Payment mode is required',
  remedyInvalid: 'Under-delivery remedy must be credit or makegood',
  termWhole: 'Term must be a whole number of months',
  termMin: 'Term must be at least 1 month',
  termMax: `Term cannot exceed ${MAX_TERM_MONTHS} months`,
  packageOrLine: 'Please select a package or add at least one complete line item',
  productRequired: 'Product is required',
  quantityWhole: 'Quantity must be a whole number',
  quantityMin: 'Quantity must be at least 1',
  unitPriceRequired: 'Unit price is required',
  unitPriceInvalid: 'Unit price must be an amount in dollars, like 1250.00',
  unitPriceNegative: 'Unit price cannot be negative',
  discountInvalid: 'Discount must be an amount in dollars, like 50.00',
  discountNegative: 'Discount cannot be negative',
  discountAboveLine: 'Discount cannot exceed the line amount',
  seasonalPriceInvalid: 'In-season price must be an amount in dollars, like 1250.00',
  seasonalPriceNegative: 'In-season price cannot be negative',
  flightEndBeforeStart: 'Flight end cannot be before its start',
  flightBeforeContract: "Flight cannot start before the contract's start date",
  flightAfterTerm: "Flight must be within the contract's term",
  amendmentInPast: 'An amendment cannot start in the past',
  lineEndInPast: 'A line cannot end in the past',
  lineEndBeforeFlight: 'A line cannot end before its flight starts',
  lineTooLarge: 'Line amount is too large',
  setupFeeInvalid: 'Setup fee must be an amount in dollars, like 250.00',
  setupFeeNegative: 'Setup fee cannot be negative',
  totalTooLarge: 'Contract total is too large',
  zeroAmountPayLink: 'Contract has $0.00 amount. Please add line items, select a package, or set a setup fee first.',
  cancelReasonRequired: 'Please give a reason for canceling the contract',
} as const;

export const MAX_QUANTITY = 1_000_000;

/** Whether the form or body names a package ('', null and 'none' mean none). */
export function hasPackage(packageId: string | null | undefined): packageId is string {
  return Boolean(packageId && packageId.trim() !== '' && packageId !== NO_PACKAGE);
}

/** The message for a term in months, or null when it is valid (1 to 120, whole). */
export function termIssue(months: number): string | null {
  if (!Number.isFinite(months) || !Number.isInteger(months)) return CONTRACT_MESSAGES.termWhole;
  if (months < MIN_TERM_MONTHS) return CONTRACT_MESSAGES.termMin;
  if (months > MAX_TERM_MONTHS) return CONTRACT_MESSAGES.termMax;
  return null;
}

/** The message for a line's quantity, or null when valid. */
export function quantityIssue(quantity: number): string | null {
  if (!Number.isFinite(quantity) || !Number.isInteger(quantity)) return CONTRACT_MESSAGES.quantityWhole;
  if (quantity < 1) return CONTRACT_MESSAGES.quantityMin;
  if (quantity > MAX_QUANTITY) return `Quantity cannot exceed ${MAX_QUANTITY.toLocaleString('en-US')}`;
  return null;
}

/** Numeric text of a whole number, or NaN ('' and other text are NaN). */
export function parseWhole(text: string): number {
  const trimmed = text.trim();
  return /^[+-]?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

/**
 * The message for a whole line, or null: too large, or a discount above its amount (product.md section 4),
 * at its regular price and, when it has one, at its in-season price, since the same discount applies to
 * both. The one rule of the contract form, the contracts API and the amendments' Add Line.
 */
export function lineIssues(line: {
  quantity: number;
  unitPriceCents: Cents;
  discountCents: Cents;
  /** The in-season price the line keeps (null or left out: none). */
  seasonalPriceCents?: Cents | null;
}): string | null {
  const prices = [line.unitPriceCents];
  if (line.seasonalPriceCents !== null && line.seasonalPriceCents !== undefined) prices.push(line.seasonalPriceCents);
  const amounts = prices.map((unitPriceCents) => lineAmountCents({ quantity: line.quantity, unitPriceCents }));
  if (amounts.some((amount) => amount > MAX_CENTS)) return CONTRACT_MESSAGES.lineTooLarge;
  if (amounts.some((amount) => line.discountCents > amount)) return CONTRACT_MESSAGES.discountAboveLine;
  return null;
}

/**
 * The messages for a line's flight against its contract (`termEnd` is the auto-stop date: the first day
 * after the term, null when indefinite), keyed by the field they belong under.
 */
export function flightIssues(
  flight: { flightStart: string | null; flightEnd: string | null },
  contract: { startDate: string; termEnd: string | null },
): { flightStart?: string; flightEnd?: string } {
  const issues: { flightStart?: string; flightEnd?: string } = {};
  const { flightStart, flightEnd } = flight;
  if (flightStart !== null && flightStart < contract.startDate)
    issues.flightStart = CONTRACT_MESSAGES.flightBeforeContract;
  else if (flightStart !== null && contract.termEnd !== null && flightStart >= contract.termEnd) {
    issues.flightStart = CONTRACT_MESSAGES.flightAfterTerm;
  }
  const start = flightStart ?? contract.startDate;
  if (flightEnd !== null && flightEnd < start) issues.flightEnd = CONTRACT_MESSAGES.flightEndBeforeStart;
  else if (flightEnd !== null && contract.termEnd !== null && flightEnd >= contract.termEnd) {
    issues.flightEnd = CONTRACT_MESSAGES.flightAfterTerm;
  }
  return issues;
}

export const CONTRACT_STATUS_LABELS: Record<ContractStatus, string> = {
  draft: 'Draft',
  sent: 'Sent',
  active: 'Active',
  paused: 'Paused',
  canceled: 'Canceled',
  completed: 'Completed',
};

/** Why a paused contract is paused: by staff, or by dunning when an invoice stayed unpaid (product.md section 14). */
export const PAUSE_REASONS = ['manual', 'non_payment'] as const;
export type PauseReason = (typeof PAUSE_REASONS)[number];
/** Shown beside the Paused badge of a contract paused for non-payment. */
export const PAUSED_FOR_NON_PAYMENT = 'Paused for non-payment';

/** A status colour by meaning; the client turns it into classes (components/ui/badge.tsx). */
export type BadgeTone = 'green' | 'yellow' | 'grey' | 'red' | 'blue';

/** ui-spec.md section 4: active green, sent yellow, draft grey, paused and canceled red, completed blue. */
export const CONTRACT_STATUS_TONES: Record<ContractStatus, BadgeTone> = {
  draft: 'grey',
  sent: 'yellow',
  active: 'green',
  paused: 'red',
  canceled: 'red',
  completed: 'blue',
};

export function isContractStatus(value: unknown): value is ContractStatus {
  return typeof value === 'string' && (CONTRACT_STATUSES as readonly string[]).includes(value);
}

/** A status badge's label and tone (the client's Badge colours it); an unknown status looks like draft. */
export function contractStatusBadge(status: string | null | undefined): { label: string; tone: BadgeTone } {
  const tone = isContractStatus(status) ? CONTRACT_STATUS_TONES[status] : CONTRACT_STATUS_TONES.draft;
  const label = isContractStatus(status)
    ? CONTRACT_STATUS_LABELS[status]
    : status
      ? status.charAt(0).toUpperCase() + status.slice(1)
      : CONTRACT_STATUS_LABELS.draft;
  return { label, tone };
}

/** A status as a word in a sentence: "paused". */
export function statusWord(status: string): string {
  return isContractStatus(status) ? CONTRACT_STATUS_LABELS[status].toLowerCase() : status;
}
