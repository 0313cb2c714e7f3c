import { INVOICE_DUE_DAYS, SEASON_MONTHS } from '@shared/billing';
import { BASIS_POINTS } from '@shared/rates';
import { and, count, desc, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { sqlAmountDue } from '../../db/invoice-amounts';
import { contracts } from '../../db/schema';
import { rowsOf } from '../../lib/db-rows';

export type SummaryCents = {
  activeContracts: number;
  outstandingCents: number;
  pendingInvoices: number;
  next: { dueDate: string; amountCents: number; source: 'invoice' | 'scheduled'; invoiceId: string | null } | null;
};

/**
 * The client's figures in one statement (served by invoices_customer_idx, contracts_customer_idx and
 * invoices_contract_idx):
 * - active contracts: the customer's contracts with status active;
 * - outstanding: what is still due on pending invoices (total less the part already paid);
 * - the next payment: the earliest due date among pending invoices and what is due that day; when no invoice
 *   is pending, the next period of each active contract that is not invoiced yet (the first period starting
 *   today or later, after the last invoiced one), unless billing stops at the term's end before it starts;
 *   its amount is what that period's invoice will charge: the monthly amount (the in-season one for periods
 *   starting October to December), plus the setup fee on the first period, plus tax by the current tax
 *   settings; due 7 days after the period starts. The earliest such due date wins, with every period due then.
 */
export async function selectClientSummary(
  db: Db,
  input: { customerId: string; today: string; taxRateBp: number; taxIncluded: boolean; stopAtTerm: boolean },
): Promise<SummaryCents> {
  const { customerId, today, taxRateBp, taxIncluded, stopAtTerm } = input;
  const result = await db.execute(sql`
    with open_invoices as (
      select id, due_date, ${sqlAmountDue('invoices')} as due_cents
      from invoices
      where customer_id = ${customerId} and status = 'pending'
    ),
    first_open as (
      select due_date, sum(due_cents) as due_cents, count(*) as n, min(id::text) as invoice_id
      from open_invoices
      group by due_date
      order by due_date
      limit 1
    ),
    active_contracts as (
      select c.id, c.start_date, c.auto_stop_date, c.monthly_amount_cents, c.seasonal_monthly_amount_cents,
             c.setup_fee_cents,
             (select max(i.period_index) from invoices i where i.contract_id = c.id) as last_index,
             ((extract(year from ${today}::date) - extract(year from c.start_date)) * 12
               + extract(month from ${today}::date) - extract(month from c.start_date))::int as months_to_today
      from contracts c
      where c.customer_id = ${customerId} and c.status = 'active'
    ),
    next_periods as (
      select a.*, greatest(
          coalesce(a.last_index + 1, 0),
          case when (a.start_date + make_interval(months => greatest(a.months_to_today, 0)))::date < ${today}::date
               then greatest(a.months_to_today, 0) + 1 else greatest(a.months_to_today, 0) end
        ) as next_index
      from active_contracts a
    ),
    scheduled as (
      select n.next_index,
             (n.start_date + make_interval(months => n.next_index))::date as period_start,
             n.auto_stop_date,
             (case when extract(month from (n.start_date + make_interval(months => n.next_index))::date)::int
                        = any(${sql.param([...SEASON_MONTHS])}::int[])
                   then n.seasonal_monthly_amount_cents else n.monthly_amount_cents end)
               + (case when n.next_index = 0 then n.setup_fee_cents else 0 end) as subtotal_cents
      from next_periods n
    ),
    scheduled_due as (
      select (period_start + ${INVOICE_DUE_DAYS}::int) as due_date,
             case when ${taxIncluded}::boolean then subtotal_cents
                  else subtotal_cents + round(subtotal_cents::numeric * ${taxRateBp} / ${BASIS_POINTS}::int)::bigint end as total_cents
      from scheduled
      where not (${stopAtTerm}::boolean and auto_stop_date is not null and period_start >= auto_stop_date)
    ),
    first_scheduled as (
      select due_date, sum(total_cents) as total_cents
      from scheduled_due
      group by due_date
      order by due_date
      limit 1
    )
    select
      (select count(*) from contracts where customer_id = ${customerId} and status = 'active')::int as active_contracts,
      (select coalesce(sum(due_cents), 0) from open_invoices)::bigint as outstanding_cents,
      (select count(*) from open_invoices)::int as pending_invoices,
      (select due_date::text from first_open) as open_due_date,
      (select due_cents from first_open)::bigint as open_due_cents,
      (select case when n = 1 then invoice_id end from first_open) as open_invoice_id,
      (select due_date::text from first_scheduled) as scheduled_due_date,
      (select total_cents from first_scheduled)::bigint as scheduled_cents
  `);
  const row = rowsOf<Record<string, string | number | null>>(result)[0];
  const next =
    row.open_due_date !== null
      ? {
          dueDate: String(row.open_due_date),
          amountCents: Number(row.open_due_cents),
          source: 'invoice' as const,
          invoiceId: row.open_invoice_id === null ? null : String(row.open_invoice_id),
        }
      : row.scheduled_due_date !== null
        ? {
            dueDate: String(row.scheduled_due_date),
            amountCents: Number(row.scheduled_cents),
            source: 'scheduled' as const,
            invoiceId: null,
          }
        : null;
  return {
    activeContracts: Number(row.active_contracts),
    outstandingCents: Number(row.outstanding_cents),
    pendingInvoices: Number(row.pending_invoices),
    next,
  };
}

/** A page of the client's contracts (never drafts), newest first, and their count. */
export async function selectClientContractPage(db: Db, customerId: string, page: { limit: number; offset: number }) {
  const where = and(eq(contracts.customerId, customerId), ne(contracts.status, 'draft'));
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(contracts)
      .where(where)
      .orderBy(desc(contracts.createdAt), desc(contracts.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: count() }).from(contracts).where(where),
  ]);
  return { rows, total };
}
