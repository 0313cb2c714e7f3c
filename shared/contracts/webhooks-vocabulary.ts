/**
 * Outgoing webhooks (product.md section 16, decision 042): the events an endpoint may subscribe to, their
 * labels, and the shapes the Settings screen's "Webhooks" tab shows. Zod-free: screens import it directly.
 */

/** The events other systems may subscribe to, in the order the form lists them. */
export const WEBHOOK_EVENT_TYPES = [
  'invoice.issued',
  'invoice.paid',
  'invoice.overdue',
  'payment.failed',
  'payment_method.saved',
  'payment_method.failed',
  'credit_note.issued',
  'contract.sent',
  'contract.accepted',
  'contract.activated',
  'contract.paused',
  'contract.canceled',
  'delivery.reconciled',
  'payout.disbursed',
  'deal.won',
  'deal.lost',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The test event "Send test event" delivers through the same pipeline; nobody subscribes to it. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  'invoice.issued': 'Invoice issued',
  'invoice.paid': 'Invoice paid',
  'invoice.overdue': 'Invoice overdue',
  'payment.failed': 'Payment failed',
  'payment_method.saved': 'Payment method saved',
  'payment_method.failed': 'Payment method failed',
  'credit_note.issued': 'Credit note issued',
  'contract.sent': 'Contract sent',
  'contract.accepted': 'Contract accepted',
  'contract.activated': 'Contract activated',
  'contract.paused': 'Contract paused',
  'contract.canceled': 'Contract canceled',
  'delivery.reconciled': 'Delivery reconciled',
  'payout.disbursed': 'Payout disbursed',
  'deal.won': 'Deal won',
  'deal.lost': 'Deal lost',
};

export const isWebhookEventType = (value: string): value is WebhookEventType =>
  (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);

/** An event type's label; the test event and unknown types show as written. */
export const webhookEventLabel = (type: string): string =>
  isWebhookEventType(type) ? WEBHOOK_EVENT_LABELS[type] : type === WEBHOOK_TEST_EVENT ? 'Test event' : type;

/**
 * Seconds to wait after the nth failed attempt (n = 1 is the first attempt) before the next one: Standard
 * Webhooks' schedule. After the tenth attempt the delivery has failed for good.
 */
export const WEBHOOK_RETRY_SCHEDULE_SECONDS = [
  5,
  5 * 60,
  30 * 60,
  2 * 3600,
  5 * 3600,
  10 * 3600,
  14 * 3600,
  20 * 3600,
  24 * 3600,
] as const;
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_SCHEDULE_SECONDS.length + 1;

/** An endpoint failing (every delivery, no success) this long in a row is disabled and admins are told. */
export const WEBHOOK_FAILING_DAYS_BEFORE_DISABLE = 5;
/** After a rotation, the previous secret keeps signing (a second signature) this long. */
export const WEBHOOK_PREVIOUS_SECRET_HOURS = 24;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

export const WEBHOOK_DELIVERY_STATUS_LABELS: Record<WebhookDeliveryStatus, string> = {
  pending: 'Pending',
  succeeded: 'Delivered',
  failed: 'Failed',
};

/** An endpoint as the list shows it: never its secret. */
export type WebhookEndpointView = {
  id: string;
  url: string;
  description: string | null;
  events: WebhookEventType[];
  enabled: boolean;
  /** Why it is disabled: by an admin, the receiver's 410, or 5 days of failures. */
  disabledReason: string | null;
  disabledAt: string | null;
  /** Since when every delivery has failed (null: the last one succeeded, or none failed). */
  failingSince: string | null;
  /** The end of the previous secret's 24 hours after a rotation, while it still signs. */
  previousSecretExpiresAt: string | null;
  createdAt: string;
  createdBy: { id: string; name: string } | null;
  updatedAt: string;
  lastDelivery: { at: string; status: WebhookDeliveryStatus; httpStatus: number | null } | null;
};

/** The answer to a create: the endpoint and its secret. */
export type CreatedWebhookEndpoint = WebhookEndpointView & { secret: string };

export type WebhookSecret = { secret: string; previousSecretExpiresAt: string | null };

/** One row of an endpoint's delivery log. */
export type WebhookDeliveryView = {
  id: string;
  eventId: string;
  eventType: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  httpStatus: number | null;
  durationMs: number | null;
  error: string | null;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
};
