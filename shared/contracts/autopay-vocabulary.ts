/**
 * Autopay's words that screens show (product.md section 18), zod-free: screens import it directly.
 */

export const AUTOPAY_ATTEMPT_STATUSES = ['pending', 'succeeded', 'failed', 'requires_action', 'skipped'] as const;
export type AutopayAttemptStatus = (typeof AUTOPAY_ATTEMPT_STATUSES)[number];
export const AUTOPAY_ATTEMPT_LABELS: Record<AutopayAttemptStatus, string> = {
  pending: 'In progress',
  succeeded: 'Paid',
  failed: 'Failed',
  requires_action: 'Needs the customer',
  skipped: 'Not charged: nothing due',
};
