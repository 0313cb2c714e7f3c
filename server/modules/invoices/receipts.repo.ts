import { and, asc, desc, eq } from 'drizzle-orm';
import { sqlBillingEmail } from '../../db/billing-recipient';
import type { Db } from '../../db/client';
import { contracts, customers, invoices, payments } from '../../db/schema';

/** Which payments a receipt is of: those a checkout took, or one payment on an invoice (its latest by default). */
export type ReceiptSelector = { checkoutSessionId: string } | { invoiceId: string; paymentId?: string };

/** A payment received, with its invoice, its contract's name and the customer it came from. */
export type ReceiptRow = Awaited<ReturnType<typeof selectReceiptRows>>[number];

/**
 * The succeeded payments (never refunds or failed attempts) a receipt is of, oldest invoice first, each with its
 * invoice's figures now, the contract's id and title, and the customer's name, e-mail and address: the e-mail
 * the receipt went to, its billing contact's when it has one (db/billing-recipient.ts).
 */
export async function selectReceiptRows(db: Db, selector: ReceiptSelector) {
  const received = and(eq(payments.kind, 'payment'), eq(payments.status, 'succeeded'));
  const where =
    'checkoutSessionId' in selector
      ? and(received, eq(payments.checkoutSessionId, selector.checkoutSessionId))
      : and(
          received,
          eq(payments.invoiceId, selector.invoiceId),
          selector.paymentId ? eq(payments.id, selector.paymentId) : undefined,
        );
  const query = db
    .select({
      payment: payments,
      invoice: invoices,
      contract: { id: contracts.id, title: contracts.title },
      customer: {
        name: customers.name,
        email: sqlBillingEmail('customers'),
        company: customers.company,
        address: customers.address,
        city: customers.city,
        state: customers.state,
        zipCode: customers.zipCode,
        country: customers.country,
      },
    })
    .from(payments)
    .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
    .innerJoin(contracts, eq(contracts.id, payments.contractId))
    .innerJoin(customers, eq(customers.id, payments.customerId))
    .where(where);
  // One invoice's receipt is of its latest payment unless one is named; a checkout's covers every invoice it paid.
  if ('checkoutSessionId' in selector) return query.orderBy(asc(invoices.periodStart), asc(payments.id));
  return query.orderBy(desc(payments.paidAt), desc(payments.createdAt)).limit(1);
}
