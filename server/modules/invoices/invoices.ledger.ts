import { amountDueCents, creditableCents, isPayable, settles } from '@shared/invoice-amounts';
import type { Cents } from '@shared/money';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  type InvoiceFigures,
  sqlAmountDue,
  sqlPayable,
  sqlRefundable,
  sqlSettles,
  sqlUncredited,
  sqlVoidable,
} from '../../db/invoice-amounts';
import { invoices } from '../../db/schema';
import { rowsOf } from '../../lib/db-rows';
import { emitWebhookEvent } from '../webhooks/webhook-events';

/**
 * The invoice ledger: the one writer of an invoice's state (status, amount_paid_cents, credited_cents,
 * refunded_cents, paid_at, voided_at, void_reason) and of the insert of issued invoices. Payments, voids,
 * credit notes and the billing run call it inside their own transactions; it writes by the rules of
 * shared/invoice-amounts.ts (payable, amount due, creditable, refundable, settles) and nothing else:
 * - addPayments: payments add to what was paid; an invoice is paid when it settles;
 * - markFailed: a declined card marks a pending invoice failed;
 * - voidInvoiceRow: the void, with what it refunds;
 * - addCredit: a credit note adds to what was credited; an unpaid invoice it settles is paid;
 * - sqlIssueInvoices and sqlAddPayments: the same for many invoices at once, as parts of the caller's one
 *   set-based statement (the billing run's chunk; the credit balances applied to the invoices it issued),
 *   so that those keep one statement each.
 * Each change is ONE conditional UPDATE (or one set-based statement) whose row count decides. An invoice that
 * becomes paid raises `invoice.paid` for other systems in the same transaction (webhooks/webhook-events.ts); the
 * billing run raises its invoices' events per chunk (emitIssuedInvoiceEvents).
 *
 * Lock order (decision 024): every caller first takes the lock of the invoice's contract (contract-status:
 * lockContractOfInvoice; the billing run locks its chunk's contracts), the first lock of every money path;
 * then, as its path needs them, a number series' row (INV, CN) and the customer's row (a credit balance).
 * The ledger locks only the invoice rows it changes, each under its contract's lock already, so they never
 * order one money path against another.
 */

export type InvoiceRow = typeof invoices.$inferSelect;

/** The invoices row as this module's statements name it. */
const row = 'invoices';

/**
 * Adds payments to payable invoices (one each, distinct invoices), never more than an invoice's amount due (so
 * paid + credited never passes the total): ONE conditional UPDATE for all of them. An invoice becomes paid when
 * payments and credits settle it, pending otherwise (a failed invoice partly paid is pending again). Answers the
 * invoices changed; one that matched nothing (paid, void, unknown, or too much) is missing from the answer.
 */
export async function addPayments(
  tx: Db,
  entries: readonly { invoiceId: string; amountCents: Cents; paidAt: Date }[],
): Promise<{ id: string; status: string }[]> {
  if (entries.length === 0) return [];
  const settled = sqlSettles({ alias: 'i', amountPaidCents: sql`i.amount_paid_cents + s.amount_cents` });
  const changed = rowsOf<{ id: string; status: string }>(
    await tx.execute(sql`
      update invoices i
      set amount_paid_cents = i.amount_paid_cents + s.amount_cents,
          status = case when ${settled} then 'paid' else 'pending' end,
          paid_at = case when ${settled} then s.paid_at else i.paid_at end,
          updated_at = now()
      from unnest(${sql.param(entries.map((e) => e.invoiceId))}::uuid[],
                  ${sql.param(entries.map((e) => e.amountCents))}::bigint[],
                  ${sql.param(entries.map((e) => e.paidAt.toISOString()))}::timestamptz[])
           as s(invoice_id, amount_cents, paid_at)
      where i.id = s.invoice_id and ${sqlPayable('i')} and s.amount_cents <= ${sqlAmountDue('i')}
      returning i.id, i.status`),
  );
  const paid = changed.filter(({ status }) => status === 'paid').map(({ id }) => id);
  if (paid.length > 0) await emitWebhookEvent(tx, 'invoice.paid', { ids: paid });
  return changed;
}

/** A declined card marks a pending invoice failed (it stays payable). */
export async function markFailed(tx: Db, invoiceId: string): Promise<void> {
  await tx
    .update(invoices)
    .set({ status: 'failed', updatedAt: new Date() })
    .where(and(eq(invoices.id, invoiceId), eq(invoices.status, 'pending')));
}

/**
 * Voids an invoice that is not void yet and records what the void refunds: what was paid on it and not
 * already credited (money credited beyond the amount due went to the customer's credit balance before).
 * Undefined when it was void already (or unknown).
 */
export async function voidInvoiceRow(tx: Db, invoiceId: string, reason: string): Promise<InvoiceRow | undefined> {
  const [voided] = await tx
    .update(invoices)
    .set({
      status: 'void',
      voidedAt: new Date(),
      voidReason: reason,
      refundedCents: sqlRefundable(row),
      updatedAt: new Date(),
    })
    .where(and(eq(invoices.id, invoiceId), sqlVoidable(row)))
    .returning();
  return voided;
}

export type InvoiceCredit = {
  invoiceId: string;
  amountCents: Cents;
  /** A void's own credit note: only on the invoice being voided (void already); any other only on one that is not. */
  voiding: boolean;
};

export type CreditedInvoice = {
  /** The invoice as it was read, before the credit. */
  before: InvoiceRow;
  invoice: InvoiceRow;
  /** The part of the credit that lowered the amount due (the rest goes to the customer's credit balance). */
  appliedCents: Cents;
  /** The invoice was unpaid and the credit settled what remained due (it is paid now). */
  settled: boolean;
};

/**
 * Credits an invoice: ONE conditional UPDATE adds the amount to what is credited, never past the total, and
 * only from the state it was read in (the credited and paid amounts and the status are part of the WHERE: a
 * concurrent change makes it match nothing). An unpaid invoice whose amount due reaches zero is settled
 * (paid). Undefined when the invoice is unknown, cannot take this credit, or the UPDATE matched nothing.
 */
export async function addCredit(tx: Db, credit: InvoiceCredit): Promise<CreditedInvoice | undefined> {
  const [before] = await tx.select().from(invoices).where(eq(invoices.id, credit.invoiceId)).limit(1);
  if (!before) return undefined;
  const allowed = credit.voiding ? before.status === 'void' : creditableCents(before) > 0;
  if (!allowed) return undefined;
  const dueBefore = credit.voiding ? credit.amountCents : amountDueCents(before);
  const appliedCents = Math.min(credit.amountCents, dueBefore);
  const settled =
    !credit.voiding &&
    isPayable(before.status) &&
    dueBefore > 0 &&
    settles({ ...before, creditedCents: before.creditedCents + credit.amountCents });

  const [invoice] = await tx
    .update(invoices)
    .set({
      creditedCents: sql`${invoices.creditedCents} + ${credit.amountCents}`,
      ...(settled ? { status: 'paid', paidAt: new Date() } : {}),
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(invoices.id, credit.invoiceId),
        eq(invoices.status, before.status),
        eq(invoices.creditedCents, before.creditedCents),
        eq(invoices.amountPaidCents, before.amountPaidCents),
        sql`${credit.amountCents} <= ${sqlUncredited(row)}`,
      ),
    )
    .returning();
  if (!invoice) return undefined;
  if (settled) await emitWebhookEvent(tx, 'invoice.paid', { ids: [invoice.id] });
  return { before, invoice, appliedCents, settled };
}

// ---------------------------------------------------------------------------------------------------------
// Set-based: parts of the caller's one statement
// ---------------------------------------------------------------------------------------------------------

/**
 * The body of a data-modifying CTE that issues invoices: one per row of the relation `source`, which names
 * the issued figures as the invoices columns do (number, contract_id, customer_id, period_index,
 * period_start, period_end, due_date, subtotal_cents, setup_fee_cents, agency_commission_cents,
 * agency_billing_mode, tax_cents, tax_label, tax_rate_bp, tax_included, total_cents, in_season, issued_at); the
 * invoice's bill-to is its contract's (the trigger invoices_bill_to_set). Each is issued pending, or paid at issue when it is
 * settled as it stands (a $0.00 invoice). Answers the inserted rows (`returning *`). The unique constraint
 * invoices_contract_period_key decides a period issued twice (the statement fails).
 */
export function sqlIssueInvoices(source: string): SQL {
  const issued: InvoiceFigures = { alias: 's', amountPaidCents: sql`0`, creditedCents: sql`0` };
  return sql`
    insert into invoices (number, contract_id, customer_id, period_index, period_start, period_end, due_date, status,
                          subtotal_cents, setup_fee_cents, agency_commission_cents, agency_billing_mode, tax_cents,
                          tax_label, tax_rate_bp, tax_included, total_cents, in_season, paid_at, issued_at)
    select s.number, s.contract_id, s.customer_id, s.period_index, s.period_start, s.period_end, s.due_date,
           case when ${sqlSettles(issued)} then 'paid' else 'pending' end,
           s.subtotal_cents, s.setup_fee_cents, s.agency_commission_cents, s.agency_billing_mode, s.tax_cents,
           s.tax_label, s.tax_rate_bp, s.tax_included,
           s.total_cents, s.in_season, case when ${sqlSettles(issued)} then s.issued_at end, s.issued_at
    from ${sql.identifier(source)} s
    returning *`;
}

/**
 * The body of a data-modifying CTE that adds payments to invoices: the relation `source` has one row per
 * invoice (invoice_id, amount_cents), computed in the same statement from payable invoices and never above
 * their amount due (the statement's snapshot is the invoices' state: the caller holds their contracts'
 * locks, or issued them in its own transaction). Each invoice becomes paid when payments and credits settle
 * it. Answers id, customer_id, status, amount_paid_cents and added_cents per invoice.
 */
export function sqlAddPayments(source: string): SQL {
  const settled = sqlSettles({ alias: 'i', amountPaidCents: sql`i.amount_paid_cents + s.amount_cents` });
  return sql`
    update invoices i
    set amount_paid_cents = i.amount_paid_cents + s.amount_cents,
        status = case when ${settled} then 'paid' else i.status end,
        paid_at = case when ${settled} then now() else i.paid_at end,
        updated_at = now()
    from ${sql.identifier(source)} s
    where i.id = s.invoice_id
    returning i.id, i.customer_id, i.status, i.amount_paid_cents, s.amount_cents as added_cents`;
}

/**
 * The events of invoices the caller just issued (the billing run's chunk, after its customers' credit balances
 * were applied): `invoice.issued` for each, `invoice.paid` for those already paid (settled at issue, or by
 * credit). One INSERT ... SELECT each, however many invoices.
 */
export async function emitIssuedInvoiceEvents(tx: Db, invoiceIds: readonly string[]): Promise<void> {
  if (invoiceIds.length === 0) return;
  await emitWebhookEvent(tx, 'invoice.issued', { ids: invoiceIds });
  await emitWebhookEvent(tx, 'invoice.paid', { ids: invoiceIds, where: sql`r.status = 'paid'` });
}
