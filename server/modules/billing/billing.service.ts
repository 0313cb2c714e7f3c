import {
  type BillableContract,
  type BillableLine,
  billingPeriod,
  billingSchedule,
  type DraftInvoice,
  draftInvoice,
  periodIndexOn,
  type TaxRule,
} from '@shared/billing';
import { type ContractFigures, contractFigures, figuresReferenceDay } from '@shared/contract-figures';
import { canSeeContract } from '@shared/contracts/contract-access';
import type { ContractSchedule, InvoiceStatus } from '@shared/contracts/invoices';
import { centsToAmount } from '@shared/money';
import { basisPointsToPercent, percentToBasisPoints } from '@shared/rates';
import type { Db } from '../../db/client';
import { businessToday } from '../../lib/business-day';
import { loggableError } from '../../lib/db-errors';
import { notFound } from '../../lib/errors';
import type { Mailer } from '../../lib/mailer';
import type { SessionUser } from '../sessions/sessions';
import { getSettings } from '../settings/settings.service';
import {
  agencyTermsOf,
  type ContractRow,
  type FirstInvoiceRef,
  selectAdjustmentLinesOf,
  selectAnyInvoiceId,
  selectBillableContract,
  selectBillableLinesOf,
  selectContract,
  selectContractInvoiceRefs,
  selectInvoicedPeriods,
  selectInvoiceRefsOf,
  selectLastInvoicedPeriodsOf,
  selectPendingAdjustments,
  selectPendingAdjustmentsOf,
} from './billing.repo';
import { runBilling } from './billing-run';

/**
 * What the rest of the product asks of billing: bill a contract now (after an activation or a resume), whether
 * a contract has invoices, the 12-period schedule preview and the first invoice's figures before it is
 * issued. The preview, the quote and the billing run follow the same rules (shared/billing.ts).
 */

type AfterContractBilled = (
  deps: { db: Db; mailer: Mailer; baseUrl: string },
  contractId: string,
  asOf: string | undefined,
) => Promise<void>;
let afterContractBilled: AfterContractBilled | null = null;

/**
 * What runs right after a contract was billed now: autopay's charge of what became due (modules/autopay registers
 * it, since billing sits below the modules that take money). One listener; registering again replaces it.
 */
export function registerAfterContractBilled(listener: AfterContractBilled): void {
  afterContractBilled = listener;
}

/**
 * Issues the contract's due invoices now (after the activation or resume has committed) and sends their
 * e-mails. A failure here does not undo the activation: the next scheduled run issues them.
 */
export async function billContractNow(
  deps: { db: Db; mailer: Mailer; baseUrl: string },
  contractId: string,
  asOf?: string,
): Promise<void> {
  try {
    const result = await runBilling(deps.db, { contractId, baseUrl: deps.baseUrl, asOf });
    if (result.invoicesIssued > 0) deps.mailer.kick(deps.db);
  } catch (error) {
    process.emitWarning(
      `Billing contract ${contractId} failed; the next billing run issues its invoices: ${loggableError(error).message}`,
    );
    return;
  }
  // Autopay charges what became due at once (a catch-up invoice past its due date included).
  if (afterContractBilled) await afterContractBilled(deps, contractId, asOf);
}

/** Invoices are financial records: a contract that has any is kept (canceled), never deleted. */
export const CONTRACT_HAS_INVOICES = 'This contract has invoices, so it is kept for the records and cannot be deleted.';

export async function contractHasInvoices(db: Db, contractId: string): Promise<boolean> {
  return Boolean(await selectAnyInvoiceId(db, contractId));
}

/** The tax rule of the day (the settings), as invoices snapshot it. */
async function currentTax(db: Db): Promise<TaxRule> {
  const tax = await getSettings(db, 'tax');
  return { rateBp: percentToBasisPoints(tax.defaultTaxRate), included: tax.taxIncluded, label: tax.taxLabel };
}

export type FirstInvoiceQuote = {
  draft: DraftInvoice;
  periodStart: string;
  periodEnd: string;
  tax: TaxRule;
};

/** The first invoice as the billing run will issue it: period 0's lines, the setup fee, tax from the settings. */
export async function quoteFirstInvoice(db: Db, contract: ContractRow): Promise<FirstInvoiceQuote> {
  const [billable, tax] = await Promise.all([selectBillableContract(db, contract), currentTax(db)]);
  const period = billingPeriod(contract.startDate, 0);
  return { draft: draftInvoice(billable, period, tax), periodStart: period.start, periodEnd: period.end, tax };
}

/**
 * The next 12 billing periods with their figures: from the start date for a contract not yet billed,
 * from the current period otherwise; stopping at the term's end when billing stops there. Nothing for
 * a canceled or completed contract.
 */
export async function contractSchedule(db: Db, actor: SessionUser, contractId: string): Promise<ContractSchedule> {
  const contract = await selectContract(db, contractId);
  // Staff who may read it (GET /api/contracts/{id}/schedule), or its client (GET /api/client/contracts/{id}/schedule).
  if (!contract || !canSeeContract(actor, contract)) throw notFound('Contract');
  return scheduleOf(db, contract);
}

/**
 * The schedule of a contract whose reader was already decided (an insertion order freezes it at the send);
 * null when there is no such contract.
 */
export async function contractScheduleOf(db: Db, contractId: string): Promise<ContractSchedule | null> {
  const contract = await selectContract(db, contractId);
  return contract ? scheduleOf(db, contract) : null;
}

async function scheduleOf(db: Db, contract: ContractRow): Promise<ContractSchedule> {
  const contractId = contract.id;
  const [tax, settings, issued] = await Promise.all([
    currentTax(db),
    getSettings(db, 'contracts'),
    selectContractInvoiceRefs(db, contractId),
  ]);
  const stopsOn = settings.pausePaymentsAfterExpiry ? contract.autoStopDate : null;
  const base = {
    contractId,
    taxLabel: tax.label,
    taxRate: basisPointsToPercent(tax.rateBp),
    taxIncluded: tax.included,
    stopsOn,
  };
  if (contract.status === 'canceled' || contract.status === 'completed') return { ...base, items: [] };

  const billable: BillableContract & { startDate: string } = {
    startDate: contract.startDate,
    ...(await selectBillableContract(db, contract)),
  };
  const fromIndex = issued.length === 0 ? 0 : Math.max(0, periodIndexOn(contract.startDate, businessToday()));
  const byIndex = new Map(issued.map((i) => [i.periodIndex, i]));
  // Amendments' pending charges and credits go on the next invoice issued: the billing run bills from the period
  // after the last one invoiced (an earlier period that billed nothing is not looked at again).
  const lastIssued = issued.reduce((last, i) => Math.max(last, i.periodIndex), -1);
  const atIndex = Math.max(fromIndex, lastIssued + 1);
  const adjustments = { items: await selectPendingAdjustments(db, contractId), atIndex };
  const entries = billingSchedule(billable, { fromIndex, count: 12, stopBefore: stopsOn, tax, adjustments });
  // The periods already invoiced show their invoice's own adjustment lines.
  const shownInvoices = entries.flatMap((e) => byIndex.get(e.index)?.id ?? []);
  const invoicedAdjustments = new Map<string, Awaited<ReturnType<typeof selectAdjustmentLinesOf>>>();
  for (const line of await selectAdjustmentLinesOf(db, shownInvoices)) {
    invoicedAdjustments.set(line.invoiceId, [...(invoicedAdjustments.get(line.invoiceId) ?? []), line]);
  }
  return {
    ...base,
    items: entries.map((e) => {
      const invoice = byIndex.get(e.index);
      // A period already invoiced shows what its invoice says (an amendment since never changes it).
      const figures = invoice ?? e;
      return {
        periodIndex: e.index,
        periodStart: e.start,
        periodEnd: e.end,
        dueDate: e.due,
        subtotal: centsToAmount(figures.subtotalCents),
        setupFee: centsToAmount(figures.setupFeeCents),
        agencyCommission: centsToAmount(figures.agencyCommissionCents),
        agencyBillingMode: invoice ? (invoice.agencyBillingMode ?? null) : (billable.agency?.billingMode ?? null),
        tax: centsToAmount(figures.taxCents),
        total: centsToAmount(figures.totalCents),
        inSeason: e.inSeason,
        seasonalPricing: invoice ? invoice.inSeason : e.seasonalPricing,
        invoice: invoice ? { id: invoice.id, number: invoice.number, status: invoice.status as InvoiceStatus } : null,
        adjustments: (invoice ? (invoicedAdjustments.get(invoice.id) ?? []) : e.adjustments).map((a) => ({
          description: a.description,
          coversStart: a.coversStart ?? e.start,
          coversEnd: a.coversEnd ?? e.end,
          amount: centsToAmount(a.amountCents),
        })),
      };
    }),
  };
}

/** The last invoiced period of a contract (undefined: none yet): the monthly amounts count from the next. */
export async function lastInvoicedPeriod(db: Db, contractId: string): Promise<number | undefined> {
  return (await selectLastInvoicedPeriodsOf(db, [contractId])).get(contractId);
}

/** The invoiced periods (not voided) of a contract that end on or after a day: those an amendment may touch. */
export async function invoicedPeriodsFrom(tx: Db, contractId: string, from: string) {
  return selectInvoicedPeriods(tx, contractId, from);
}

// ---------------------------------------------------------------------------------------------------------
// Previews of many contracts: lists, the contract e-mail, the client portal (shared/contract-figures.ts)
// ---------------------------------------------------------------------------------------------------------

/** A contract's previewed figures, and its first invoice once it is issued (which then is the figure shown). */
export type ContractPreview = ContractFigures & { issuedFirstInvoice: FirstInvoiceRef | null };

/** What shared/billing.ts needs of a contract row and its lines (the package line's name plays no part in figures). */
function billableOf(contract: ContractRow, lines: BillableLine[]): BillableContract & { startDate: string } {
  return {
    startDate: contract.startDate,
    lines,
    packageName: contract.packageId === null ? null : '',
    packagePriceCents: contract.packagePriceCents,
    setupFeeCents: contract.setupFeeCents,
    agency: agencyTermsOf(contract),
  };
}

/**
 * The figures a person reads about each of these contracts, from the billing engine with today's tax
 * settings: three prepared statements whatever the number of contracts (their lines; their first invoices and
 * last invoiced periods; the tax).
 */
export async function previewContracts(db: Db, rows: readonly ContractRow[]): Promise<Map<string, ContractPreview>> {
  const [lines, { firstInvoices, lastInvoiced }, tax] = await Promise.all([
    selectBillableLinesOf(
      db,
      rows.map((row) => row.id),
    ),
    selectInvoiceRefsOf(db, rows),
    currentTax(db),
  ]);
  const today = businessToday();
  return new Map(
    rows.map((row) => [
      row.id,
      {
        ...contractFigures(
          { ...billableOf(row, lines.get(row.id) ?? []), autoStopDate: row.autoStopDate },
          { tax, from: figuresReferenceDay(row, today, lastInvoiced.get(row.id)) },
        ),
        issuedFirstInvoice: firstInvoices.get(row.id) ?? null,
      },
    ]),
  );
}

/** The next charge of one contract: the first period from today not invoiced yet that bills anything. */
export type ScheduledCharge = { contractId: string; periodStart: string; dueDate: string; totalCents: number };

/** How far ahead the next charge of a contract is looked for (a contract that bills nothing for 3 years has none). */
const NEXT_CHARGE_HORIZON = 36;

/**
 * The next scheduled charge of each of these contracts (active ones: the billing run bills nothing else), as
 * the contract's schedule shows it and the billing run will issue it: the first period starting today or
 * later after the last invoiced one, with the amendments' pending charges and credits, the tax of the
 * settings, stopping at the term's end when billing stops there; a period that bills nothing is passed over.
 * Five statements whatever the number of contracts (lines, last invoiced periods, adjustments, tax, settings).
 */
export async function nextScheduledCharges(db: Db, rows: readonly ContractRow[]): Promise<ScheduledCharge[]> {
  const ids = rows.map((row) => row.id);
  const [lines, lastInvoiced, adjustments, tax, settings] = await Promise.all([
    selectBillableLinesOf(db, ids),
    selectLastInvoicedPeriodsOf(db, ids),
    selectPendingAdjustmentsOf(db, ids),
    currentTax(db),
    getSettings(db, 'contracts'),
  ]);
  const today = businessToday();
  const charges: ScheduledCharge[] = [];
  for (const row of rows) {
    const last = lastInvoiced.get(row.id);
    const fromToday = periodIndexOn(row.startDate, today);
    const startsTodayOrLater =
      fromToday < 0 ? 0 : billingPeriod(row.startDate, fromToday).start < today ? fromToday + 1 : fromToday;
    const next = Math.max(last === undefined ? 0 : last + 1, startsTodayOrLater);
    const entries = billingSchedule(billableOf(row, lines.get(row.id) ?? []), {
      fromIndex: next,
      count: NEXT_CHARGE_HORIZON,
      stopBefore: settings.pausePaymentsAfterExpiry ? row.autoStopDate : null,
      tax,
      adjustments: { items: adjustments.get(row.id) ?? [], atIndex: next },
    });
    const charge = entries.find((entry) => entry.totalCents > 0);
    if (charge) {
      charges.push({
        contractId: row.id,
        periodStart: charge.start,
        dueDate: charge.due,
        totalCents: charge.totalCents,
      });
    }
  }
  return charges;
}

/**
 * What each contract bills in each month of a window, by the billing engine's schedule (the figures its
 * invoices have or will have): for every period starting from `fromMonth`'s first day until `months` months
 * later, the period's subtotal (its setup fee included, before tax) counted in the month the period starts, stopping at
 * the term's end when billing stops there. The forecast's booked revenue (product.md section 19); an
 * amendment's pending charge or credit is left out. Three statements whatever the number of contracts.
 */
export async function billedByMonth(
  db: Db,
  rows: readonly ContractRow[],
  window: { fromMonth: string; months: number },
): Promise<Map<string, Map<string, number>>> {
  const ids = rows.map((row) => row.id);
  const [lines, tax, settings] = await Promise.all([
    selectBillableLinesOf(db, ids),
    currentTax(db),
    getSettings(db, 'contracts'),
  ]);
  const first = `${window.fromMonth}-01`;
  const [year, month] = window.fromMonth.split('-').map(Number);
  const endIndex = year * 12 + (month - 1) + window.months;
  const end = `${Math.floor(endIndex / 12)}-${String((endIndex % 12) + 1).padStart(2, '0')}-01`;
  const byContract = new Map<string, Map<string, number>>();
  for (const row of rows) {
    const at = periodIndexOn(row.startDate, first);
    const fromIndex = at < 0 ? 0 : billingPeriod(row.startDate, at).start < first ? at + 1 : at;
    const stopBefore =
      settings.pausePaymentsAfterExpiry && row.autoStopDate && row.autoStopDate < end ? row.autoStopDate : end;
    const entries = billingSchedule(billableOf(row, lines.get(row.id) ?? []), {
      fromIndex,
      count: window.months + 1,
      stopBefore,
      tax,
    });
    const months = new Map<string, number>();
    for (const entry of entries) {
      const cents = entry.subtotalCents;
      if (cents === 0) continue;
      const key = entry.start.slice(0, 7);
      months.set(key, (months.get(key) ?? 0) + cents);
    }
    byContract.set(row.id, months);
  }
  return byContract;
}
