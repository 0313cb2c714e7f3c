import { PAYABLE_INVOICE_STATUSES } from '@shared/invoice-amounts';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { invoices } from '../../db/schema';

/**
 * Holds an invoice that still asks for money (FOR SHARE, inside the caller's transaction): a payment or a void
 * waits until the transaction ends. False when the invoice is paid or void (or unknown).
 */
export async function holdPayableInvoice(tx: Db, id: string): Promise<boolean> {
  const rows = await tx
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.id, id), inArray(invoices.status, [...PAYABLE_INVOICE_STATUSES])))
    .for('share');
  return rows.length > 0;
}
