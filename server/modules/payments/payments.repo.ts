import { and, asc, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { contracts, invoices, payments } from '../../db/schema';

export type InvoiceRow = typeof invoices.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;
export type PaymentInsert = typeof payments.$inferInsert;

/** The contract and customer an invoice belongs to (they never change). */
export async function selectInvoiceOwner(tx: Db, invoiceId: string) {
  const [row] = await tx
    .select({ contractId: invoices.contractId, customerId: invoices.customerId })
    .from(invoices)
    .where(eq(invoices.id, invoiceId))
    .limit(1);
  return row;
}

/**
 * Payment or refund rows in one INSERT; a row whose provider payment was recorded before (the unique key) is
 * left out of the answer. At most a few hundred rows a call (16 parameters each).
 */
export async function insertPaymentRows(tx: Db, values: readonly PaymentInsert[]): Promise<PaymentRow[]> {
  if (values.length === 0) return [];
  return tx
    .insert(payments)
    .values([...values])
    .onConflictDoNothing({
      target: [payments.provider, payments.providerPaymentId, payments.invoiceId, payments.kind],
    })
    .returning();
}

/** A payment or refund row; undefined when the provider's payment was recorded before (the unique key). */
export async function insertPaymentRow(tx: Db, values: PaymentInsert): Promise<PaymentRow | undefined> {
  const [row] = await insertPaymentRows(tx, [values]);
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

/** The money received on an invoice: its succeeded payments, oldest first. */
export async function selectReceivedPayments(tx: Db, invoiceId: string): Promise<PaymentRow[]> {
  return tx
    .select()
    .from(payments)
    .where(and(eq(payments.invoiceId, invoiceId), eq(payments.kind, 'payment'), eq(payments.status, 'succeeded')))
    .orderBy(asc(payments.createdAt), asc(payments.id));
}

/** Whose a contract is (its sales rep), for the access check of "Resend Receipt"; undefined when unknown. */
export async function selectContractRep(
  db: Db,
  contractId: string,
): Promise<{ salesRepId: string | null } | undefined> {
  const [row] = await db
    .select({ salesRepId: contracts.salesRepId })
    .from(contracts)
    .where(eq(contracts.id, contractId))
    .limit(1);
  return row;
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

/**
 * What the customer-portal link needs of a contract: whose it is and whom it is billed to, its payment mode and its
 * Stripe customer.
 */
export async function selectContractPaymentAccount(db: Db, contractId: string) {
  const [row] = await db
    .select({
      id: contracts.id,
      customerId: contracts.customerId,
      billToCustomerId: contracts.billToCustomerId,
      salesRepId: contracts.salesRepId,
      status: contracts.status,
      paymentMode: contracts.paymentMode,
      stripeCustomerId: contracts.stripeCustomerId,
    })
    .from(contracts)
    .where(eq(contracts.id, contractId));
  return row ?? null;
}
