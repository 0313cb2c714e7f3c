import { amountDueCents, isPayable } from './invoice-amounts';
import { type Cents, formatCents } from './money';

/**
 * What an invoice document (the PDF) says of its state, from its amounts today by the shared rules
 * (invoice-amounts.ts), never from a stored flag: void, credited in full, paid, and for one still asking for
 * money whether it is past due on the business day and how much of it is still due.
 */
export type InvoiceState = 'void' | 'credited' | 'paid' | 'overdue' | 'partly_paid' | 'partly_credited' | 'open';

export type InvoiceStateFacts = {
  status: string;
  totalCents: Cents;
  amountPaidCents: Cents;
  creditedCents: Cents;
  dueDate: string;
};

/** The invoice's state on `today` (the business day, YYYY-MM-DD) and its words, e.g. "Partly paid, $60.00 due". */
export function invoiceState(invoice: InvoiceStateFacts, today: string): { state: InvoiceState; label: string } {
  if (invoice.status === 'void') return { state: 'void', label: 'Void' };
  const due = amountDueCents(invoice);
  if (!isPayable(invoice.status) || due === 0) {
    // Settled: by credit notes alone ("Credited"), or with money received ("Paid").
    return invoice.amountPaidCents === 0 && invoice.creditedCents > 0
      ? { state: 'credited', label: 'Credited' }
      : { state: 'paid', label: 'Paid' };
  }
  const overdue = invoice.dueDate < today;
  const part =
    invoice.amountPaidCents > 0
      ? `Partly paid, ${formatCents(due)} due`
      : invoice.creditedCents > 0
        ? `Partly credited, ${formatCents(due)} due`
        : null;
  if (overdue) return { state: 'overdue', label: part ? `Overdue · ${part}` : 'Overdue' };
  if (part) return { state: invoice.amountPaidCents > 0 ? 'partly_paid' : 'partly_credited', label: part };
  return { state: 'open', label: `${formatCents(due)} due` };
}
