/**
 * The billing rules, in one place for the server (the billing run's SQL mirrors them and the tests hold
 * both to the same oracle), the 12-month schedule preview and the contract form's summary.
 *
 * - Periods are calendar-month steps from the contract's start date, each computed from the start date
 *   (never from the previous period) and clamped to the month's last day: Jan 31 -> Feb 28/29 -> Mar 31.
 * - A period ends the day before the next one starts; its invoice is due 7 days after it starts.
 * - In season (a period starting October to December), a line whose product has a seasonal price is
 *   billed at that price; the package price is never seasonal. The setup fee is on the first invoice only.
 * - Tax (basis points, snapshotted on the invoice): added = rate x subtotal on top; included = the tax
 *   part of the subtotal. Rounded half away from zero once per invoice (shared/money.ts).
 */
import { addCalendarMonths } from './contracts/contract-lifecycle';
import { type Cents, divideRound, lineTotalCents, sumCents } from './money';
import { BASIS_POINTS } from './rates';

export const INVOICE_DUE_DAYS = 7;
/** Months (1-12) whose periods are billed at seasonal prices. */
export const SEASON_MONTHS: readonly number[] = [10, 11, 12];

// ---------------------------------------------------------------------------------------------------------
// Dates (YYYY-MM-DD calendar days, no time zone)
// ---------------------------------------------------------------------------------------------------------

/** A calendar day plus (or minus) whole days. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.slice(0, 10).split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** The first day of period `index` (0 = the start date itself). */
export function periodStart(startDate: string, index: number): string {
  if (!Number.isInteger(index) || index < 0) throw new RangeError('A period index is a whole number from 0');
  return addCalendarMonths(startDate, index);
}

/** The last day of period `index`: the day before the next period starts. */
export function periodEnd(startDate: string, index: number): string {
  return addDays(periodStart(startDate, index + 1), -1);
}

/** An invoice is due 7 days after its period starts. */
export function dueDate(periodStartDate: string): string {
  return addDays(periodStartDate, INVOICE_DUE_DAYS);
}

/** Whether a period starting on this day is billed at seasonal prices (October to December). */
export function inSeason(periodStartDate: string): boolean {
  return SEASON_MONTHS.includes(Number(periodStartDate.slice(5, 7)));
}

/** The index of the period that contains `date`, or -1 when the date is before the start date. */
export function periodIndexOn(startDate: string, date: string): number {
  if (date < startDate) return -1;
  const [sy, sm] = startDate.split('-').map(Number);
  const [dy, dm] = date.split('-').map(Number);
  let index = (dy - sy) * 12 + (dm - sm);
  while (index > 0 && periodStart(startDate, index) > date) index--;
  return index;
}

export type BillingPeriod = { index: number; start: string; end: string; due: string; inSeason: boolean };

export function billingPeriod(startDate: string, index: number): BillingPeriod {
  const start = periodStart(startDate, index);
  return { index, start, end: periodEnd(startDate, index), due: dueDate(start), inSeason: inSeason(start) };
}

/** Today's calendar day in UTC: the billing run's and the overdue rule's "today". */
export function utcToday(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

// ---------------------------------------------------------------------------------------------------------
// Tax
// ---------------------------------------------------------------------------------------------------------

export type TaxRule = {
  /** The rate in basis points: 8.25% is 825. */
  rateBp: number;
  /** On: prices already include the tax (the invoice shows its part); off: tax is added on top. */
  included: boolean;
  label: string;
};

/**
 * The tax of a subtotal and the invoice total, rounded half away from zero once.
 * Added: tax = subtotal x rate, total = subtotal + tax. Included: tax = subtotal x rate / (1 + rate),
 * total = subtotal.
 */
export function computeTax(subtotalCents: Cents, rule: Pick<TaxRule, 'rateBp' | 'included'>) {
  if (rule.included) {
    const taxCents = divideRound(subtotalCents * rule.rateBp, BASIS_POINTS + rule.rateBp);
    return { taxCents, totalCents: subtotalCents };
  }
  const taxCents = divideRound(subtotalCents * rule.rateBp, BASIS_POINTS);
  return { taxCents, totalCents: subtotalCents + taxCents };
}

// ---------------------------------------------------------------------------------------------------------
// Invoice figures
// ---------------------------------------------------------------------------------------------------------

export type BillableLine = {
  description: string;
  productId: string | null;
  quantity: number;
  unitPriceCents: Cents;
  discountCents: Cents;
  /** The product's seasonal price, when it has one. */
  seasonalPriceCents?: Cents | null;
};

/** What a contract bills every period: its lines, its package (price stored on the contract), its setup fee. */
export type BillableContract = {
  lines: readonly BillableLine[];
  /** null when the contract has no package. */
  packageName: string | null;
  packagePriceCents: Cents;
  setupFeeCents: Cents;
};

export type InvoiceLineKind = 'product' | 'package' | 'setup_fee';

export type DraftInvoiceLine = {
  kind: InvoiceLineKind;
  description: string;
  productId: string | null;
  quantity: number;
  /** The price used for this period: the seasonal price in season where the product has one. */
  unitPriceCents: Cents;
  discountCents: Cents;
  amountCents: Cents;
  seasonal: boolean;
};

export type DraftInvoice = {
  lines: DraftInvoiceLine[];
  subtotalCents: Cents;
  /** The setup-fee line's amount (0 after the first period). */
  setupFeeCents: Cents;
  taxCents: Cents;
  totalCents: Cents;
  /** Whether any line was billed at a seasonal price. */
  seasonalPricing: boolean;
};

export const SETUP_FEE_DESCRIPTION = 'Setup fee (one-time)';
/** A package's invoice line: this, then the package's name. */
export const PACKAGE_LINE_PREFIX = 'Package: ';
export const packageLineDescription = (name: string) => `${PACKAGE_LINE_PREFIX}${name}`;

/** The lines and figures of the invoice for one period of a contract. */
export function draftInvoice(
  contract: BillableContract,
  period: { index: number; start: string },
  tax: Pick<TaxRule, 'rateBp' | 'included'>,
): DraftInvoice {
  const season = inSeason(period.start);
  const lines: DraftInvoiceLine[] = contract.lines.map((line) => {
    const seasonal = season && line.seasonalPriceCents !== null && line.seasonalPriceCents !== undefined;
    const unitPriceCents = seasonal ? (line.seasonalPriceCents as Cents) : line.unitPriceCents;
    return {
      kind: 'product',
      description: line.description,
      productId: line.productId,
      quantity: line.quantity,
      unitPriceCents,
      discountCents: line.discountCents,
      amountCents: lineTotalCents({ quantity: line.quantity, unitPriceCents, discountCents: line.discountCents }),
      seasonal,
    };
  });
  if (contract.packageName !== null) {
    lines.push({
      kind: 'package',
      description: packageLineDescription(contract.packageName),
      productId: null,
      quantity: 1,
      unitPriceCents: contract.packagePriceCents,
      discountCents: 0,
      amountCents: contract.packagePriceCents,
      seasonal: false,
    });
  }
  const setupFeeCents = period.index === 0 ? contract.setupFeeCents : 0;
  if (setupFeeCents > 0) {
    lines.push({
      kind: 'setup_fee',
      description: SETUP_FEE_DESCRIPTION,
      productId: null,
      quantity: 1,
      unitPriceCents: setupFeeCents,
      discountCents: 0,
      amountCents: setupFeeCents,
      seasonal: false,
    });
  }
  const subtotalCents = sumCents(lines.map((line) => line.amountCents));
  return {
    lines,
    subtotalCents,
    setupFeeCents,
    ...computeTax(subtotalCents, tax),
    seasonalPricing: lines.some((line) => line.seasonal),
  };
}

export type ScheduleEntry = BillingPeriod & {
  subtotalCents: Cents;
  setupFeeCents: Cents;
  taxCents: Cents;
  totalCents: Cents;
  seasonalPricing: boolean;
};

/**
 * The next `count` periods from `fromIndex`, with their figures, stopping before the first period that
 * starts on or after `stopBefore` (the contract's auto-stop date when billing stops at the term's end).
 */
export function billingSchedule(
  contract: BillableContract & { startDate: string },
  options: { fromIndex: number; count: number; stopBefore: string | null; tax: Pick<TaxRule, 'rateBp' | 'included'> },
): ScheduleEntry[] {
  const entries: ScheduleEntry[] = [];
  for (let index = Math.max(0, options.fromIndex); entries.length < options.count; index++) {
    const period = billingPeriod(contract.startDate, index);
    if (options.stopBefore !== null && period.start >= options.stopBefore) break;
    const draft = draftInvoice(contract, period, options.tax);
    entries.push({
      ...period,
      subtotalCents: draft.subtotalCents,
      setupFeeCents: draft.setupFeeCents,
      taxCents: draft.taxCents,
      totalCents: draft.totalCents,
      seasonalPricing: draft.seasonalPricing,
    });
  }
  return entries;
}
