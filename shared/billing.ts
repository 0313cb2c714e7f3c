/**
 * The billing rules, in one place for the server (the billing run's SQL is built from the same constants
 * and the tests hold both to the same oracle), the 12-month schedule preview and the contract form's summary.
 *
 * - Periods are calendar-month steps from the contract's start date, each computed from the start date
 *   (never from the previous period) and clamped to the month's last day: Jan 31 -> Feb 28/29 -> Mar 31.
 * - A period ends the day before the next one starts; its invoice is due 7 days after it starts.
 * - A line bills by its price metric, within its flight (the days it runs):
 *   - monthly and cpm (quantity = thousands of impressions booked a month, unit price = rate per 1,000):
 *     every period the flight overlaps; a period the flight covers only in part is prorated by days
 *     (days of the flight in the period / days in the period), rounded half away from zero;
 *   - flat: once, in full, on the period in which its flight starts.
 * - In season (a period starting October to December), a line with an in-season unit price is billed at
 *   it. The package price is a monthly amount, never seasonal. The setup fee is on the first invoice only.
 * - Tax (basis points, snapshotted on the invoice): added = rate x subtotal on top; included = the tax
 *   part of the subtotal. Rounded half away from zero once per invoice (shared/money.ts).
 * - Billed to an agency with agency terms (product.md section 20): the agency's commission is its rate x the
 *   media lines (the subtotal less the setup fee), rounded half away from zero. Net billing: after the gross
 *   lines a negative "Agency commission 15%" line; the subtotal stays the gross lines' sum, and tax and the
 *   total are on the net (subtotal - commission). Gross billing: the invoice is as without an agency, the
 *   commission owed to the agency once it is paid.
 */
import { dayFromNumber, dayNumber, monthNumber } from './calendar-date';
import { addCalendarMonths } from './contracts/contract-lifecycle';
import type { PriceMetric } from './contracts/product-vocabulary';
import { type Cents, divideRound, lineTotalCents, shareOfCents, sumCents } from './money';
import { BASIS_POINTS, formatBasisPoints } from './rates';

export const INVOICE_DUE_DAYS = 7;
/** Months (1-12) whose periods are billed at seasonal prices. */
export const SEASON_MONTHS: readonly number[] = [10, 11, 12];

// ---------------------------------------------------------------------------------------------------------
// Dates (YYYY-MM-DD calendar days, no time zone)
// ---------------------------------------------------------------------------------------------------------

/** A calendar day plus (or minus) whole days. */
export function addDays(date: string, days: number): string {
  return dayFromNumber(dayNumber(date) + days);
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

/** The days from `from` to `to`, both counted (0 when `to` is before `from`). */
export function daysInRange(from: string, to: string): number {
  return Math.max(0, dayNumber(to) - dayNumber(from) + 1);
}

/** The index of the period that contains `date`, or -1 when the date is before the start date. */
export function periodIndexOn(startDate: string, date: string): number {
  if (date < startDate) return -1;
  let index = monthNumber(date) - monthNumber(startDate);
  while (index > 0 && periodStart(startDate, index) > date) index--;
  return index;
}

export type BillingPeriod = { index: number; start: string; end: string; due: string; inSeason: boolean };

export function billingPeriod(startDate: string, index: number): BillingPeriod {
  const start = periodStart(startDate, index);
  return { index, start, end: periodEnd(startDate, index), due: dueDate(start), inSeason: inSeason(start) };
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * The calendar day (YYYY-MM-DD) it is at `now` in an IANA time zone: the business's "today" on the server
 * (server/lib/business-day.ts) for billing, the overdue rule, dunning and inventory.
 */
export function calendarDayIn(timeZone: string, now: Date = new Date()): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    // en-CA writes dates as YYYY-MM-DD.
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  return format.format(now);
}

/** Whether `timeZone` is an IANA time zone this runtime knows (e.g. 'UTC', 'America/New_York'). */
export function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-CA', { timeZone });
    return true;
  } catch {
    return false;
  }
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

/**
 * The tax part of an amount stated tax included (a credit note credits an invoice's total in its own terms):
 * amount x rate / (1 + rate), rounded half away from zero.
 */
export function taxPartOf(amountCents: Cents, rateBp: number): Cents {
  return divideRound(amountCents * rateBp, BASIS_POINTS + rateBp);
}

// ---------------------------------------------------------------------------------------------------------
// Invoice figures
// ---------------------------------------------------------------------------------------------------------

export type BillableLine = {
  description: string;
  productId: string | null;
  priceMetric: PriceMetric;
  quantity: number;
  unitPriceCents: Cents;
  discountCents: Cents;
  /** The line's in-season unit price (periods starting October to December), when it has one. */
  seasonalPriceCents: Cents | null;
  /** The first day the line runs. */
  flightStart: string;
  /** The last day the line runs; null: as long as the contract. */
  flightEnd: string | null;
};

export type AgencyBillingMode = 'net' | 'gross';

/** A contract billed to an agency: the agency's commission (basis points, 1500 = 15%) and how it is billed. */
export type AgencyTerms = { commissionBp: number; billingMode: AgencyBillingMode };

/**
 * What a contract bills every period: its lines, its package (price stored on the contract), its setup fee,
 * and its agency terms when it is billed to an agency (null or left out: none).
 */
export type BillableContract = {
  lines: readonly BillableLine[];
  /** null when the contract has no package. */
  packageName: string | null;
  packagePriceCents: Cents;
  setupFeeCents: Cents;
  agency?: AgencyTerms | null;
};

export type InvoiceLineKind = 'product' | 'package' | 'setup_fee' | 'adjustment' | 'agency_commission';

export type DraftInvoiceLine = {
  kind: InvoiceLineKind;
  description: string;
  productId: string | null;
  /** A product line's metric; null for the package and the setup fee. */
  priceMetric: PriceMetric | null;
  quantity: number;
  /** The price used for this period: the in-season price in season where the line has one. */
  unitPriceCents: Cents;
  discountCents: Cents;
  amountCents: Cents;
  seasonal: boolean;
  /** The days a product line bills: the part of the period its flight covers (a flat line: its flight). */
  coversStart: string | null;
  coversEnd: string | null;
  /** A prorated line: the days billed of the period's days; null when billed in full. */
  proratedDays: number | null;
  periodDays: number | null;
};

export type DraftInvoice = {
  lines: DraftInvoiceLine[];
  /** The gross lines' sum (a net-billed invoice's negative agency-commission line is not part of it). */
  subtotalCents: Cents;
  /** The setup-fee line's amount (0 after the first period). */
  setupFeeCents: Cents;
  /** The agency's commission (0 without agency terms): deducted on the invoice (net) or owed once paid (gross). */
  agencyCommissionCents: Cents;
  /** null without agency terms. */
  agencyBillingMode: AgencyBillingMode | null;
  taxCents: Cents;
  totalCents: Cents;
  /** Whether any line was billed at a seasonal price. */
  seasonalPricing: boolean;
};

export const SETUP_FEE_DESCRIPTION = 'Setup fee (one-time)';
/** A net-billed invoice's agency-commission line: "Agency commission 15%". */
export const AGENCY_COMMISSION_PREFIX = 'Agency commission ';
export const agencyCommissionDescription = (commissionBp: number) =>
  `${AGENCY_COMMISSION_PREFIX}${formatBasisPoints(commissionBp)}`;

/**
 * The agency's commission on an invoice: its rate x the media lines (the subtotal less the setup-fee line),
 * rounded half away from zero (shared/money.ts shareOfCents, exact in BigInt); never below 0 (credits carried
 * beyond the media lines earn the agency nothing).
 */
export function agencyCommissionCents(
  invoice: { subtotalCents: Cents; setupFeeCents: Cents },
  commissionBp: number,
): Cents {
  return Math.max(0, shareOfCents(invoice.subtotalCents - invoice.setupFeeCents, commissionBp, BASIS_POINTS));
}
/** A package's invoice line: this, then the package's name. */
export const PACKAGE_LINE_PREFIX = 'Package: ';
export const packageLineDescription = (name: string) => `${PACKAGE_LINE_PREFIX}${name}`;

/** Whether a metric bills once (flat) rather than every period its flight overlaps (monthly, cpm). */
export const billsOnce = (metric: PriceMetric) => metric === 'flat';

/**
 * What a line bills for one whole period (or, a flat line, once): quantity x the period's unit price - discount,
 * the unit price being the line's in-season price in season when it has one. `seasonal` says which was used.
 */
export function fullPeriodAmount(
  line: Pick<BillableLine, 'quantity' | 'unitPriceCents' | 'discountCents' | 'seasonalPriceCents'>,
  periodInSeason: boolean,
): { amountCents: Cents; unitPriceCents: Cents; seasonal: boolean } {
  const seasonal = periodInSeason && line.seasonalPriceCents !== null;
  const unitPriceCents = seasonal ? (line.seasonalPriceCents as Cents) : line.unitPriceCents;
  const amountCents = lineTotalCents({ quantity: line.quantity, unitPriceCents, discountCents: line.discountCents });
  return { amountCents, unitPriceCents, seasonal };
}

/** A product line on the invoice of one period, or null when the line bills nothing in that period. */
export function billLine(
  line: BillableLine,
  period: { start: string; end: string },
): Omit<DraftInvoiceLine, 'kind' | 'description' | 'productId'> | null {
  const { amountCents: fullCents, unitPriceCents, seasonal } = fullPeriodAmount(line, inSeason(period.start));
  // The results are written out in full rather than spread from a common part: the lists bill every period of
  // a page's terms, and an object spread here cost thirty times the rest of the function.
  if (billsOnce(line.priceMetric)) {
    if (line.flightStart < period.start || line.flightStart > period.end) return null;
    return {
      priceMetric: line.priceMetric,
      quantity: line.quantity,
      unitPriceCents,
      discountCents: line.discountCents,
      seasonal,
      amountCents: fullCents,
      coversStart: line.flightStart,
      coversEnd: line.flightEnd,
      proratedDays: null,
      periodDays: null,
    };
  }
  // biome-ignore lint/complexity/useMathMinMax: calendar days as text, compared as text (Math.max would give NaN)
  const coversStart = line.flightStart > period.start ? line.flightStart : period.start;
  const coversEnd = line.flightEnd !== null && line.flightEnd < period.end ? line.flightEnd : period.end;
  const days = daysInRange(coversStart, coversEnd);
  if (days === 0) return null;
  const periodDays = daysInRange(period.start, period.end);
  const prorated = days < periodDays;
  return {
    priceMetric: line.priceMetric,
    quantity: line.quantity,
    unitPriceCents,
    discountCents: line.discountCents,
    seasonal,
    amountCents: prorated ? divideRound(fullCents * days, periodDays) : fullCents,
    coversStart,
    coversEnd,
    proratedDays: prorated ? days : null,
    periodDays: prorated ? periodDays : null,
  };
}

/**
 * What an amendment changes in a period already invoiced: a prorated charge (a line added) or credit (a line
 * ended), for the days concerned, billed on the contract's next invoice (product.md section 11).
 */
export type Adjustment = {
  description: string;
  productId: string | null;
  coversStart: string;
  coversEnd: string;
  /** Positive: a charge; negative: a credit. */
  amountCents: Cents;
};

const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const dayName = (day: string) => `${MONTH_NAMES[Number(day.slice(5, 7)) - 1]} ${Number(day.slice(8, 10))}`;

/**
 * The adjustments an amendment makes: for each period already invoiced, what the line bills now minus what it
 * billed (`before` null for a line added). Nothing for a period the change does not touch; a flat line already
 * billed is never credited (it bills the same once its flight has started).
 */
export function amendmentAdjustments(
  before: BillableLine | null,
  after: BillableLine,
  invoiced: readonly { start: string; end: string }[],
): Adjustment[] {
  const adjustments: Adjustment[] = [];
  for (const period of invoiced) {
    const now = billLine(after, period);
    const then = before ? billLine(before, period) : null;
    const amountCents = (now?.amountCents ?? 0) - (then?.amountCents ?? 0);
    if (amountCents === 0) continue;
    // A charge covers the days the line now bills; a credit, the days it no longer bills.
    const coversStart =
      amountCents > 0 ? (now?.coversStart ?? period.start) : addDays(after.flightEnd ?? period.end, 1);
    const coversEnd = amountCents > 0 ? (now?.coversEnd ?? period.end) : (then?.coversEnd ?? period.end);
    const days = `${dayName(coversStart)}–${dayName(coversEnd)}, ${coversEnd.slice(0, 4)}`;
    adjustments.push({
      description: `${after.description}: ${amountCents > 0 ? 'added' : 'ended'}, ${days}`,
      productId: after.productId,
      coversStart,
      coversEnd,
      amountCents,
    });
  }
  return adjustments;
}

/** The lines and figures of the invoice for one period of a contract (with the adjustments it carries). */
export function draftInvoice(
  contract: BillableContract,
  period: { index: number; start: string; end: string },
  tax: Pick<TaxRule, 'rateBp' | 'included'>,
  adjustments: readonly Adjustment[] = [],
): DraftInvoice {
  const lines: DraftInvoiceLine[] = [];
  for (const line of contract.lines) {
    const billed = billLine(line, period);
    if (billed) {
      lines.push({
        kind: 'product',
        description: line.description,
        productId: line.productId,
        priceMetric: billed.priceMetric,
        quantity: billed.quantity,
        unitPriceCents: billed.unitPriceCents,
        discountCents: billed.discountCents,
        seasonal: billed.seasonal,
        amountCents: billed.amountCents,
        coversStart: billed.coversStart,
        coversEnd: billed.coversEnd,
        proratedDays: billed.proratedDays,
        periodDays: billed.periodDays,
      });
    }
  }
  const fixed = { productId: null, priceMetric: null, quantity: 1, discountCents: 0, seasonal: false };
  const whole = { coversStart: null, coversEnd: null, proratedDays: null, periodDays: null };
  if (contract.packageName !== null) {
    lines.push({
      kind: 'package',
      description: packageLineDescription(contract.packageName),
      ...fixed,
      unitPriceCents: contract.packagePriceCents,
      amountCents: contract.packagePriceCents,
      ...whole,
    });
  }
  const setupFeeCents = period.index === 0 ? contract.setupFeeCents : 0;
  if (setupFeeCents > 0) {
    lines.push({
      kind: 'setup_fee',
      description: SETUP_FEE_DESCRIPTION,
      ...fixed,
      unitPriceCents: setupFeeCents,
      amountCents: setupFeeCents,
      ...whole,
    });
  }
  // Charges always; credits when the invoice still bills something with them all (an invoice is never $0.00
  // or below: larger credits wait for a later invoice).
  const charges = adjustments.filter((a) => a.amountCents > 0);
  const credits = adjustments.filter((a) => a.amountCents < 0);
  const before = sumCents([...lines.map((line) => line.amountCents), ...charges.map((a) => a.amountCents)]);
  const carried = before + sumCents(credits.map((a) => a.amountCents)) > 0 ? [...charges, ...credits] : charges;
  for (const adjustment of adjustments.filter((a) => carried.includes(a))) {
    lines.push({
      kind: 'adjustment',
      description: adjustment.description,
      ...fixed,
      productId: adjustment.productId,
      unitPriceCents: adjustment.amountCents,
      amountCents: adjustment.amountCents,
      coversStart: adjustment.coversStart,
      coversEnd: adjustment.coversEnd,
      proratedDays: null,
      periodDays: null,
    });
  }
  const subtotalCents = sumCents(lines.map((line) => line.amountCents));
  const seasonalPricing = lines.some((line) => line.seasonal);
  const agency = contract.agency ?? null;
  if (agency === null) {
    return {
      lines,
      subtotalCents,
      setupFeeCents,
      agencyCommissionCents: 0,
      agencyBillingMode: null,
      ...computeTax(subtotalCents, tax),
      seasonalPricing,
    };
  }
  const commissionCents = agencyCommissionCents({ subtotalCents, setupFeeCents }, agency.commissionBp);
  // Net: the commission is deducted on the invoice, as its last line, and taxed and totalled on the net.
  const net = agency.billingMode === 'net';
  if (net) {
    lines.push({
      kind: 'agency_commission',
      description: agencyCommissionDescription(agency.commissionBp),
      ...fixed,
      unitPriceCents: -commissionCents,
      amountCents: -commissionCents,
      ...whole,
    });
  }
  return {
    lines,
    subtotalCents,
    setupFeeCents,
    agencyCommissionCents: commissionCents,
    agencyBillingMode: agency.billingMode,
    ...computeTax(net ? subtotalCents - commissionCents : subtotalCents, tax),
    seasonalPricing,
  };
}

export type ScheduleEntry = BillingPeriod & {
  subtotalCents: Cents;
  setupFeeCents: Cents;
  /** The agency's commission (DraftInvoice.agencyCommissionCents): deducted from the total when billed net. */
  agencyCommissionCents: Cents;
  taxCents: Cents;
  totalCents: Cents;
  seasonalPricing: boolean;
  /** The amendments' charges and credits this period's invoice carries, each as its invoice line says. */
  adjustments: Adjustment[];
};

/**
 * Whether the invoice of a period is issued: only a period that bills something is (product.md section 17: a
 * period whose flights are over, whose flat lines were billed and with no package issues nothing).
 */
export const billsSomething = (draft: Pick<DraftInvoice, 'subtotalCents'>) => draft.subtotalCents > 0;

/**
 * The next `count` periods from `fromIndex`, with their figures, stopping before the first period that
 * starts on or after `stopBefore` (the contract's auto-stop date when billing stops at the term's end). A
 * period that bills nothing is listed with its zero figures (no invoice will be issued for it). The pending
 * adjustments go on the invoice of `atIndex` when they hold a charge, else on the first invoice from there on
 * that bills something of its own, as the billing run places them.
 */
export function billingSchedule(
  contract: BillableContract & { startDate: string },
  options: {
    fromIndex: number;
    count: number;
    stopBefore: string | null;
    tax: Pick<TaxRule, 'rateBp' | 'included'>;
    /** Pending adjustments and the period whose invoice will carry them (the next one not yet issued). */
    adjustments?: { items: readonly Adjustment[]; atIndex: number };
  },
): ScheduleEntry[] {
  const entries: ScheduleEntry[] = [];
  const pending = options.adjustments?.items ?? [];
  const withCharge = pending.some((a) => a.amountCents > 0);
  let carryAt = pending.length > 0 ? (options.adjustments?.atIndex ?? -1) : -1;
  for (let index = Math.max(0, options.fromIndex); entries.length < options.count; index++) {
    const period = billingPeriod(contract.startDate, index);
    if (options.stopBefore !== null && period.start >= options.stopBefore) break;
    let carried: readonly Adjustment[] = [];
    if (index === carryAt) {
      if (withCharge || billsSomething(draftInvoice(contract, period, options.tax))) carried = pending;
      else carryAt = index + 1;
    }
    const draft = draftInvoice(contract, period, options.tax, carried);
    entries.push({
      ...period,
      subtotalCents: draft.subtotalCents,
      setupFeeCents: draft.setupFeeCents,
      agencyCommissionCents: draft.agencyCommissionCents,
      taxCents: draft.taxCents,
      totalCents: draft.totalCents,
      seasonalPricing: draft.seasonalPricing,
      adjustments: draft.lines
        .filter((line) => line.kind === 'adjustment')
        .map((line) => ({
          description: line.description,
          productId: line.productId,
          coversStart: line.coversStart ?? period.start,
          coversEnd: line.coversEnd ?? period.end,
          amountCents: line.amountCents,
        })),
    });
  }
  return entries;
}
