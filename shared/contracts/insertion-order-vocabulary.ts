/** The words and constants of insertion orders (product.md section 15), without zod: screens import them from here. */

export const IO_STATUSES = ['sent', 'accepted', 'declined', 'superseded'] as const;
export type IoStatus = (typeof IO_STATUSES)[number];

export const IO_STATUS_LABELS: Record<IoStatus, string> = {
  sent: 'Awaiting signature',
  accepted: 'Signed',
  declined: 'Declined',
  superseded: 'Superseded',
};

export const IO_EVENT_TYPES = ['sent', 'viewed', 'accepted', 'declined', 'superseded'] as const;
export type IoEventType = (typeof IO_EVENT_TYPES)[number];

export const IO_EVENT_LABELS: Record<IoEventType, string> = {
  sent: 'Sent',
  viewed: 'Viewed',
  accepted: 'Accepted',
  declined: 'Declined',
  superseded: 'Superseded',
};

export const IO_MESSAGES = {
  signerName: 'Enter your full name (2-100 characters)',
  agree: 'Tick "I agree to these terms" to accept',
  declineReason: 'Tell us why you decline (1-1000 characters)',
} as const;
