import type { DunningStage } from '@shared/contracts/invoice-vocabulary';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { sqlPausedForNonPayment, sqlReminderLevel } from '../../db/dunning-stage';
import { sqlAmountDue, sqlPayable } from '../../db/invoice-amounts';
import { contracts, users } from '../../db/schema';

/**
 * The reports' SQL: each figure is one aggregate statement. Figures over a period read the monthly totals
 * the triggers keep (report_month_totals: a few rows per month whatever the volume), company-wide or for
 * one rep; figures of the book now read covering indexes of contracts and open invoices (a rep's start
 * from contracts_sales_rep_idx).
 */

/** all: every contract; own: one sales rep's contracts (and payouts). */
export type ReportScope = { repId?: string };

/** Whole UTC months: the first day of the first month and the last day of the last month (YYYY-MM-DD). */
export type ReportPeriod = { from: string; to: string };

type Rows<T> = { rows: T[] };
const rowsOf = <T>(result: unknown) => (result as Rows<T>).rows;
const int = (value: unknown) => Number(value ?? 0);

/** The period's instants: [start, end) in UTC. */
const startOf = (p: ReportPeriod) => sql`(${p.from}::date)::timestamp at time zone 'UTC'`;
const endOf = (p: ReportPeriod) => sql`(${p.to}::date + 1)::timestamp at time zone 'UTC'`;
/** The report totals' rows of the scope: company-wide (rep_id null) or one rep's. */
const repIs = (scope: ReportScope) => (scope.repId ? sql`rep_id = ${scope.repId}` : sql`rep_id is null`);
const monthsOf = (p: ReportPeriod) =>
  sql`generate_series(${p.from}::timestamp, ${p.to}::timestamp, interval '1 month')`;

/**
 * Cash received per month of the period, every month listed (zeros included), and the total of those
 * months: THE cash figure (decision 048), behind the report's revenue and its chart, the CSV, the Admin
 * Dashboard's Monthly Revenue and finance's Cash this month. Money received by card, autopay, manual and bank
 * payments by the month of paid_at, less refunds paid out and credit balances paid back to customers; never a
 * payment the credit balance made (method `credit`) nor a failed attempt. The definition is the database's
 * (`report_cash_cents`, `report_credit_cash_cents`, migration 0037): the triggers keep the `revenue` rows of
 * report_month_totals by it, company-wide and per rep (a credit balance paid back is the customer's, so
 * company-wide only).
 */
export async function selectCashByMonth(
  db: Db,
  scope: ReportScope,
  period: ReportPeriod,
): Promise<{ byMonth: { month: string; cents: number }[]; totalCents: number }> {
  const source = sql`(select month, amount_cents as cents from report_month_totals
                      where metric = 'revenue' and ${repIs(scope)}
                        and month between ${period.from}::date and ${period.to}::date)`;
  const result = await db.execute(sql`
    select to_char(m.month, 'YYYY-MM') as month, coalesce(sum(x.cents), 0)::bigint as cents,
           sum(coalesce(sum(x.cents), 0)) over ()::bigint as total
    from ${monthsOf(period)} as m(month)
    left join ${source} x on x.month = m.month::date
    group by m.month
    order by m.month`);
  const rows = rowsOf<{ month: string; cents: string; total: string }>(result);
  return {
    byMonth: rows.map((r) => ({ month: r.month, cents: int(r.cents) })),
    totalCents: int(rows[0]?.total),
  };
}

export type ContractFigures = {
  statusCounts: Record<'draft' | 'sent' | 'active' | 'paused' | 'canceled' | 'completed', number>;
  mrrCents: number;
  activeCustomers: number;
  newContracts: number;
  averageContractCents: number;
  expiringContracts: number;
};

/**
 * Every contract figure in one statement: counts by status and MRR (monthly amount of active contracts)
 * from report_book_totals; customers with an active contract (contracts_report_status_idx, read alone);
 * contracts created in the period and their mean total (contracts_report_created_idx); running
 * contracts whose auto-stop date falls within the next 30 days (contracts_auto_stop_idx). A rep's parts
 * start from contracts_sales_rep_idx.
 */
export async function selectContractFigures(
  db: Db,
  scope: ReportScope,
  period: ReportPeriod,
  today: string,
): Promise<ContractFigures> {
  const mine = scope.repId ? sql`and sales_rep_id = ${scope.repId}` : sql``;
  // Status counts and MRR from the book totals the triggers keep; the active customers are the distinct
  // customer ids of the 'active' range of contracts_report_status_idx (a rep's: contracts_report_rep_idx),
  // already in order.
  const result = await db.execute(sql`
    select s.*, a.active_customers, n.new_contracts, n.average_cents, e.expiring
    from (select coalesce(sum(contracts) filter (where status = 'draft'), 0) as draft,
                 coalesce(sum(contracts) filter (where status = 'sent'), 0) as sent,
                 coalesce(sum(contracts) filter (where status = 'active'), 0) as active,
                 coalesce(sum(contracts) filter (where status = 'paused'), 0) as paused,
                 coalesce(sum(contracts) filter (where status = 'canceled'), 0) as canceled,
                 coalesce(sum(contracts) filter (where status = 'completed'), 0) as completed,
                 coalesce(sum(monthly_cents) filter (where status = 'active'), 0) as mrr
          from report_book_totals where ${repIs(scope)}) s,
         (select count(*) as active_customers
          from (select distinct customer_id from contracts where status = 'active' ${mine}) d) a,
         (select count(*) as new_contracts, coalesce(round(avg(total_cents)), 0) as average_cents
          from contracts
          where created_at >= ${startOf(period)} and created_at < ${endOf(period)} ${mine}) n,
         (select count(*) as expiring
          from contracts
          where status in ('active', 'paused') and auto_stop_date is not null
            and auto_stop_date between ${today}::date and ${today}::date + 30 ${mine}) e`);
  const [r] = rowsOf<Record<string, string | number>>(result);
  return {
    statusCounts: {
      draft: int(r.draft),
      sent: int(r.sent),
      active: int(r.active),
      paused: int(r.paused),
      canceled: int(r.canceled),
      completed: int(r.completed),
    },
    mrrCents: int(r.mrr),
    activeCustomers: int(r.active_customers),
    newContracts: int(r.new_contracts),
    averageContractCents: int(r.average_cents),
    expiringContracts: int(r.expiring),
  };
}

/** Products by billed revenue: their lines on non-void invoices issued in the period, best first. */
export async function selectTopProducts(
  db: Db,
  scope: ReportScope,
  period: ReportPeriod,
  limit: number,
): Promise<{ productId: string; name: string; cents: number }[]> {
  const source = sql`(select product_id, amount_cents from report_month_totals
                      where metric = 'product' and ${repIs(scope)}
                        and month between ${period.from}::date and ${period.to}::date)`;
  const result = await db.execute(sql`
    select x.product_id as "productId", p.name, sum(x.amount_cents)::bigint as cents
    from ${source} x
    join products p on p.id = x.product_id
    group by x.product_id, p.name
    having sum(x.amount_cents) > 0
    order by cents desc, p.name, x.product_id
    limit ${limit}`);
  return rowsOf<{ productId: string; name: string; cents: string }>(result).map((r) => ({
    productId: r.productId,
    name: r.name,
    cents: int(r.cents),
  }));
}

/**
 * The collection rate's figures (decision 049): the non-void invoices that fell due from `from` through
 * `through` (the range up to today; nothing when through is before from), how many had something due, what
 * fell due (totals net of credit notes) and what of it is collected (paid net of refunds, at most what fell
 * due, invoice by invoice), from the due totals the triggers keep (report_due_totals: a row per day).
 */
export async function selectCollection(
  db: Db,
  scope: ReportScope,
  span: { from: string; through: string },
): Promise<{ invoices: number; dueCents: number; collectedCents: number }> {
  const result = await db.execute(sql`
    select coalesce(sum(invoices), 0) as invoices, coalesce(sum(due_cents), 0) as due,
           coalesce(sum(collected_cents), 0) as collected
    from report_due_totals
    where ${repIs(scope)} and due_date between ${span.from}::date and ${span.through}::date`);
  const [r] = rowsOf<{ invoices: string; due: string; collected: string }>(result);
  return { invoices: int(r.invoices), dueCents: int(r.due), collectedCents: int(r.collected) };
}

/** Non-void invoices issued in the period: how many and their total. */
export async function selectBilled(
  db: Db,
  scope: ReportScope,
  period: ReportPeriod,
): Promise<{ invoices: number; cents: number }> {
  const result = await db.execute(sql`
    select coalesce(sum(count), 0) as invoices, coalesce(sum(amount_cents), 0) as cents
    from report_month_totals
    where metric = 'billed' and ${repIs(scope)} and month between ${period.from}::date and ${period.to}::date`);
  const [r] = rowsOf<{ invoices: string; cents: string }>(result);
  return { invoices: int(r.invoices), cents: int(r.cents) };
}

export type DeliveryFigures = {
  periodsRecorded: number;
  bookedImpressions: number;
  deliveredImpressions: number;
  /** Delivered counted up to booked, row by row: the delivery rate's numerator. */
  countedImpressions: number;
  creditsIssued: number;
  creditsCents: number;
  makegoodImpressions: number;
};

/**
 * Proof of performance over the period (product.md section 12), in one statement: the final delivery
 * recorded for CPM periods starting in the period (a period an ad server reported so far counts once its
 * figures are final: decision 041; line_deliveries_final_period_idx, read alone: period_start, booked,
 * delivered), under-delivery credit notes issued in it (credit_notes_issued_idx) and the makegood
 * impressions of periods settled in it (by settled_at: a partial index on (settled_at, shortfall_impressions)
 * where remedy = 'makegood' keeps it off a scan of the whole table). A rep's parts start from
 * contracts_sales_rep_idx and read line_deliveries_contract_idx and credit_notes_contract_idx.
 */
export async function selectDeliveryFigures(
  db: Db,
  scope: ReportScope,
  period: ReportPeriod,
): Promise<DeliveryFigures> {
  const ofScope = (alias: 'd' | 'cn') =>
    scope.repId
      ? sql`join contracts c on c.id = ${sql.raw(alias)}.contract_id and c.sales_rep_id = ${scope.repId}`
      : sql``;
  const result = await db.execute(sql`
    select p.periods, p.booked, p.delivered, p.counted, n.credits, n.credit_cents, m.makegood
    from (select count(*) as periods,
                 coalesce(sum(d.booked_impressions), 0) as booked,
                 coalesce(sum(d.delivered_impressions), 0) as delivered,
                 coalesce(sum(least(d.delivered_impressions, d.booked_impressions)), 0) as counted
          from line_deliveries d ${ofScope('d')}
          where d.period_start between ${period.from}::date and ${period.to}::date and d.final_at is not null) p,
         (select count(*) as credits, coalesce(sum(cn.amount_cents), 0) as credit_cents
          from credit_notes cn ${ofScope('cn')}
          where cn.kind = 'delivery' and cn.issued_at >= ${startOf(period)} and cn.issued_at < ${endOf(period)}) n,
         (select coalesce(sum(d.shortfall_impressions), 0) as makegood
          from line_deliveries d ${ofScope('d')}
          where d.remedy = 'makegood' and d.settled_at >= ${startOf(period)} and d.settled_at < ${endOf(period)}) m`);
  const [r] = rowsOf<Record<string, string | number>>(result);
  return {
    periodsRecorded: int(r.periods),
    bookedImpressions: int(r.booked),
    deliveredImpressions: int(r.delivered),
    countedImpressions: int(r.counted),
    creditsIssued: int(r.credits),
    creditsCents: int(r.credit_cents),
    makegoodImpressions: int(r.makegood),
  };
}

export type AutopayFigures = {
  paidInvoices: number;
  autopayInvoices: number;
  autopayCents: number;
  recoveredInvoices: number;
  recoveredCents: number;
};

/**
 * Autopay over the period (product.md section 18), in one statement of two parts:
 * - paid by autopay: the invoices paid in the period (status paid, paid_at within it), and of them those with a
 *   succeeded payment of kind payment by card on file or bank debit, with the sum of those payments (each
 *   invoice's payments read from payments_invoice_idx);
 * - recovered by retries: the attempts after the first (attempt_number > 1) that succeeded in the period
 *   (autopay_attempts_recovered_idx, partial: the succeeded retries only), how many invoices and what they
 *   collected: the payment each recorded (a charge that raced another payment keeps only what was due; the
 *   rest was refunded), else the attempt's amount.
 * A rep's parts join the invoice's contract of that rep (contracts_sales_rep_idx, invoices_contract_idx).
 * Not yet indexed: no index of invoices leads with paid_at, so the company-wide part scans invoices (about 2 s for
 * a year on 1,000,000 invoices); it wants invoices (paid_at, id) where status = 'paid' (schema/billing.ts), and for
 * the 50 ms of decision 015 a trigger-kept monthly total as the other period figures have.
 */
export async function selectAutopayFigures(db: Db, scope: ReportScope, period: ReportPeriod): Promise<AutopayFigures> {
  const ofScope = (alias: 'i') =>
    scope.repId
      ? sql`join contracts c on c.id = ${sql.raw(alias)}.contract_id and c.sales_rep_id = ${scope.repId}`
      : sql``;
  const result = await db.execute(sql`
    select p.paid, p.autopay, p.autopay_cents, r.recovered, r.recovered_cents
    from (select count(*) as paid, count(a.cents) as autopay, coalesce(sum(a.cents), 0) as autopay_cents
          from invoices i ${ofScope('i')}
          cross join lateral (select sum(x.amount_cents) as cents from payments x
                              where x.invoice_id = i.id and x.kind = 'payment' and x.status = 'succeeded'
                                and x.method in ('card_on_file', 'bank_debit')) a
          where i.status = 'paid' and i.paid_at >= ${startOf(period)} and i.paid_at < ${endOf(period)}) p,
         (select count(distinct t.invoice_id) as recovered,
                 coalesce(sum(coalesce(x.amount_cents, t.amount_cents)), 0) as recovered_cents
          from autopay_attempts t
          ${scope.repId ? sql`join invoices i on i.id = t.invoice_id ${ofScope('i')}` : sql``}
          left join payments x on x.id = t.payment_id
          where t.status = 'succeeded' and t.attempt_number > 1
            and t.attempted_at >= ${startOf(period)} and t.attempted_at < ${endOf(period)}) r`);
  const [r] = rowsOf<Record<string, string | number>>(result);
  return {
    paidInvoices: int(r.paid),
    autopayInvoices: int(r.autopay),
    autopayCents: int(r.autopay_cents),
    recoveredInvoices: int(r.recovered),
    recoveredCents: int(r.recovered_cents),
  };
}

/**
 * What needs attention now: unpaid (pending or failed) invoices due before today, the same rule as the
 * invoice list's overdue filter (invoices_status_due_idx), what is still
 * owed on pending and failed invoices, and payout requests waiting for review (payouts_status_idx; a rep:
 * their own, payouts_rep_idx).
 */
export async function selectOpenItems(
  db: Db,
  scope: ReportScope,
  today: string,
): Promise<{
  overdueInvoices: number;
  overdueByStage: Record<DunningStage, number>;
  contractsPausedForNonPayment: number;
  openBalanceCents: number;
  payoutsAwaitingReview: number;
}> {
  const invoicesOfScope = scope.repId
    ? sql`invoices i join contracts c on c.id = i.contract_id and c.sales_rep_id = ${scope.repId}`
    : sql`invoices i`;
  const contractsOfScope = scope.repId ? sql`and c.sales_rep_id = ${scope.repId}` : sql``;
  const result = await db.execute(sql`
    with overdue as (
      select ${sqlPausedForNonPayment('c')} as paused, ${sqlReminderLevel('i')} as level
      from invoices i join contracts c on c.id = i.contract_id ${contractsOfScope}
      where ${sqlPayable('i')} and i.due_date < ${today}::date
    )
    select
      (select count(*) from overdue) as overdue,
      (select count(*) from overdue where not paused and level = 0) as stage_overdue,
      (select count(*) from overdue where not paused and level = 1) as stage_first,
      (select count(*) from overdue where not paused and level = 2) as stage_second,
      (select count(*) from overdue where paused) as stage_paused,
      (select count(*) from contracts c where ${sqlPausedForNonPayment('c')} ${contractsOfScope}) as paused_contracts,
      (select coalesce(sum(${sqlAmountDue('i')}), 0) from ${invoicesOfScope}
        where ${sqlPayable('i')}) as open_balance,
      (select count(*) from payouts
        where status = 'pending' ${scope.repId ? sql`and rep_id = ${scope.repId}` : sql``}) as payouts`);
  const [r] = rowsOf<{
    overdue: string;
    stage_overdue: string;
    stage_first: string;
    stage_second: string;
    stage_paused: string;
    paused_contracts: string;
    open_balance: string;
    payouts: string;
  }>(result);
  return {
    overdueInvoices: int(r.overdue),
    overdueByStage: {
      overdue: int(r.stage_overdue),
      first_reminder: int(r.stage_first),
      second_reminder: int(r.stage_second),
      contract_paused: int(r.stage_paused),
    },
    contractsPausedForNonPayment: int(r.paused_contracts),
    openBalanceCents: int(r.open_balance),
    payoutsAwaitingReview: int(r.payouts),
  };
}

/**
 * Folds the delta rows of each group (report_month_totals: metric, month, product, rep; report_book_totals:
 * rep, status; report_due_totals: due date, rep) into one row. Safe on every instance at
 * once and beside writers: it deletes exactly the rows it read (DELETE ... RETURNING) and inserts their
 * sum in the same statement, so every total stays exact before, during and after.
 */
export async function compactReportTotals(db: Db): Promise<number> {
  const result = await db.execute(sql`
    with crowded as (
      select metric, month, product_id, rep_id from report_month_totals
      group by metric, month, product_id, rep_id having count(*) > 1
    ),
    moved as (
      delete from report_month_totals t
      using crowded g
      where t.metric = g.metric and t.month = g.month and t.product_id is not distinct from g.product_id
        and t.rep_id is not distinct from g.rep_id
      returning t.metric, t.month, t.product_id, t.rep_id, t.amount_cents, t.count
    )
    insert into report_month_totals (metric, month, product_id, rep_id, amount_cents, count)
    select metric, month, product_id, rep_id, sum(amount_cents), sum(count)::int from moved
    group by metric, month, product_id, rep_id
    having sum(amount_cents) <> 0 or sum(count) <> 0`);
  const book = await db.execute(sql`
    with crowded as (
      select rep_id, status from report_book_totals group by rep_id, status having count(*) > 1
    ),
    moved as (
      delete from report_book_totals t
      using crowded g
      where t.status = g.status and t.rep_id is not distinct from g.rep_id
      returning t.rep_id, t.status, t.contracts, t.monthly_cents
    )
    insert into report_book_totals (rep_id, status, contracts, monthly_cents)
    select rep_id, status, sum(contracts), sum(monthly_cents) from moved
    group by rep_id, status
    having sum(contracts) <> 0 or sum(monthly_cents) <> 0`);
  const due = await db.execute(sql`
    with crowded as (
      select due_date, rep_id from report_due_totals group by due_date, rep_id having count(*) > 1
    ),
    moved as (
      delete from report_due_totals t
      using crowded g
      where t.due_date = g.due_date and t.rep_id is not distinct from g.rep_id
      returning t.due_date, t.rep_id, t.invoices, t.due_cents, t.collected_cents
    )
    insert into report_due_totals (due_date, rep_id, invoices, due_cents, collected_cents)
    select due_date, rep_id, sum(invoices)::int, sum(due_cents), sum(collected_cents) from moved
    group by due_date, rep_id
    having sum(invoices) <> 0 or sum(due_cents) <> 0 or sum(collected_cents) <> 0`);
  const count = (r: unknown) => {
    const counts = r as { rowCount?: number | null; affectedRows?: number };
    return counts.rowCount ?? counts.affectedRows ?? 0;
  };
  return count(result) + count(book) + count(due);
}

/** A renewal that counts: sent to the customer or running (a draft or a canceled renewal does not). */
const renewalOf = alias(contracts, 'renewal');

/** The contracts whose term ended in the period and that were running then (contracts_term_end_idx). */
function endedIn(scope: ReportScope, period: ReportPeriod): SQL {
  const conditions: SQL[] = [
    sql`${contracts.autoStopDate} is not null`,
    sql`${contracts.autoStopDate} between ${period.from}::date and ${period.to}::date`,
    sql`${contracts.status} in ('active', 'paused', 'completed', 'canceled')`,
    sql`(${contracts.status} <> 'canceled' or (${contracts.canceledAt} at time zone 'UTC')::date >= ${contracts.autoStopDate})`,
  ];
  if (scope.repId) conditions.push(eq(contracts.salesRepId, scope.repId));
  return and(...conditions) as SQL;
}

/**
 * The contract's counting renewal. `renewal_of_id is not null` is implied by the equality; stated, it lets the
 * planner read the renewals from contracts_renewal_of_key (a few rows) instead of scanning every contract.
 */
const countingRenewal = () =>
  and(
    eq(renewalOf.renewalOfId, contracts.id),
    sql`${renewalOf.renewalOfId} is not null`,
    inArray(renewalOf.status, ['sent', 'active', 'paused', 'completed']),
  );

export type RenewalTotalsRow = {
  repId: string | null;
  repFirstName: string | null;
  repLastName: string | null;
  ended: number;
  /** The stored term values (contracts.term_value_cents) of the ended contracts and of their renewals. */
  endedCents: number;
  renewed: number;
  renewedCents: number;
};

/**
 * The renewal rate's figures per rep (product.md section 15), in one aggregate: the contracts whose term ended
 * in the period and were running then (active, paused or completed, or canceled on or after that day), and
 * those renewed by a sent or running contract (contracts_renewal_of_key), with the sums of their stored term
 * values. A contract without a stored term value (saved before it was kept) adds nothing to the sums:
 * selectEndedWithoutTermValue lists those for the billing engine.
 */
export async function selectRenewalTotals(
  db: Db,
  scope: ReportScope,
  period: ReportPeriod,
): Promise<RenewalTotalsRow[]> {
  return db
    .select({
      repId: contracts.salesRepId,
      repFirstName: sql<string | null>`min(${users.firstName})`,
      repLastName: sql<string | null>`min(${users.lastName})`,
      ended: sql<number>`count(*)`.mapWith(Number),
      endedCents: sql<number>`coalesce(sum(${contracts.termValueCents}), 0)`.mapWith(Number),
      renewed: sql<number>`count(${renewalOf.id})`.mapWith(Number),
      renewedCents: sql<number>`coalesce(sum(${renewalOf.termValueCents}), 0)`.mapWith(Number),
    })
    .from(contracts)
    .leftJoin(renewalOf, countingRenewal())
    .leftJoin(users, eq(users.id, contracts.salesRepId))
    .where(endedIn(scope, period))
    .groupBy(contracts.salesRepId);
}

export type EndedWithoutTermValueRow = {
  contract: typeof contracts.$inferSelect;
  renewal: typeof contracts.$inferSelect | null;
};

/**
 * The ended contracts of the period (as selectRenewalTotals counts them) of which it or its renewal has no
 * stored term value, in two parts that each read a partial index of the unvalued contracts only (migration
 * 0035): the ended contracts without a term value (contracts_term_end_unvalued_idx) with their renewal if
 * any, and the valued ones whose renewal has none (contracts_renewal_unvalued_idx). The parts are disjoint.
 */
export async function selectEndedWithoutTermValue(
  db: Db,
  scope: ReportScope,
  period: ReportPeriod,
): Promise<EndedWithoutTermValueRow[]> {
  const [unvalued, unvaluedRenewal] = await Promise.all([
    db
      .select({ contract: contracts, renewal: renewalOf })
      .from(contracts)
      .leftJoin(renewalOf, countingRenewal())
      .where(and(endedIn(scope, period), sql`${contracts.termValueCents} is null`)),
    db
      .select({ contract: contracts, renewal: renewalOf })
      .from(contracts)
      .innerJoin(renewalOf, countingRenewal())
      .where(
        and(
          endedIn(scope, period),
          sql`${contracts.termValueCents} is not null`,
          sql`${renewalOf.termValueCents} is null`,
        ),
      ),
  ]);
  return [...unvalued, ...unvaluedRenewal];
}

export type AgencyRevenueRow = {
  agencyId: string;
  name: string;
  advertisers: number;
  invoices: number;
  grossCents: number;
  commissionCents: number;
};

export type AgencyTotals = {
  invoices: number;
  grossCents: number;
  commissionCents: number;
  deductedCents: number;
  owedCents: number;
  agencies: number;
};

/**
 * Agency billing over the period (product.md section 20, decision 060 "Reports"), in one statement: the non-void
 * invoices billed to an agency (agency_billing_mode net or gross) issued in the period, from
 * invoices_agency_issued_idx (partial: agency invoices only, with their issue date, bill-to, mode, commission and
 * subtotal), so the cost is the few agency invoices' whatever the book's size; status and advertiser are read
 * from those rows. Per agency: the advertisers billed for, the invoices, their subtotals (gross) and
 * commissions; the totals over every agency (window sums) beside the best `limit` agencies by net
 * (gross - commission), then name. A rep's: the invoices of their contracts.
 */
export async function selectAgencyFigures(
  db: Db,
  scope: ReportScope,
  period: ReportPeriod,
  limit: number,
): Promise<{ totals: AgencyTotals; byAgency: AgencyRevenueRow[] }> {
  const mine = scope.repId ? sql`join contracts c on c.id = i.contract_id and c.sales_rep_id = ${scope.repId}` : sql``;
  const result = await db.execute(sql`
    with billed as (
      select i.bill_to_customer_id as agency_id,
             count(distinct i.customer_id) as advertisers,
             count(*) as invoices,
             sum(i.subtotal_cents) as gross,
             sum(i.agency_commission_cents) as commission,
             sum(i.agency_commission_cents) filter (where i.agency_billing_mode = 'net') as deducted,
             sum(i.agency_commission_cents) filter (where i.agency_billing_mode = 'gross') as owed
      from invoices i ${mine}
      where i.agency_billing_mode is not null
        and i.issued_at >= ${startOf(period)} and i.issued_at < ${endOf(period)}
        and i.status <> 'void'
      group by i.bill_to_customer_id
    ),
    ranked as (
      select b.*, a.name,
             count(*) over () as agencies,
             sum(b.invoices) over () as all_invoices,
             sum(b.gross) over () as all_gross,
             sum(b.commission) over () as all_commission,
             sum(coalesce(b.deducted, 0)) over () as all_deducted,
             sum(coalesce(b.owed, 0)) over () as all_owed
      from billed b
      join customers a on a.id = b.agency_id
    )
    select * from ranked
    order by gross - commission desc, name, agency_id
    limit ${limit}`);
  const rows = rowsOf<Record<string, string | number>>(result);
  const [first] = rows;
  return {
    totals: {
      invoices: int(first?.all_invoices),
      grossCents: int(first?.all_gross),
      commissionCents: int(first?.all_commission),
      deductedCents: int(first?.all_deducted),
      owedCents: int(first?.all_owed),
      agencies: int(first?.agencies),
    },
    byAgency: rows.map((r) => ({
      agencyId: String(r.agency_id),
      name: String(r.name),
      advertisers: int(r.advertisers),
      invoices: int(r.invoices),
      grossCents: int(r.gross),
      commissionCents: int(r.commission),
    })),
  };
}
