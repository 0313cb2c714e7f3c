/**
 * The figures a person reads about a contract before (and while) it bills: on the contract form's summary,
 * the contract page's Payment Info, the contract lists, the e-mail that sends the contract and the client
 * portal. Every one is taken from the billing engine (shared/billing.ts: the rules the billing run's SQL is
 * property-tested against), never recomputed with rules of its own:
 *
 * - first invoice: the invoice of the first period that bills something, as the billing run will issue it
 *   (every line the period bills, prorated by flight, at in-season prices in season, flat lines whose flight
 *   starts in it, the package, the setup fee), with the tax of the rule given; its date is the period's first
 *   day (the first period when none of the term's bills anything);
 * - regular and in-season monthly amounts: what one whole period bills for the recurring lines (per month
 *   and CPM) that run through the period from a reference day on (a line ending within it is winding down),
 *   at their regular or in-season prices, plus the package: a rate, as the rate card says; the schedule shows
 *   each period with its proration;
 * - one-time charges: the setup fee and each flat line, at the price of the period that bills it (a flat line
 *   whose flight starts in October to December bills its in-season price);
 * - value over the term: the subtotals (before tax) of every period that starts before the auto-stop date;
 *   none for an indefinite contract, which is read "per month".
 */
import {
  type BillableContract,
  type BillableLine,
  billingPeriod,
  billLine,
  billsOnce,
  billsSomething,
  draftInvoice,
  fullPeriodAmount,
  periodIndexOn,
  periodStart,
  SETUP_FEE_DESCRIPTION,
  type TaxRule,
} from './billing';
import type { Cents } from './money';

export type FiguresContract = BillableContract & {
  startDate: string;
  /** The auto-stop date (start + term); null for an indefinite contract. */
  autoStopDate: string | null;
};

export type OneTimeCharge = {
  kind: 'setup_fee' | 'flat';
  description: string;
  amountCents: Cents;
  /** The first day of the period whose invoice carries the charge. */
  billedOn: string;
  /** Billed at the line's in-season price. */
  seasonal: boolean;
};

export type FirstInvoiceFigures = {
  periodStart: string;
  periodEnd: string;
  dueDate: string;
  subtotalCents: Cents;
  taxCents: Cents;
  totalCents: Cents;
};

export type ContractFigures = {
  firstInvoice: FirstInvoiceFigures;
  /** A whole period of the recurring lines running from the reference day on, at regular prices, + package. */
  monthlyCents: Cents;
  /** The same at in-season prices (periods starting October to December). */
  seasonalMonthlyCents: Cents;
  oneTimeCharges: OneTimeCharge[];
  oneTimeCents: Cents;
  /** The term's periods' subtotals, before tax; null for an indefinite contract. */
  termValueCents: Cents | null;
  /** The number of periods in the term; null for an indefinite contract. */
  termPeriods: number | null;
};

const NO_TAX = { rateBp: 0, included: false } as const;

/**
 * The day from which the monthly amounts count a contract's lines (the first day of a billing period): a line
 * that does not run through that period no longer counts. A contract not billed yet (draft, sent, or not started) from its start date; a running one
 * from its next period (the current one is invoiced), so a line ended today leaves the amounts at once, and
 * never before the period after the last one invoiced; a canceled or completed one from its last invoiced
 * period (what it billed when it stopped), or its start.
 */
export function figuresReferenceDay(
  contract: { startDate: string; status: string },
  today: string,
  lastInvoicedIndex?: number,
): string {
  if (contract.status === 'canceled' || contract.status === 'completed') {
    return lastInvoicedIndex === undefined ? contract.startDate : periodStart(contract.startDate, lastInvoicedIndex);
  }
  const afterInvoiced = lastInvoicedIndex === undefined ? null : periodStart(contract.startDate, lastInvoicedIndex + 1);
  let day = contract.startDate;
  if (contract.status !== 'draft' && contract.status !== 'sent' && today >= contract.startDate) {
    day = periodStart(contract.startDate, periodIndexOn(contract.startDate, today) + 1);
  }
  return afterInvoiced !== null && afterInvoiced > day ? afterInvoiced : day;
}

/** How many periods ahead the first invoice is looked for (a contract whose lines start later than that shows its first period). */
const FIRST_INVOICE_HORIZON = 36;

/**
 * The first period that bills something, within the term, and its invoice; the first period (billing nothing)
 * when there is none within the term or the horizon.
 */
function firstBilledPeriod(contract: FiguresContract, tax: Pick<TaxRule, 'rateBp' | 'included'>) {
  for (let index = 0; index < FIRST_INVOICE_HORIZON; index++) {
    const period = billingPeriod(contract.startDate, index);
    if (contract.autoStopDate !== null && index > 0 && period.start >= contract.autoStopDate) break;
    const draft = draftInvoice(contract, period, tax);
    if (billsSomething(draft)) return { period, draft };
  }
  const period = billingPeriod(contract.startDate, 0);
  return { period, draft: draftInvoice(contract, period, tax) };
}

/** Whether a line runs through a day (its flight has no end, or ends that day or later). */
const runsThrough = (line: BillableLine, day: string) => line.flightEnd === null || line.flightEnd >= day;

export function contractFigures(
  contract: FiguresContract,
  options: { tax?: Pick<TaxRule, 'rateBp' | 'included'>; from: string },
): ContractFigures {
  const period0 = billingPeriod(contract.startDate, 0);
  // The period that starts on the reference day (or contains it): a line counts in the monthly amounts when it
  // runs through its end.
  const reference = billingPeriod(contract.startDate, Math.max(0, periodIndexOn(contract.startDate, options.from)));
  const { period: firstPeriod, draft: first } = firstBilledPeriod(contract, options.tax ?? NO_TAX);

  // The package bills every period (never seasonal), as draftInvoice bills it.
  const packageCents = contract.packageName === null ? 0 : contract.packagePriceCents;
  let monthlyCents = packageCents;
  let seasonalMonthlyCents = packageCents;
  for (const line of contract.lines) {
    if (billsOnce(line.priceMetric) || !runsThrough(line, reference.end)) continue;
    monthlyCents += fullPeriodAmount(line, false).amountCents;
    seasonalMonthlyCents += fullPeriodAmount(line, true).amountCents;
  }

  const oneTimeCharges: OneTimeCharge[] = [];
  if (contract.setupFeeCents > 0) {
    oneTimeCharges.push({
      kind: 'setup_fee',
      description: SETUP_FEE_DESCRIPTION,
      amountCents: contract.setupFeeCents,
      billedOn: period0.start,
      seasonal: false,
    });
  }
  for (const line of contract.lines) {
    if (!billsOnce(line.priceMetric)) continue;
    const period = billingPeriod(contract.startDate, Math.max(0, periodIndexOn(contract.startDate, line.flightStart)));
    const billed = billLine(line, period);
    oneTimeCharges.push({
      kind: 'flat',
      description: line.description,
      amountCents: billed?.amountCents ?? 0,
      billedOn: period.start,
      seasonal: billed?.seasonal ?? false,
    });
  }

  let termValueCents: Cents | null = null;
  let termPeriods: number | null = null;
  if (contract.autoStopDate !== null) {
    termValueCents = 0;
    termPeriods = 0;
    for (let index = 0; ; index++) {
      const period = billingPeriod(contract.startDate, index);
      if (period.start >= contract.autoStopDate) break;
      termValueCents += draftInvoice(contract, period, NO_TAX).subtotalCents;
      termPeriods++;
    }
  }

  return {
    firstInvoice: {
      periodStart: firstPeriod.start,
      periodEnd: firstPeriod.end,
      dueDate: firstPeriod.due,
      subtotalCents: first.subtotalCents,
      taxCents: first.taxCents,
      totalCents: first.totalCents,
    },
    monthlyCents,
    seasonalMonthlyCents,
    oneTimeCharges,
    oneTimeCents: oneTimeCharges.reduce((sum, charge) => sum + charge.amountCents, 0),
    termValueCents,
    termPeriods,
  };
}
