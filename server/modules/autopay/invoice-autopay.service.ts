import type { Invoice } from '@shared/contracts/invoices';
import { amountDueCents } from '@shared/invoice-amounts';
import type { Db } from '../../db/client';
import { notFound } from '../../lib/errors';
import { findVisibleInvoice, getInvoice } from '../invoices/invoices.service';
import { selectInvoice } from '../payments/checkout.repo';
import type { SessionUser } from '../sessions/sessions';
import { type AutopayDeps, chargeInvoiceNow } from './autopay.charge';
import { invoiceAutopay } from './payment-methods.service';

/**
 * An invoice as GET /api/invoices/{id} answers it, with its autopay (product.md section 18): whoever may read
 * the invoice sees it.
 */
export async function getInvoiceWithAutopay(db: Db, actor: SessionUser, id: string): Promise<Invoice> {
  const invoice = await getInvoice(db, actor, id);
  const row = await selectInvoice(db, id);
  if (!row) throw notFound('Invoice');
  return { ...invoice, autopay: await invoiceAutopay(db, row) };
}

/** Finance's "Charge now", answered with the invoice as it is after the charge (paid, or its failed attempt). */
export async function chargeInvoiceWithAnswer(deps: AutopayDeps, actor: SessionUser, id: string): Promise<Invoice> {
  await findVisibleInvoice(deps.db, actor, id);
  const row = await selectInvoice(deps.db, id);
  if (!row) throw notFound('Invoice');
  await chargeInvoiceNow(
    deps,
    { id: row.id, customerId: row.customerId, amountDueCents: amountDueCents(row) },
    actor.id,
  );
  return getInvoiceWithAutopay(deps.db, actor, id);
}
