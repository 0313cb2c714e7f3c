import { calendarDay, daysInMonth } from '../calendar-date';
import { type ContractStatus, statusWord } from './contract-vocabulary';

/**
 * What may happen to a contract after it is created: when it can be edited or deleted (and why not), the
 * status transitions, and the auto-stop date of a term. Used by the screens and enforced by the server.
 */

type PaymentState = {
  status: string;
  stripeSubscriptionId?: string | null;
  stripePaymentLinkId?: string | null;
};

const paymentStarted = (c: PaymentState) => Boolean(c.stripeSubscriptionId || c.stripePaymentLinkId);

/** ui-spec.md section 4: draft, or sent or active with no subscription and no payment link. */
export function canEditContract(c: PaymentState): boolean {
  return editRefusal(c) === null;
}

/** ui-spec.md section 4: canceled or draft, or active with neither payment id. */
export function canDeleteContract(c: PaymentState): boolean {
  return deleteRefusal(c) === null;
}

/** Why a contract cannot be edited, or null when it can. */
export function editRefusal(c: PaymentState): string | null {
  if (c.status === 'draft') return null;
  if (c.status === 'sent' || c.status === 'active') {
    return paymentStarted(c) ? 'This contract cannot be edited because payment processing has started.' : null;
  }
  return `This contract is ${statusWord(c.status)} and can no longer be edited.`;
}

/**
 * The badge for a contract that cannot be edited, naming the real reason: ui-spec's "Cannot edit - payment
 * processing started" when a payment id is recorded, otherwise the status that stops editing. Null when
 * it can be edited.
 */
export function editRefusalLabel(c: PaymentState): string | null {
  if (editRefusal(c) === null) return null;
  if ((c.status === 'sent' || c.status === 'active') && paymentStarted(c)) {
    return 'Cannot edit - payment processing started';
  }
  return `Cannot edit - contract ${statusWord(c.status)}`;
}

/**
 * Why a contract's lines cannot be amended (a line added or ended from today), or null when they can: a
 * running contract whose edit is locked. One that can still be edited changes through the edit form.
 */
export function amendmentRefusal(c: PaymentState): string | null {
  if (editRefusal(c) === null) return 'This contract can still be edited: change its lines with Edit Contract.';
  if (c.status !== 'sent' && c.status !== 'active' && c.status !== 'paused') {
    return `This contract is ${statusWord(c.status)} and can no longer be amended.`;
  }
  return null;
}

/** Why a contract cannot be deleted, or null when it can. */
export function deleteRefusal(c: PaymentState): string | null {
  if (c.status === 'draft' || c.status === 'canceled') return null;
  if (c.status === 'active') {
    return paymentStarted(c)
      ? 'This contract cannot be deleted because payment processing has started. Cancel it instead.'
      : null;
  }
  if (c.status === 'completed') return 'This contract is completed and cannot be deleted.';
  return `This contract is ${statusWord(c.status)} and cannot be deleted. Cancel it instead.`;
}

/** The status actions after creation (product.md section 4). 'complete' is done by the billing run only. */
export const CONTRACT_TRANSITIONS = {
  send: { from: ['draft'], to: 'sent', verb: 'send', done: 'sent' },
  activate: { from: ['draft', 'sent'], to: 'active', verb: 'activate', done: 'activated' },
  pause: { from: ['active'], to: 'paused', verb: 'pause', done: 'paused' },
  resume: { from: ['paused'], to: 'active', verb: 'resume', done: 'resumed' },
  cancel: { from: ['draft', 'sent', 'active', 'paused'], to: 'canceled', verb: 'cancel', done: 'canceled' },
  complete: { from: ['active'], to: 'completed', verb: 'complete', done: 'completed' },
} as const satisfies Record<
  string,
  { from: readonly ContractStatus[]; to: ContractStatus; verb: string; done: string }
>;
export type ContractAction = keyof typeof CONTRACT_TRANSITIONS;

export function canTransition(status: string, action: ContractAction): boolean {
  return (CONTRACT_TRANSITIONS[action].from as readonly string[]).includes(status);
}

/** The actions staff can take on a contract in this status (the billing run's 'complete' left out). */
export function availableActions(status: string): ContractAction[] {
  return (Object.keys(CONTRACT_TRANSITIONS) as ContractAction[]).filter(
    (action) => action !== 'complete' && canTransition(status, action),
  );
}

/** The 409 message for a refused action, naming the current status. */
export function transitionRefusal(action: ContractAction, status: string): string {
  const rule = CONTRACT_TRANSITIONS[action];
  const from = rule.from.map((s) => statusWord(s));
  const list = from.length === 1 ? from[0] : `${from.slice(0, -1).join(', ')} or ${from[from.length - 1]}`;
  return `Cannot ${rule.verb} this contract: it is ${statusWord(status)}. Only ${list} contracts can be ${rule.done}.`;
}

/**
 * Why a contract's e-mail cannot be sent again (Resend), or null when it can: only a sent contract, whose
 * customer has not paid or accepted yet, is e-mailed again (a draft is sent with Send to Customer).
 */
export function resendRefusal(status: string): string | null {
  if (status === 'sent') return null;
  return `Cannot resend this contract: it is ${statusWord(status)}. Only sent contracts can be sent again.`;
}

/** The status a direct status change leads through: which action takes `from` to `to`, if any. */
export function actionFor(from: string, to: ContractStatus): ContractAction | null {
  for (const action of Object.keys(CONTRACT_TRANSITIONS) as ContractAction[]) {
    const rule = CONTRACT_TRANSITIONS[action];
    if (rule.to === to && canTransition(from, action) && action !== 'complete') return action;
  }
  return null;
}

/**
 * A calendar date plus whole months, clamped to the month's last day: Jan 31 + 1 month = Feb 28 (29 in
 * a leap year). The one rule for auto-stop dates and billing periods.
 */
export function addCalendarMonths(date: string, months: number): string {
  const y = Number(date.slice(0, 4));
  const m = Number(date.slice(5, 7));
  const d = Number(date.slice(8, 10));
  const monthIndex = y * 12 + (m - 1) + months;
  const year = Math.floor(monthIndex / 12);
  const month = monthIndex - year * 12;
  const day = Math.min(d, daysInMonth(year, month + 1));
  return calendarDay(year, month + 1, day);
}

/** startDate + termMonths calendar months; null when the term is indefinite. */
export function computeAutoStopDate(startDate: string, termMonths: number | null): string | null {
  return termMonths === null ? null : addCalendarMonths(startDate, termMonths);
}
