import { z } from 'zod';
import { isCalendarDate } from './common';

const day = (label: string) =>
  z
    .string()
    .trim()
    .refine(isCalendarDate, { message: `${label} must be a date (YYYY-MM-DD)` })
    .optional();

/** GET /api/audit filters (with limit/offset): entity, record, user and a date range (inclusive days of the business). */
export const auditQuerySchema = z.object({
  entity: z.string().trim().max(50).optional(),
  entityId: z.string().trim().max(100).optional(),
  userId: z.string().trim().uuid('userId must be a user id').optional(),
  from: day('from'),
  to: day('to'),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

export * from './audit-vocabulary';

/**
 * One changed field of an event: a path into the record ("status", "lineItems") and its values, with the
 * field's label and its values as the screen shows them (money as dollars, linked records by name).
 */
export type AuditChange = {
  field: string;
  before: unknown;
  after: unknown;
  /** "Approved" for approvedCents, "Default tax rate" for defaultTaxRate. */
  label: string;
  /** "$400.00", "Dec 15, 2026", "INV-2026-000123"; "—" when empty. */
  beforeText: string;
  afterText: string;
};

export type AuditEvent = {
  id: number;
  action: string;
  entity: string;
  entityId: string;
  actorId: string | null;
  actorName: string | null;
  /** Set when the change was made with an API key (its actor is the admin who made the key). */
  apiKeyName: string | null;
  /** The record by name, when it can be named ("Acme Corp", "INV-2026-000012", a contract's title). */
  label: string | null;
  /** The record's screen, when it has one. */
  link: string | null;
  createdAt: string;
  /**
   * The event in one sentence: "Payout approved: $400.00 of $500.00 requested", "Invoice INV-2026-000123
   * issued: $1,480.00", "API key \"Ad server\" created" (field labels, money as dollars, records by number or name).
   */
  summary: string;
  /** Field-level differences between the before and after snapshots (secrets never shown). */
  changes: AuditChange[];
};
