/**
 * An invoice's timeline (GET /api/invoices/{id}/timeline): what happened to it, oldest first. The server
 * assembles it from the invoice, the e-mail outbox, the dunning steps, the payments, the credit notes and the
 * audit trail; `day` is the business day (BUSINESS_TIMEZONE) of `at`.
 */

export const INVOICE_EVENT_KINDS = [
  'issued',
  'emailed',
  'reminder',
  'paused',
  'payment',
  'payment_failed',
  'refund',
  'credit_note',
  'void',
] as const;
export type InvoiceEventKind = (typeof INVOICE_EVENT_KINDS)[number];

export type InvoiceEmailStatus = 'queued' | 'sent' | 'failed';

export type InvoiceTimelineEvent = {
  /** Unique within the timeline (its source and the source row's id). */
  id: string;
  kind: InvoiceEventKind;
  /** When it happened (ISO timestamp); an e-mail: when it was queued. */
  at: string;
  /** The business day of `at` (YYYY-MM-DD). */
  day: string;
  /** Dollars moved or credited (payments, refunds, credit notes); the total for `issued`; else null. */
  amount: number | null;
  /**
   * What identifies it: the reminder step (first_reminder, second_reminder), the payment method, the credit
   * note's number; null when there is nothing to add.
   */
  reference: string | null;
  /** An e-mail's subject (never its body), a credit note's or a void's reason, a failed payment's message. */
  detail: string | null;
  /** An e-mail's delivery: queued, sent or failed; null for other events. */
  emailStatus: InvoiceEmailStatus | null;
  /** The staff member who did it (staff only; null for the billing run, dunning, a customer, or a client's view). */
  actor: string | null;
};

export type InvoiceTimeline = { invoiceId: string; events: InvoiceTimelineEvent[] };

const REMINDER_LABELS: Record<string, string> = {
  first_reminder: 'First reminder',
  second_reminder: 'Second reminder',
};

/** The event's headline, as the timeline shows it. */
export function invoiceEventTitle(event: Pick<InvoiceTimelineEvent, 'kind' | 'reference' | 'emailStatus'>): string {
  switch (event.kind) {
    case 'issued':
      return 'Issued';
    case 'emailed':
      return event.emailStatus === 'sent'
        ? 'E-mailed'
        : event.emailStatus === 'failed'
          ? 'E-mail failed'
          : 'E-mail queued';
    case 'reminder':
      return `${REMINDER_LABELS[event.reference ?? ''] ?? 'Reminder'} sent`;
    case 'paused':
      return 'Contract paused for non-payment';
    case 'payment':
      return 'Payment received';
    case 'payment_failed':
      return 'Payment failed';
    case 'refund':
      return 'Refunded';
    case 'credit_note':
      return event.reference ? `Credit note ${event.reference}` : 'Credit note';
    case 'void':
      return 'Voided';
  }
}
