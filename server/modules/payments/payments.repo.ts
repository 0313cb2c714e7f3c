import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { invoices, payments } from '../../db/schema';

export type InvoiceRow = typeof invoices.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;
type PaymentInsert = typeof payments.$inferInsert;

const PAYABLE = ['pending', 'failed'];

/** The contract and customer an invoice belongs to (they never change). */
export async function selectInvoiceOwner(tx: Db, invoiceId: string) {
  const [row] = await tx
    .select({ contractId: invoices.contractId, customerId: invoices.customerId })
    .from(invoices)
    .where(eq(invoices.id, invoiceId))
    .limit(1);
  return row;
}

/** A payment or refund row; undefined when the provider's payment was recorded before (the unique key). */
export async function insertPaymentRow(tx: Db, values: PaymentInsert): Promise<PaymentRow | undefined> {
  const [row] = await tx
    .insert(payments)
    .values(values)
    .onConflictDoNothing({
      target: [payments.provider, payments.providerPaymentId, payments.invoiceId, payments.kind],
    })
    .returning();
  return row;
}

export async function selectPaymentByProviderId(
  tx: Db,
  key: { provider: string; providerPaymentId: string; invoiceId: string },
): Promise<PaymentRow | undefined> {
  const [row] = await tx
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.provider, key.provider),
        eq(payments.providerPaymentId, key.providerPaymentId),
        eq(payments.invoiceId, key.invoiceId),
        eq(payments.kind, 'payment'),
      ),
    )
    .limit(1);
  return row;
}

/**
 * ONE conditional UPDATE adds a payment to a payable invoice and never lets amount_paid + credited pass
 * the total; the invoice becomes paid when it reaches it. Undefined when nothing matched (paid, void, or too much).
 */
export async function addPaymentToInvoice(
  tx: Db,
  invoiceId: string,
  amountCents: number,
  paidAt: Date,
): Promise<InvoiceRow | undefined> {
  const newPaid = sql`${invoices.amountPaidCents} + ${amountCents}`;
  // What credit notes credited counts towards the total too (amount due = total - paid - credited).
  const settled = sql`${newPaid} + ${invoices.creditedCents}`;
  const [invoice] = await tx
    .update(invoices)
    .set({
      amountPaidCents: newPaid,
      status: sql`case when ${settled} = ${invoices.totalCents} then 'paid' else 'pending' end`,
      paidAt: sql`case when ${settled} = ${invoices.totalCents} then ${paidAt.toISOString()}::timestamptz else ${invoices.paidAt} end`,
      updatedAt: new Date(),
    })
    .where(
      and(eq(invoices.id, invoiceId), inArray(invoices.status, PAYABLE), sql`${settled} <= ${invoices.totalCents}`),
    )
    .returning();
  return invoice;
}

/** A declined card marks a pending invoice failed (it stays payable). */
export async function markInvoiceFailed(tx: Db, invoiceId: string): Promise<void> {
  await tx
    .update(invoices)
    .set({ status: 'failed', updatedAt: new Date() })
    .where(and(eq(invoices.id, invoiceId), eq(invoices.status, 'pending')));
}

/**
 * ONE conditional UPDATE voids an invoice that is not void yet. What is refunded is what was paid on it and
 * not already credited: money credited beyond the amount due went to the customer's credit balance before.
 */
export async function voidInvoiceRow(tx: Db, invoiceId: string, reason: string): Promise<InvoiceRow | undefined> {
  const [voided] = await tx
    .update(invoices)
    .set({
      status: 'void',
      voidedAt: new Date(),
      voidReason: reason,
      refundedCents: sql`least(${invoices.amountPaidCents}, ${invoices.totalCents} - ${invoices.creditedCents})`,
      updatedAt: new Date(),
    })
    .where(and(eq(invoices.id, invoiceId), inArray(invoices.status, [...PAYABLE, 'paid'])))
    .returning();
  return voided;
}

/** The money received on an invoice: its succeeded payments, oldest first. */
export async function selectReceivedPayments(tx: Db, invoiceId: string): Promise<PaymentRow[]> {
  return tx
    .select()
    .from(payments)
    .where(and(eq(payments.invoiceId, invoiceId), eq(payments.kind, 'payment'), eq(payments.status, 'succeeded')))
    .orderBy(asc(payments.createdAt), asc(payments.id));
}

/** The latest successful payment on a contract's invoices (what "Resend Receipt" sends again). */
export async function selectLatestPayment(db: Db, contractId: string): Promise<PaymentRow | undefined> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.contractId, contractId), eq(payments.kind, 'payment'), eq(payments.status, 'succeeded')))
    .orderBy(desc(payments.paidAt), desc(payments.createdAt))
    .limit(1);
  return row;
}
