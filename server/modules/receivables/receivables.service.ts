import { addDays } from '@shared/billing';
import { DUNNING_STAGES, type DunningStage } from '@shared/contracts/invoice-vocabulary';
import {
  type AgingAmounts,
  type AgingBucket,
  type CustomerReceivable,
  OPEN_INVOICES_SHOWN,
  type ReceivableRow,
  type ReceivablesFilter,
  type ReceivablesOutlook,
  type ReceivablesQuery,
  type ReceivablesSummary,
} from '@shared/contracts/receivables';
import { centsToAmount, sumCents } from '@shared/money';
import type { Db } from '../../db/client';
import { businessDayOf, businessToday } from '../../lib/business-day';
import { notFound } from '../../lib/errors';
import { nextScheduledCharges } from '../billing/billing.service';
import { cashReceivedThisMonth } from '../reports/reports.service';
import { receivablesCsv } from './receivables.csv';
import * as repo from './receivables.repo';

/** How far ahead finance's "Expected next 30 days" looks, in days from the business day. */
export const EXPECTED_DAYS = 30;

/** The stage's level in the SQL (db/dunning-stage.ts order): overdue 0, first 1, second 2, paused 3. */
const levelOf = (stage: DunningStage) => DUNNING_STAGES.indexOf(stage) as repo.StageLevel;
const stageOf = (level: repo.StageLevel | null): DunningStage | null => (level === null ? null : DUNNING_STAGES[level]);

function repoFilter(filter: ReceivablesFilter): repo.ReceivableFilter {
  return {
    q: filter.q || undefined,
    bucket: filter.bucket,
    stageLevel: filter.stage === undefined ? undefined : levelOf(filter.stage),
    onlyCredit: filter.credit,
    autopayFailed: filter.autopay === 'failed',
    sort: filter.sort,
  };
}

const amounts = (cents: Record<AgingBucket, number>): AgingAmounts => ({
  current: centsToAmount(cents.current),
  '1-30': centsToAmount(cents['1-30']),
  '31-60': centsToAmount(cents['31-60']),
  '61-90': centsToAmount(cents['61-90']),
  '90+': centsToAmount(cents['90+']),
});

const overdueCentsOf = (cents: Record<AgingBucket, number>) =>
  sumCents([cents['1-30'], cents['31-60'], cents['61-90'], cents['90+']]);

export function toReceivableRow(f: repo.ReceivableFigures): ReceivableRow {
  return {
    customerId: f.customerId,
    customerName: f.customerName,
    company: f.company,
    openBalance: centsToAmount(f.openCents),
    overdue: centsToAmount(overdueCentsOf(f.agingCents)),
    aging: amounts(f.agingCents),
    openInvoices: f.openInvoices,
    overdueInvoices: f.overdueInvoices,
    oldestDueDate: f.oldestDueDate,
    daysPastDue: Math.max(0, f.oldestDays ?? 0),
    dunningStage: stageOf(f.stageLevel),
    creditBalance: centsToAmount(f.creditCents),
    lastPaymentDate: f.lastPaymentAt ? businessDayOf(f.lastPaymentAt) : null,
    lastPaymentAmount: f.lastPaymentCents === null ? null : centsToAmount(f.lastPaymentCents),
  };
}

/** GET /api/receivables: a page of the customers owing money or holding credit. */
export async function listReceivables(
  db: Db,
  query: ReceivablesQuery,
): Promise<{ rows: ReceivableRow[]; total: number }> {
  const page = await repo.selectReceivablePage(db, businessToday(), repoFilter(query), query);
  return { total: page.total, rows: page.rows.map(toReceivableRow) };
}

/** GET /api/receivables/summary: the totals of the filtered customers. */
export async function receivablesSummary(db: Db, filter: ReceivablesFilter): Promise<ReceivablesSummary> {
  const totals = await repo.selectReceivableTotals(db, businessToday(), repoFilter(filter));
  return {
    customers: totals.customers,
    openBalance: centsToAmount(totals.openCents),
    overdue: centsToAmount(overdueCentsOf(totals.agingCents)),
    aging: amounts(totals.agingCents),
    creditBalance: centsToAmount(totals.creditCents),
  };
}

/** GET /api/receivables/export: the filtered customers as CSV. */
export async function exportReceivables(db: Db, filter: ReceivablesFilter): Promise<string> {
  const rows = await repo.selectReceivables(db, businessToday(), repoFilter(filter));
  return receivablesCsv(rows.map(toReceivableRow));
}

/** GET /api/receivables/customers/{id}: one customer's balance, credit and open invoices. */
export async function customerReceivable(db: Db, customerId: string): Promise<CustomerReceivable> {
  const found = await repo.selectCustomerReceivable(db, businessToday(), customerId, OPEN_INVOICES_SHOWN);
  if (!found) throw notFound('Customer');
  const row = toReceivableRow(found.figures);
  return {
    customerId,
    openBalance: row.openBalance,
    overdue: row.overdue,
    creditBalance: row.creditBalance,
    lastPaymentDate: row.lastPaymentDate,
    lastPaymentAmount: row.lastPaymentAmount,
    openInvoiceCount: found.figures.openInvoices,
    openInvoices: found.invoices.map((i) => ({
      id: i.id,
      number: i.number,
      contractId: i.contractId,
      dueDate: i.dueDate,
      total: centsToAmount(i.totalCents),
      amountDue: centsToAmount(i.dueCents),
      status: i.status,
      overdue: i.days > 0,
      daysPastDue: Math.max(0, i.days),
    })),
  };
}

/**
 * GET /api/receivables/outlook: finance's dashboard figures. The expected receipts of the next 30 days are the
 * open invoices due from today to today + 30 (what is still due on them) and the next scheduled charge of each
 * active contract due in that time, from the billing engine (billing.service nextScheduledCharges: what the
 * contract's schedule shows and the billing run will issue, after its last invoiced period, so never an
 * invoice counted twice). Cash this month is the reports' cash of the current month: the Admin Dashboard's
 * Monthly Revenue, the same number (decision 048).
 */
export async function receivablesOutlook(db: Db, now = new Date()): Promise<ReceivablesOutlook> {
  const today = businessToday(now);
  const until = addDays(today, EXPECTED_DAYS);
  const [figures, cashThisMonth, charges] = await Promise.all([
    repo.selectOutlookFigures(db, today, until),
    cashReceivedThisMonth(db, {}, now),
    repo.selectActiveContracts(db).then((rows) => nextScheduledCharges(db, rows)),
  ]);
  const scheduledCents = sumCents(
    charges.filter((c) => c.dueDate >= today && c.dueDate <= until).map((c) => c.totalCents),
  );
  return {
    openBalance: centsToAmount(figures.openCents),
    overdue: centsToAmount(figures.overdueCents),
    cashThisMonth,
    expectedNext30Days: centsToAmount(figures.dueSoonCents + scheduledCents),
    expectedFromInvoices: centsToAmount(figures.dueSoonCents),
    expectedFromSchedule: centsToAmount(scheduledCents),
    asOf: today,
  };
}
