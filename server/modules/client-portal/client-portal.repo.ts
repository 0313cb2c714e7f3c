import { and, count, desc, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { sqlAmountDue, sqlPayable } from '../../db/invoice-amounts';
import { contracts, customers } from '../../db/schema';
import { rowsOf } from '../../lib/db-rows';

export type OpenInvoiceFigures = {
  activeContracts: number;
  outstandingCents: number;
  pendingInvoices: number;
  /** "Pay all due": the invoices with something due (pending or failed) and the cents due on them. */
  payableInvoices: number;
  payableCents: number;
  /** The earliest due date among the open invoices, what is due that day, and the invoice when it is one. */
  firstOpen: { dueDate: string; amountCents: number; invoiceId: string | null } | null;
};

/**
 * The client's invoice figures in one statement, over what is billed to its customer (product.md section 20:
 * an agency's, whichever advertiser's; served by invoices_bill_to_idx and contracts_bill_to_idx):
 * - active contracts: the contracts billed to the customer with status active;
 * - outstanding: what is still due on pending invoices (total less what was paid and credited);
 * - payable: the invoices with an amount due (pending or failed) and its sum, what "Pay all due" charges;
 * - the first open payment: the earliest due date among pending invoices and what is due that day.
 */
export async function selectOpenInvoiceFigures(db: Db, customerId: string): Promise<OpenInvoiceFigures> {
  const result = await db.execute(sql`
    with open_invoices as (
      select id, due_date, ${sqlAmountDue('invoices')} as due_cents
      from invoices
      where bill_to_customer_id = ${customerId} and status = 'pending'
    ),
    payable as (
      select ${sqlAmountDue('invoices')} as due_cents
      from invoices
      where bill_to_customer_id = ${customerId} and ${sqlAmountDue('invoices')} > 0
    ),
    first_open as (
      select due_date, sum(due_cents) as due_cents, count(*) as n, min(id::text) as invoice_id
      from open_invoices
      group by due_date
      order by due_date
      limit 1
    )
    select
      (select count(*) from contracts where bill_to_customer_id = ${customerId} and status = 'active')::int
        as active_contracts,
      (select coalesce(sum(due_cents), 0) from open_invoices)::bigint as outstanding_cents,
      (select count(*) from open_invoices)::int as pending_invoices,
      (select count(*) from payable)::int as payable_invoices,
      (select coalesce(sum(due_cents), 0) from payable)::bigint as payable_cents,
      (select due_date::text from first_open) as open_due_date,
      (select due_cents from first_open)::bigint as open_due_cents,
      (select case when n = 1 then invoice_id end from first_open) as open_invoice_id
  `);
  const row = rowsOf<Record<string, string | number | null>>(result)[0];
  return {
    activeContracts: Number(row.active_contracts),
    outstandingCents: Number(row.outstanding_cents),
    pendingInvoices: Number(row.pending_invoices),
    payableInvoices: Number(row.payable_invoices),
    payableCents: Number(row.payable_cents),
    firstOpen:
      row.open_due_date === null
        ? null
        : {
            dueDate: String(row.open_due_date),
            amountCents: Number(row.open_due_cents),
            invoiceId: row.open_invoice_id === null ? null : String(row.open_invoice_id),
          },
  };
}

/** The active contracts billed to the customer (those the billing run bills). */
export async function selectActiveContracts(db: Db, customerId: string) {
  return db
    .select()
    .from(contracts)
    .where(and(eq(contracts.billToCustomerId, customerId), eq(contracts.status, 'active')));
}

/**
 * A page of the contracts billed to the client's customer (never drafts), newest first, each with its
 * advertiser's name (the contract's customer), and their count.
 */
export async function selectClientContractPage(db: Db, customerId: string, page: { limit: number; offset: number }) {
  const where = and(eq(contracts.billToCustomerId, customerId), ne(contracts.status, 'draft'));
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({ contract: contracts, advertiserName: customers.name })
      .from(contracts)
      .innerJoin(customers, eq(customers.id, contracts.customerId))
      .where(where)
      .orderBy(desc(contracts.createdAt), desc(contracts.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: count() }).from(contracts).where(where),
  ]);
  return { rows, total };
}

export type PaymentAlertRows = {
  overdueCount: number;
  overdueCents: number;
  overdueInvoices: { id: string; number: string; contractId: string; dueDate: string; dueCents: number }[];
  pausedForNonPayment: { id: string; title: string | null }[];
};

/** How many overdue invoices the alerts list (the oldest first); the count and the amount are of all of them. */
const LISTED_OVERDUE = 10;

/**
 * What a client is behind on, in one statement (invoices_bill_to_idx, contracts_bill_to_idx): the payable
 * invoices billed to its customer due before today (count, what is still due on them, the oldest ten) and the
 * contracts billed to it paused for non-payment; with a contract, that contract's alone.
 */
export async function selectPaymentAlerts(
  db: Db,
  customerId: string,
  today: string,
  contractId?: string,
): Promise<PaymentAlertRows> {
  const ofContract = (column: string) => (contractId ? sql`and ${sql.raw(column)} = ${contractId}` : sql``);
  const result = await db.execute(sql`
    with overdue as (
      select id, number, contract_id, due_date, ${sqlAmountDue('invoices')} as due_cents
      from invoices
      where bill_to_customer_id = ${customerId} and ${sqlPayable('invoices')} and due_date < ${today}
        ${ofContract('invoices.contract_id')}
    ),
    listed as (
      select * from overdue order by due_date, number limit ${LISTED_OVERDUE}
    ),
    paused as (
      select id, title from contracts
      where bill_to_customer_id = ${customerId} and status = 'paused' and pause_reason = 'non_payment'
        ${ofContract('contracts.id')}
      order by created_at, id
    )
    select
      (select count(*) from overdue)::int as overdue_count,
      (select coalesce(sum(due_cents), 0) from overdue)::bigint as overdue_cents,
      (select coalesce(json_agg(json_build_object(
          'id', id, 'number', number, 'contractId', contract_id, 'dueDate', due_date::text, 'dueCents', due_cents
        ) order by due_date, number), '[]'::json) from listed) as overdue_invoices,
      (select coalesce(json_agg(json_build_object('id', id, 'title', title)), '[]'::json) from paused) as paused
  `);
  const row = rowsOf<Record<string, unknown>>(result)[0];
  const json = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;
  return {
    overdueCount: Number(row.overdue_count),
    overdueCents: Number(row.overdue_cents),
    overdueInvoices: json<PaymentAlertRows['overdueInvoices']>(row.overdue_invoices).map((invoice) => ({
      ...invoice,
      dueCents: Number(invoice.dueCents),
    })),
    pausedForNonPayment: json<PaymentAlertRows['pausedForNonPayment']>(row.paused),
  };
}
