import type { Invoice } from '@shared/contracts/invoices';
import { amountDueCents } from '@shared/invoice-amounts';
import { findVisibleInvoice, getInvoice } from '../invoices/invoices.service';
import type { SessionUser } from '../sessions/sessions';
import { type AutopayDeps, chargeInvoiceNow } from './autopay-charges.service';

/**
 * Finance's "Charge now" (from the methods of the invoice's bill-to), answered with the invoice as it is after the
 * charge (paid, or its failed attempt).
 */
export async function chargeInvoiceWithAnswer(deps: AutopayDeps, actor: SessionUser, id: string): Promise<Invoice> {
  const { invoice } = await findVisibleInvoice(deps.db, actor, id);
  await chargeInvoiceNow(
    deps,
    { id: invoice.id, customerId: invoice.billToCustomerId, amountDueCents: amountDueCents(invoice) },
    actor.id,
  );
  return getInvoice(deps.db, actor, id);
}
