import {
  type BillableContract,
  billingPeriod,
  billingSchedule,
  type DraftInvoice,
  draftInvoice,
  periodIndexOn,
  type TaxRule,
} from '@shared/billing';
import { canReadContract } from '@shared/contracts/contract-access';
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
  type ContractRow,
  selectAnyInvoiceId,
  selectBillableContract,
  selectContract,
  selectContractInvoiceRefs,
  selectInvoicedPeriods,
  selectPendingAdjustments,
} from './billing.repo';
import { runBilling } from './billing-run';

/**
 * What the rest of the product asks of billing: bill a contract now (after an activation or a resume), whether
 * a contract has invoices, the 12-period schedule preview and the first invoice's figures before it is
 * issued. The preview, the quote and the billing run follow the same rules (shared/billing.ts).
 */

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
  }
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
  if (!contract || !canReadContract(actor, contract)) throw notFound('Contract');
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
  // Amendments' pending charges and credits go on the next invoice not yet issued.
  let atIndex = fromIndex;
  while (byIndex.has(atIndex)) atIndex++;
  const adjustments = { items: await selectPendingAdjustments(db, contractId), atIndex };
  const entries = billingSchedule(billable, { fromIndex, count: 12, stopBefore: stopsOn, tax, adjustments });
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
        tax: centsToAmount(figures.taxCents),
        total: centsToAmount(figures.totalCents),
        inSeason: e.inSeason,
        seasonalPricing: invoice ? invoice.inSeason : e.seasonalPricing,
        invoice: invoice ? { id: invoice.id, number: invoice.number, status: invoice.status as InvoiceStatus } : null,
      };
    }),
  };
}

/** The invoiced periods (not voided) of a contract that end on or after a day: those an amendment may touch. */
export async function invoicedPeriodsFrom(tx: Db, contractId: string, from: string) {
  return selectInvoicedPeriods(tx, contractId, from);
}
