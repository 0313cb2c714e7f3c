/** commissions: the words and constants screens show (no zod here, so a screen can import them without the schemas). */
// ---------------------------------------------------------------------------------------------------------
// Vocabulary (ui-spec.md section 4)
// ---------------------------------------------------------------------------------------------------------

export const COMMISSION_STATUSES = ['available', 'requested', 'disbursed', 'adjusted'] as const;
export type CommissionStatus = (typeof COMMISSION_STATUSES)[number];

export const COMMISSION_STATUS_LABELS: Record<CommissionStatus, string> = {
  available: 'Available',
  requested: 'Requested',
  disbursed: 'Disbursed',
  adjusted: 'Adjusted',
};

export const PAYOUT_STATUSES = ['pending', 'approved', 'disbursed', 'rejected'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

export const PAYOUT_STATUS_LABELS: Record<PayoutStatus, string> = {
  pending: 'Pending',
  approved: 'Approved',
  disbursed: 'Disbursed',
  rejected: 'Rejected',
};

/** Payout filter values: a status, or `open` for those still waiting for review or disbursement. */
export const PAYOUT_FILTERS = [...PAYOUT_STATUSES, 'open'] as const;
export type PayoutFilter = (typeof PAYOUT_FILTERS)[number];

/** Every message of payout requests and reviews, in one place (ui-spec.md section 5 for the first two). */
export const PAYOUT_MESSAGES = {
  amountRequired: 'Amount is required',
  amountExceedsAvailable: 'Amount cannot exceed available commission',
  amountInvalid: 'Enter an amount in dollars, like 250.00',
  amountPositive: 'Amount must be greater than 0',
  nothingAvailable: 'You have no available commission to request',
  approvedRequired: 'Approved amount is required',
  approvedExceedsRequested: 'Approved amount cannot exceed the requested amount',
  reasonRequired: 'Please give a reason for rejecting the payout',
} as const;
