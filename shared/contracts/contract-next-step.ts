import type { IoStatus } from './insertion-order-vocabulary';

/**
 * What a sent contract waits for (product.md sections 4, 15 and 17), once its insertion order is signed, or when
 * it was sent before insertion orders existed (no version at all). A sent contract becomes active on its first
 * payment or when staff activate it:
 * - pay_link: the pay page asks for the first invoice as soon as the IO is signed (it is charged then, whatever
 *   the start date, and paying it activates the contract): the contract waits for that payment.
 * - portal: the client pays in the portal with Pay Now, which needs an issued invoice, and invoices are issued
 *   for active contracts only: staff activate it, and the billing run issues the first invoice on its period's
 *   first day (at once when that day has come). Activating early bills nothing sooner, so a signed portal
 *   contract is ready to activate from the moment it is signed.
 * Zod-free: screens import it, and the server answers it (the staff contract, the client's contract and list).
 */

export const CONTRACT_NEXT_STEP_KINDS = ['first_payment', 'activation'] as const;
export type ContractNextStepKind = (typeof CONTRACT_NEXT_STEP_KINDS)[number];

export type ContractNextStep = {
  /** first_payment: the customer pays the first invoice on the pay link; activation: staff activate the contract. */
  kind: ContractNextStepKind;
  /** Its newest insertion order version is accepted; false: sent before insertion orders (no version). */
  signed: boolean;
  /**
   * YYYY-MM-DD: the first day its first invoice can be issued: the first billing period's first day (the billing
   * engine's first invoice date), or today once that day has passed (it is issued on activation then).
   */
  firstInvoiceOn: string;
};

/**
 * The next step of a contract, or null: not sent, or its insertion order still to sign, declined or changed (the
 * IO step says what to do then).
 */
export function contractNextStep(input: {
  status: string;
  paymentMode: string;
  insertionOrderStatus: IoStatus | null;
  /** YYYY-MM-DD: the first invoice's date from the billing engine (its period's first day). */
  firstInvoiceDate: string;
  /** YYYY-MM-DD: the business's today. */
  today: string;
}): ContractNextStep | null {
  if (input.status !== 'sent') return null;
  if (input.insertionOrderStatus !== null && input.insertionOrderStatus !== 'accepted') return null;
  return {
    kind: input.paymentMode === 'pay_link' ? 'first_payment' : 'activation',
    signed: input.insertionOrderStatus === 'accepted',
    // The later of the two days (YYYY-MM-DD sorts as text).
    firstInvoiceOn: [input.firstInvoiceDate, input.today].sort()[1],
  };
}

/** Formats a YYYY-MM-DD day as "Dec 15, 2026" (the client's and the server's formatter). */
type FormatDay = (day: string) => string;

/** The staff contract page's line: "Signed, waiting for first payment", "Signed, ready to activate". */
export function staffNextStepTitle(step: ContractNextStep): string {
  const state = step.signed ? 'Signed' : 'Sent without an insertion order';
  return step.kind === 'first_payment' ? `${state}, waiting for first payment` : `${state}, ready to activate`;
}

/** What the line means for staff: who does what next. */
export function staffNextStepDetail(step: ContractNextStep, formatDay: FormatDay): string {
  if (step.kind === 'first_payment') {
    return 'The pay link asks the customer for the first invoice; paying it activates the contract. You may activate it sooner.';
  }
  return `Activate it: its first invoice is issued on ${formatDay(step.firstInvoiceOn)} once it is active, and the client pays it with Pay Now in the portal.`;
}

/** The client's contract page: "Signed — your first invoice is issued on Dec 15, 2026", and what follows. */
export function clientNextStepTitle(step: ContractNextStep, formatDay: FormatDay): string {
  const prefix = step.signed ? 'Signed — your' : 'Your';
  return step.kind === 'first_payment'
    ? `${prefix} first invoice is ready to pay`
    : `${prefix} first invoice is issued on ${formatDay(step.firstInvoiceOn)}`;
}

export function clientNextStepDetail(step: ContractNextStep): string {
  return step.kind === 'first_payment'
    ? 'Pay it from the payment link we e-mailed you: your contract starts when it is paid.'
    : 'We activate your contract by then and e-mail you the invoice; you pay it here with Pay Now.';
}
