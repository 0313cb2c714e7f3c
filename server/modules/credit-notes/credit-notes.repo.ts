import { desc, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { creditNotes, customerCreditEntries, customers, invoices } from '../../db/schema';

export type CustomerCreditEntryRow = typeof customerCreditEntries.$inferSelect;

/** The most recent movements a customer's credit card shows. */
const ENTRY_LIMIT = 200;

/** A customer's credit balance (undefined for an unknown customer). */
export async function selectCreditBalance(db: Db, customerId: string): Promise<number | undefined> {
  const [row] = await db
    .select({ balance: customers.creditBalanceCents })
    .from(customers)
    .where(eq(customers.id, customerId))
    .limit(1);
  return row?.balance;
}

/** The movements of a customer's credit balance, newest first, with the credit note and invoice numbers. */
export async function selectCreditEntries(db: Db, customerId: string) {
  const noteInvoice = alias(invoices, 'entry_invoice');
  return db
    .select({
      entry: customerCreditEntries,
      creditNoteNumber: creditNotes.number,
      invoiceNumber: noteInvoice.number,
    })
    .from(customerCreditEntries)
    .leftJoin(creditNotes, eq(creditNotes.id, customerCreditEntries.creditNoteId))
    .leftJoin(noteInvoice, eq(noteInvoice.id, customerCreditEntries.invoiceId))
    .where(eq(customerCreditEntries.customerId, customerId))
    .orderBy(desc(customerCreditEntries.createdAt), desc(customerCreditEntries.id))
    .limit(ENTRY_LIMIT);
}
