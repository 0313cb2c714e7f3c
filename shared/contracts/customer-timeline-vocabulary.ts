/**
 * The customer's story (product.md section 19), GET /api/customers/{id}/timeline: newest first, read from the
 * records the product already keeps (the audit trail of its contracts and deals, its invoices, payments, credit
 * notes and activities), never a copy of them. Paged by time: `before` is the `nextBefore` of the previous page.
 * Zod-free, so the customer page loads without the schemas (customer-timeline.ts holds the query's).
 */

export const TIMELINE_KINDS = [
  'activity',
  'deal',
  'contract',
  'invoice',
  'payment',
  'credit_note',
  'delivery',
] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

export const TIMELINE_DEFAULT_LIMIT = 50;
export const TIMELINE_MAX_LIMIT = 200;

export type TimelineEntry = {
  /** Unique within the timeline: its source and the source row's id. */
  id: string;
  /** When it happened (ISO timestamp, milliseconds). */
  at: string;
  kind: TimelineKind;
  /** The event in a sentence: "Contract "Spring Menu" sent to the customer", "Invoice INV-2026-000012 issued: $250.00". */
  title: string;
  /** What else there is to know (a contract's name, a due day, an activity's text); null when nothing. */
  detail: string | null;
  /** The in-app page of the record it is about (a contract's page, the pipeline); null when none. */
  link: string | null;
  /** Who did it (a staff member); null for the billing run, a customer, the system. */
  actorName: string | null;
};

export type CustomerTimeline = {
  entries: TimelineEntry[];
  /** The `before` of the next page; null on the last one. */
  nextBefore: string | null;
};

/** The audit actions of a contract that belong to the customer's story: its life, its signature, delivery settled. */
export const CONTRACT_STORY_ACTIONS = [
  'contract.created',
  'contract.sent',
  'contract.activated',
  'contract.paused',
  'contract.resumed',
  'contract.canceled',
  'contract.completed',
  'contract.renewed',
  'insertion_order.accepted',
  'insertion_order.declined',
  'delivery.settled',
] as const;

/** A deal's: opened, moved between stages, won, lost, its contract drafted. */
export const DEAL_STORY_ACTIONS = [
  'deal.created',
  'deal.moved',
  'deal.won',
  'deal.lost',
  'deal.contract_created',
] as const;

/** Both, as each branch filters them (one list, so that one index on these actions, audit_story_idx, serves both branches). */
export const STORY_ACTIONS = [...CONTRACT_STORY_ACTIONS, ...DEAL_STORY_ACTIONS] as const;
