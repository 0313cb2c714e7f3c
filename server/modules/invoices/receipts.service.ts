import { type Receipt, receiptFilename } from '@shared/contracts/checkout';
import { type PaymentMethod, paymentMethodText } from '@shared/contracts/invoices';
import { amountDueCents } from '@shared/invoice-amounts';
import { centsToAmount, sumCents } from '@shared/money';
import type { Db } from '../../db/client';
import { businessDayOf } from '../../lib/business-day';
import { conflict, notFound } from '../../lib/errors';
import type { Letterhead } from '../../lib/pdf';
import type { SessionUser } from '../sessions/sessions';
import { contractDisplayName } from './invoices.emails';
import { findVisibleInvoice } from './invoices.service';
import { type ReceiptPdfData, renderReceiptPdf } from './receipts.pdf';
import { type ReceiptRow, selectReceiptRows } from './receipts.repo';

/**
 * Receipts: what a payment paid, as the receipt e-mail says it (invoices.emails.ts receiptEmail), on the success
 * page of a checkout and as a PDF. A checkout's receipt covers every invoice the checkout paid (one card charge,
 * a payment row per invoice); an invoice's receipt is of one payment on it. The figures are the records' own:
 * what was paid, and what is still due on each invoice now.
 */

/** The payments of one receipt, read once: the page's facts and the PDF come from it. */
export type ReceiptRecord = {
  rows: ReceiptRow[];
  /** The customer's e-mail: where the receipt went. */
  emailedTo: string;
};

const NO_RECEIPT = 'No payment has been received on this invoice yet';

/** The receipt of the payments a checkout took; null when it took none (nothing paid, or nothing it could apply). */
export async function checkoutReceiptRecord(db: Db, checkoutSessionId: string): Promise<ReceiptRecord | null> {
  const rows = await selectReceiptRows(db, { checkoutSessionId });
  return rows.length > 0 ? { rows, emailedTo: rows[0].customer.email } : null;
}

/**
 * The receipt of a payment on an invoice the caller may read (staff by role and rep, a client its own customer's;
 * others' answer 404): the payment named, or the invoice's latest. 404 for a payment of another invoice, 409 while
 * nothing has been received on it.
 */
export async function invoiceReceiptRecord(
  db: Db,
  actor: SessionUser,
  invoiceId: string,
  paymentId?: string,
): Promise<ReceiptRecord> {
  await findVisibleInvoice(db, actor, invoiceId);
  const rows = await selectReceiptRows(db, { invoiceId, paymentId });
  if (rows.length === 0) {
    if (paymentId) throw notFound('Payment');
    throw conflict(NO_RECEIPT);
  }
  return { rows, emailedTo: rows[0].customer.email };
}

const contractNameOf = (row: ReceiptRow) =>
  // The contract's title, never its description (the rep's own words about it: internal).
  contractDisplayName({ id: row.contract.id, title: row.contract.title, description: null });

/** The latest moment of the receipt's payments (a checkout's are all one charge, recorded together). */
const paidAtOf = (rows: ReceiptRow[]) => new Date(Math.max(...rows.map((row) => row.payment.paidAt.getTime())));

const methodOf = (row: ReceiptRow) =>
  paymentMethodText({
    method: row.payment.method as PaymentMethod,
    cardBrand: row.payment.cardBrand,
    cardLast4: row.payment.cardLast4,
  });

/** The receipt's facts, in dollars, as the success page shows them. */
export function toReceipt(record: ReceiptRecord): Receipt {
  const { rows } = record;
  const paidAt = paidAtOf(rows);
  return {
    amount: centsToAmount(sumCents(rows.map((row) => row.payment.amountCents))),
    paidAt: paidAt.toISOString(),
    paidOn: businessDayOf(paidAt),
    method: methodOf(rows[0]),
    invoices: rows.map((row) => ({
      number: row.invoice.number,
      periodStart: row.invoice.periodStart,
      periodEnd: row.invoice.periodEnd,
      total: centsToAmount(row.invoice.totalCents),
      amountPaid: centsToAmount(row.payment.amountCents),
      amountDue: centsToAmount(amountDueCents(row.invoice)),
    })),
    amountDue: centsToAmount(sumCents(rows.map((row) => amountDueCents(row.invoice)))),
    contractName: contractNameOf(rows[0]),
    emailedTo: record.emailedTo,
  };
}

export type ReceiptFile = { bytes: Buffer; filename: string };

/** The receipt as a PDF, with its file name ("receipt-INV-2026-000123.pdf": its first invoice's number). */
export async function receiptPdf(
  record: ReceiptRecord,
  letterhead: Letterhead,
  options: { compress?: boolean } = {},
): Promise<ReceiptFile> {
  const { rows } = record;
  const first = rows[0];
  const data: ReceiptPdfData = {
    letterhead,
    customer: first.customer,
    contractName: contractNameOf(first),
    paidOn: businessDayOf(paidAtOf(rows)),
    method: methodOf(first),
    reference: first.payment.reference,
    amountCents: sumCents(rows.map((row) => row.payment.amountCents)),
    invoices: rows.map((row) => ({
      number: row.invoice.number,
      periodStart: row.invoice.periodStart,
      periodEnd: row.invoice.periodEnd,
      totalCents: row.invoice.totalCents,
      paidCents: row.payment.amountCents,
      dueCents: amountDueCents(row.invoice),
    })),
  };
  const bytes = await renderReceiptPdf(data, options);
  return { bytes, filename: receiptFilename(first.invoice.number) };
}
