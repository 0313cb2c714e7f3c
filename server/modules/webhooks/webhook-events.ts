import type { WebhookEventType } from '@shared/contracts/webhooks-vocabulary';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { sqlAmountDue } from '../../db/invoice-amounts';
import { insertEventsAndDeliveries } from './webhooks.repo';

/**
 * The one way an event for other systems is raised (product.md section 16, decision 042): ONE INSERT ... SELECT
 * in the caller's transaction (the outbox pattern: an event exists exactly when its change committed) that
 * writes the event, in the public shape of its resource read from the row as the change left it, and fans it
 * out to every enabled endpoint subscribed to its type (a pending delivery each). The delivery worker
 * (webhooks.delivery.ts) sends them after commit, with the event's id as `webhook-id` on every
 * attempt.
 *
 * Set-based: `ids` may name many rows (the billing run passes its chunk's invoices), or `where` filters the
 * resource's table (alias `r`); either way it is one statement (webhooks.repo.ts, insertEventsAndDeliveries). An event without subscribers is not kept,
 * except a once-only event (`once`): its key (type and resource id, unique) is kept so that it is raised once
 * per resource whenever endpoints subscribe.
 */

/** An ISO 8601 UTC timestamp (…Z) in JSON, whatever the session's time zone. */
const at = (column: string) => sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);
const day = (column: string) => sql.raw(`to_char(${column}, 'YYYY-MM-DD')`);

/** A resource's table (alias `r`), its public shape, and any join that shape reads. */
type Resource = { table: string; data: SQL; join?: SQL };

/** Each resource's public shape: ids, figures in cents, status, dates. Never a secret, token or pay link. */
const RESOURCES = {
  invoice: {
    table: 'invoices',
    data: sql`jsonb_build_object(
      'object', 'invoice', 'id', r.id, 'number', r.number, 'contractId', r.contract_id, 'customerId', r.customer_id,
      'status', r.status, 'periodStart', ${day('r.period_start')}, 'periodEnd', ${day('r.period_end')},
      'dueDate', ${day('r.due_date')}, 'subtotalCents', r.subtotal_cents, 'setupFeeCents', r.setup_fee_cents,
      'taxCents', r.tax_cents, 'taxLabel', r.tax_label, 'taxIncluded', r.tax_included, 'totalCents', r.total_cents,
      'amountPaidCents', r.amount_paid_cents, 'creditedCents', r.credited_cents, 'refundedCents', r.refunded_cents,
      'amountDueCents', ${sqlAmountDue('r')}, 'issuedAt', ${at('r.issued_at')}, 'paidAt', ${at('r.paid_at')},
      'voidedAt', ${at('r.voided_at')})`,
  },
  payment: {
    table: 'payments',
    data: sql`jsonb_build_object(
      'object', 'payment', 'id', r.id, 'invoiceId', r.invoice_id, 'contractId', r.contract_id,
      'customerId', r.customer_id, 'kind', r.kind, 'status', r.status, 'amountCents', r.amount_cents,
      'method', r.method, 'provider', r.provider, 'failureMessage', r.failure_message, 'at', ${at('r.paid_at')},
      'attempt', a.attempt_number, 'nextAttemptAt', ${day('a.retry_on')})`,
    // An autopay charge's attempt number and next attempt (product.md section 18); null for other payments.
    join: sql`left join autopay_attempts a on a.invoice_id = r.invoice_id and a.provider_payment_id = r.provider_payment_id`,
  },
  payment_method: {
    table: 'payment_methods',
    // Never a number, a fingerprint or the provider's ids: what the customer page shows.
    data: sql`jsonb_build_object(
      'object', 'payment_method', 'id', r.id, 'customerId', r.customer_id, 'kind', r.kind, 'provider', r.provider,
      'brand', r.brand, 'last4', r.last4, 'expMonth', r.exp_month, 'expYear', r.exp_year, 'isDefault', r.is_default,
      'status', r.status, 'createdAt', ${at('r.created_at')}, 'updatedAt', ${at('r.updated_at')})`,
  },
  credit_note: {
    table: 'credit_notes',
    data: sql`jsonb_build_object(
      'object', 'credit_note', 'id', r.id, 'number', r.number, 'invoiceId', r.invoice_id,
      'contractId', r.contract_id, 'customerId', r.customer_id, 'kind', r.kind, 'reason', r.reason,
      'amountCents', r.amount_cents, 'taxCents', r.tax_cents, 'appliedCents', r.applied_cents,
      'toBalanceCents', r.to_balance_cents, 'issuedAt', ${at('r.issued_at')})`,
  },
  contract: {
    table: 'contracts',
    data: sql`jsonb_build_object(
      'object', 'contract', 'id', r.id, 'customerId', r.customer_id, 'salesRepId', r.sales_rep_id,
      'title', r.title, 'status', r.status, 'startDate', ${day('r.start_date')}, 'termMonths', r.term_months,
      'autoStopDate', ${day('r.auto_stop_date')}, 'paymentMode', r.payment_mode,
      'monthlyAmountCents', r.monthly_amount_cents, 'setupFeeCents', r.setup_fee_cents,
      'totalCents', r.total_cents, 'pauseReason', r.pause_reason, 'cancelReason', r.cancel_reason,
      'sentAt', ${at('r.sent_at')}, 'activatedAt', ${at('r.activated_at')}, 'canceledAt', ${at('r.canceled_at')})`,
  },
  delivery: {
    table: 'line_deliveries',
    data: sql`jsonb_build_object(
      'object', 'delivery', 'id', r.id, 'contractId', r.contract_id, 'lineId', r.line_id, 'invoiceId', r.invoice_id,
      'periodStart', ${day('r.period_start')}, 'periodEnd', ${day('r.period_end')},
      'bookedImpressions', r.booked_impressions, 'deliveredImpressions', r.delivered_impressions,
      'makegoodImpressions', r.makegood_impressions, 'shortfallImpressions', r.shortfall_impressions,
      'clicks', r.clicks, 'remedy', r.remedy, 'creditNoteId', r.credit_note_id,
      'settledAt', ${at('r.settled_at')}, 'finalAt', ${at('r.final_at')})`,
  },
  payout: {
    table: 'payouts',
    data: sql`jsonb_build_object(
      'object', 'payout', 'id', r.id, 'repId', r.rep_id, 'status', r.status, 'requestedCents', r.requested_cents,
      'approvedCents', r.approved_cents, 'requestedAt', ${at('r.requested_at')}, 'reviewedAt', ${at('r.reviewed_at')},
      'disbursedAt', ${at('r.disbursed_at')})`,
  },
  deal: {
    table: 'deals',
    // The pipeline's record (product.md section 19): stage, amounts and dates; no notes or next step.
    data: sql`jsonb_build_object(
      'object', 'deal', 'id', r.id, 'customerId', r.customer_id, 'ownerId', r.owner_id, 'title', r.title,
      'stage', s.name, 'amountCents', r.amount_cents, 'probability', coalesce(r.probability, s.probability),
      'source', r.source, 'lostReason', r.lost_reason, 'contractId', r.contract_id,
      'expectedCloseDate', ${day('r.expected_close_date')}, 'flightStart', ${day('r.flight_start')},
      'flightEnd', ${day('r.flight_end')}, 'closedAt', ${at('r.closed_at')})`,
    join: sql`join pipeline_stages s on s.id = r.stage_id`,
  },
} satisfies Record<string, Resource>;

/** The resource each event is about. */
export const WEBHOOK_EVENT_RESOURCES: Record<WebhookEventType, keyof typeof RESOURCES> = {
  'invoice.issued': 'invoice',
  'invoice.paid': 'invoice',
  'invoice.overdue': 'invoice',
  'payment.failed': 'payment',
  'payment_method.saved': 'payment_method',
  'payment_method.failed': 'payment_method',
  'credit_note.issued': 'credit_note',
  'contract.sent': 'contract',
  'contract.accepted': 'contract',
  'contract.activated': 'contract',
  'contract.paused': 'contract',
  'contract.canceled': 'contract',
  'delivery.reconciled': 'delivery',
  'payout.disbursed': 'payout',
  'deal.won': 'deal',
  'deal.lost': 'deal',
};

export type WebhookEventTarget =
  /** These rows of the event's resource (one, or a whole chunk). */
  | { ids: readonly string[]; where?: SQL }
  /** The rows of the resource's table (alias `r`) this filter picks. */
  | { where: SQL };

/**
 * What a module above another hears of the other's changes in-process: the same events, in the same
 * transaction, right after they are written (deals follow their contracts: product.md section 19). A listener
 * gets the event's resource ids (the filter of a `where` target is not applied for it: it acts on its own rows
 * by those ids, and must be idempotent); what it throws rolls the change back.
 */
export type EventListener = (tx: Db, type: WebhookEventType, ids: readonly string[]) => Promise<void>;
const listeners = new Map<WebhookEventType, EventListener[]>();

/** Registers a listener for these event types (registering the same function again changes nothing). */
export function onWebhookEvent(types: readonly WebhookEventType[], listener: EventListener): void {
  for (const type of types) {
    const list = listeners.get(type) ?? [];
    if (!list.includes(listener)) list.push(listener);
    listeners.set(type, list);
  }
}

/**
 * Raises `type` for the resources `target` names, in the caller's transaction; answers how many events were
 * written. `once`: at most one such event per resource ever (its key is kept even with no subscriber).
 */
export async function emitWebhookEvent(
  tx: Db,
  type: WebhookEventType,
  target: WebhookEventTarget,
  options: { once?: boolean } = {},
): Promise<number> {
  const ids = 'ids' in target ? target.ids.filter(Boolean) : null;
  if (ids && ids.length === 0) return 0;
  const resource = RESOURCES[WEBHOOK_EVENT_RESOURCES[type]];
  const filters: SQL[] = [];
  if (ids) filters.push(sql`r.id = any(${sql.param([...ids])}::uuid[])`);
  if (target.where) filters.push(target.where);
  const written = await insertEventsAndDeliveries(tx, type, { ...resource, filters }, { once: options.once ?? false });
  if (ids) for (const listener of listeners.get(type) ?? []) await listener(tx, type, ids);
  return written;
}
