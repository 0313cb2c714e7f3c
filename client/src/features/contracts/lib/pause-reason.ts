import type { ContractSummary } from '@shared/contracts/contract-responses';

/** The contract page's line under the status of a contract dunning paused (product.md section 14). */
export const NON_PAYMENT_PAUSE_EXPLANATION =
  'Paused for non-payment: it resumes by itself when its overdue invoices are paid.';

/** Paused by dunning for an unpaid invoice, not by staff: it resumes by itself once its overdue invoices are paid. */
export const pausedForNonPayment = (contract: Pick<ContractSummary, 'status' | 'pauseReason'>) =>
  contract.status === 'paused' && contract.pauseReason === 'non_payment';
