import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { creditNotes, invoices } from './billing';
import { contracts } from './contracts';
import { users } from './users';

/**
 * Payout requests of a sales rep. A request holds `requested` commission; review approves all or part
 * of it (the rest returns to available), rejects it (all returns) or, once approved, marks it disbursed.
 * Every transition is one conditional UPDATE on `status` (docs/decisions/013-commissions-ledger.md).
 */
export const payouts = pgTable(
  'payouts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    repId: uuid('rep_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    status: text('status').notNull().default('pending'),
    requestedCents: bigint('requested_cents', { mode: 'number' }).notNull(),
    /** Set on approval: at most the requested amount. */
    approvedCents: bigint('approved_cents', { mode: 'number' }),
    rejectReason: text('reject_reason'),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    reviewedBy: uuid('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    disbursedAt: timestamp('disbursed_at', { withTimezone: true }),
    disbursedBy: uuid('disbursed_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('payouts_rep_idx').on(t.repId, t.requestedAt, t.id),
    index('payouts_status_idx').on(t.status, t.requestedAt, t.id),
    index('payouts_requested_idx').on(t.requestedAt, t.id),
    check('payouts_status_check', sql`${t.status} in ('pending','approved','disbursed','rejected')`),
    check(
      'payouts_amounts_check',
      sql`${t.requestedCents} > 0 and (${t.approvedCents} is null or (${t.approvedCents} > 0 and ${t.approvedCents} <= ${t.requestedCents}))`,
    ),
  ],
);

/**
 * The commission ledger: one row per piece of commission, each in exactly one status, so that the
 * summary is one SUM per status and the history shows what each piece is.
 *
 * - kind `earned`: written once per paid invoice (status `available`). A payout that takes part of a
 *   row splits it: the taken part becomes a new row (`splitFrom` = the original) linked to the payout;
 *   the original keeps the rest. Amounts of one invoice's earned rows always add up to what was earned.
 * - kind `reversal`: the negative `adjusted` row written once when a paid invoice is voided or refunded
 *   (what was earned on it, less what credit notes already took back).
 * - kind `credit`: the negative `adjusted` row of a credit note on a paid invoice: the credited amount before
 *   tax x the rate the commission was earned at, once per credit note.
 *
 * For every rep: sum(available) + sum(adjusted) + sum(requested) + sum(disbursed) = earned + adjustments;
 * the Available figure is sum(available) + sum(adjusted) (adjustments are offset against what is
 * available, so a clawback after disbursement shows as a negative balance).
 */
export const commissions = pgTable(
  'commissions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    repId: uuid('rep_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'restrict' }),
    contractId: uuid('contract_id')
      .notNull()
      .references(() => contracts.id, { onDelete: 'restrict' }),
    kind: text('kind').notNull(),
    status: text('status').notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    /** The rep's commission rate when it was earned, in basis points (5% is 500). */
    rateBp: integer('rate_bp').notNull(),
    /** The commissionable amount of the invoice: subtotal without the setup fee (before tax). */
    baseCents: bigint('base_cents', { mode: 'number' }).notNull(),
    payoutId: uuid('payout_id').references(() => payouts.id, { onDelete: 'restrict' }),
    splitFrom: uuid('split_from'),
    /** The credit note a `credit` row adjusts for. */
    creditNoteId: uuid('credit_note_id').references(() => creditNotes.id, { onDelete: 'restrict' }),
    /** When the commission was earned (or adjusted); split parts keep the original's time. */
    earnedAt: timestamp('earned_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('commissions_invoice_earned_key')
      .on(t.invoiceId)
      .where(sql`${t.kind} = 'earned' and ${t.splitFrom} is null`),
    uniqueIndex('commissions_invoice_reversal_key').on(t.invoiceId).where(sql`${t.kind} = 'reversal'`),
    uniqueIndex('commissions_credit_note_key').on(t.creditNoteId).where(sql`${t.kind} = 'credit'`),
    index('commissions_rep_status_idx').on(t.repId, t.status, t.earnedAt, t.id),
    index('commissions_rep_earned_idx').on(t.repId, t.earnedAt, t.id),
    index('commissions_status_idx').on(t.status, t.earnedAt, t.id),
    index('commissions_earned_idx').on(t.earnedAt, t.id),
    index('commissions_invoice_idx').on(t.invoiceId),
    index('commissions_payout_idx').on(t.payoutId),
    check('commissions_kind_check', sql`${t.kind} in ('earned','reversal','credit')`),
    check('commissions_status_check', sql`${t.status} in ('available','requested','disbursed','adjusted')`),
    check(
      'commissions_kind_status_check',
      sql`(${t.kind} in ('reversal','credit')) = (${t.status} = 'adjusted') and (${t.payoutId} is null) = (${t.status} in ('available','adjusted'))`,
    ),
    check(
      'commissions_amount_check',
      sql`(${t.kind} = 'earned' and ${t.amountCents} > 0) or (${t.kind} in ('reversal','credit') and ${t.amountCents} < 0)`,
    ),
  ],
);
