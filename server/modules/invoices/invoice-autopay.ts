import { type AutopayAttemptStatus, type InvoiceAutopay, methodLabel } from '@shared/contracts/autopay';
import { amountDueCents } from '@shared/invoice-amounts';
import { centsToAmount } from '@shared/money';
import type { Db } from '../../db/client';
import { businessDayOf } from '../../lib/business-day';
import { getSettings } from '../settings/settings.service';
import { selectInvoiceAutopayFacts } from './invoice-autopay.repo';

type InvoiceRef = {
  id: string;
  billToCustomerId: string;
  status: string;
  dueDate: string;
  issuedAt: Date;
  totalCents: number;
  amountPaidCents: number;
  creditedCents: number;
};

/**
 * An invoice's autopay as GET /api/invoices/{id} shows it (product.md section 18): "Autopay: Visa •••• 4242 on
 * Dec 8" before a charge (the charge day by the `autopayChargeOn` setting, or the retry day after a failure), its
 * attempts after; null when the customer is not on autopay and the invoice was never charged.
 */
export async function invoiceAutopay(db: Db, invoice: InvoiceRef): Promise<InvoiceAutopay> {
  // The payer's methods: the invoice's bill-to (the customer, or the agency that buys for it).
  const facts = await selectInvoiceAutopayFacts(db, invoice.id, invoice.billToCustomerId);
  const method = facts.autopayEnabled ? facts.defaultMethod : null;
  if (!method && facts.attempts.length === 0) return null;
  const due = amountDueCents(invoice);
  const last = facts.attempts.at(-1)?.attempt;
  let scheduledOn: string | null = null;
  if (method && due > 0) {
    if (!last) {
      const { autopayChargeOn } = await getSettings(db, 'contracts');
      scheduledOn = autopayChargeOn === 'issue_date' ? businessDayOf(invoice.issuedAt) : invoice.dueDate;
    } else if ((last.status === 'failed' || last.status === 'requires_action') && last.retryOn) {
      scheduledOn = last.retryOn;
    }
  }
  return {
    method: method ? methodLabel(method) : null,
    scheduledOn,
    attempts: facts.attempts.map(({ attempt, method: charged }) => ({
      number: attempt.attemptNumber,
      at: attempt.attemptedAt.toISOString(),
      status: attempt.status as AutopayAttemptStatus,
      amount: centsToAmount(attempt.amountCents),
      method: methodLabel(charged),
      reason: attempt.reason,
      nextAttemptOn: attempt.retryOn,
    })),
    canChargeNow: method !== null && due > 0 && last?.status !== 'pending',
  };
}
