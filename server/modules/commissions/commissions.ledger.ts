import { BASIS_POINTS } from '@shared/rates';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { recordAudit, recordAudits } from '../../lib/audit';
import { rowsOf } from '../../lib/db-rows';

/**
 * The commission ledger's two entry points for billing. Both run inside the caller's transaction
 * (the payment or the void) and are idempotent: the unique indexes on `commissions` decide, so a
 * replayed payment confirmation or a second void never writes a second row.
 * See docs/decisions/013-commissions-ledger.md.
 */

type InsertedRow = { id: string; rep_id: string; amount_cents: string | number; rate_bp: number };

/**
 * Call when the invoice becomes paid (status `paid`), in the same transaction. The contract's sales rep
 * earns the net collected subtotal (subtotal - setup-fee line - the agency's commission, billed net or gross:
 * product.md section 20; before tax) x their commission rate at this moment, rounded half
 * away from zero (the same rule as shared/money.ts applyRate: PostgreSQL's round() of an exact numeric),
 * less what credit notes credited before it was paid (before tax),
 * status `available`, dated when the invoice was paid (a manual payment may be back-dated). Before tax: with tax added on top the subtotal is already before tax; with tax
 * included in the prices, the tax part of that amount (rate / (1 + rate), rounded) is taken out.
 * Nothing is written when the contract has no rep, when the invoice is not paid, or when the amount is
 * 0 (a zero rate, a setup-fee-only invoice, or one credited in full): a $0.00 row would only clutter the history, so call this
 * on the transition to paid only. Exactly once per invoice (commissions_invoice_earned_key).
 */
export async function earnCommissionForInvoice(tx: Db, invoiceId: string): Promise<void> {
  await earnCommissionForInvoices(tx, [invoiceId]);
}

/** earnCommissionForInvoice for many invoices that became paid together (a batch of payments): two statements. */
export async function earnCommissionForInvoices(tx: Db, invoiceIds: readonly string[]): Promise<void> {
  if (invoiceIds.length === 0) return;
  const result = await tx.execute<InsertedRow>(sql`
    insert into commissions (rep_id, invoice_id, contract_id, kind, status, amount_cents, rate_bp, base_cents, earned_at)
    select c.rep_id, c.invoice_id, c.contract_id, 'earned', 'available', c.amount_cents, c.rate_bp, c.base_cents, c.paid_at
    from (
      select b.*, round(b.base_cents::numeric * b.rate_bp / ${BASIS_POINTS}::int)::bigint as amount_cents
      from (
        select ct.sales_rep_id as rep_id, i.id as invoice_id, i.contract_id,
               coalesce(i.paid_at, now()) as paid_at, u.commission_rate_bp as rate_bp,
               greatest(0, (i.subtotal_cents - i.setup_fee_cents - i.agency_commission_cents)
                 - case when i.tax_included
                     then round((i.subtotal_cents - i.setup_fee_cents - i.agency_commission_cents)::numeric * i.tax_rate_bp
                                / (${BASIS_POINTS}::int + i.tax_rate_bp))::bigint
                     else 0 end
                 - (select coalesce(sum(cn.amount_cents - cn.tax_cents), 0) from credit_notes cn
                    where cn.invoice_id = i.id)) as base_cents
        from invoices i
        join contracts ct on ct.id = i.contract_id
        join users u on u.id = ct.sales_rep_id
        where i.id = any(${sql.param([...invoiceIds])}::uuid[]) and i.status = 'paid'
      ) b
    ) c
    where c.amount_cents > 0
    on conflict (invoice_id) where kind = 'earned' and split_from is null do nothing
    returning id, rep_id, invoice_id, amount_cents, rate_bp
  `);
  const rows = rowsOf<InsertedRow & { invoice_id: string }>(result);
  await recordAudits(
    tx,
    rows.map((row) => ({
      actorId: null,
      action: 'commission.earned',
      entity: 'commission',
      entityId: row.id,
      after: {
        repId: row.rep_id,
        invoiceId: row.invoice_id,
        amountCents: Number(row.amount_cents),
        rateBp: row.rate_bp,
      },
    })),
  );
}

/**
 * Call when a paid invoice is voided or refunded, in the same transaction: a negative `adjusted` row of
 * the amount earned on it, less what its credit notes already took back (whatever part of it has been
 * requested or paid out since), exactly once
 * (commissions_invoice_reversal_key). Nothing when nothing was earned on the invoice.
 */
export async function reverseCommissionForInvoice(tx: Db, invoiceId: string): Promise<void> {
  const result = await tx.execute<InsertedRow>(sql`
    insert into commissions (rep_id, invoice_id, contract_id, kind, status, amount_cents, rate_bp, base_cents)
    select e.rep_id, e.invoice_id, e.contract_id, 'reversal', 'adjusted', -sum(e.amount_cents),
           min(e.rate_bp) filter (where e.kind = 'earned'), min(e.base_cents) filter (where e.kind = 'earned')
    from commissions e
    where e.invoice_id = ${invoiceId} and e.kind in ('earned','credit')
    group by e.rep_id, e.invoice_id, e.contract_id
    having sum(e.amount_cents) > 0
    on conflict (invoice_id) where kind = 'reversal' do nothing
    returning id, rep_id, amount_cents, rate_bp
  `);
  await auditAdjustment(tx, result, { invoiceId });
}

/**
 * Call when a credit note is issued on an invoice whose commission was earned, in the same transaction: a
 * negative `adjusted` row of the credited amount before tax x the rate the commission was earned at,
 * rounded half away from zero, never more than what remains of it (earned less earlier credits), exactly
 * once per credit note (commissions_credit_note_key). Nothing when nothing was earned (a credit before the
 * payment lowers what the payment earns instead), or after a reversal.
 */
export async function adjustCommissionForCreditNote(tx: Db, creditNoteId: string): Promise<void> {
  const result = await tx.execute<InsertedRow>(sql`
    insert into commissions (rep_id, invoice_id, contract_id, kind, status, amount_cents, rate_bp, base_cents, credit_note_id)
    select e.rep_id, e.invoice_id, e.contract_id, 'credit', 'adjusted',
           -least(round((cn.amount_cents - cn.tax_cents)::numeric * e.rate_bp / ${BASIS_POINTS}::int)::bigint, e.remaining),
           e.rate_bp, cn.amount_cents - cn.tax_cents, cn.id
    from credit_notes cn
    join lateral (
      select c.rep_id, c.invoice_id, c.contract_id, min(c.rate_bp) filter (where c.kind = 'earned') as rate_bp,
             sum(c.amount_cents) as remaining, bool_or(c.kind = 'reversal') as reversed
      from commissions c
      where c.invoice_id = cn.invoice_id and c.kind in ('earned','credit','reversal')
      group by c.rep_id, c.invoice_id, c.contract_id
      having bool_or(c.kind = 'earned')
    ) e on true
    where cn.id = ${creditNoteId} and not e.reversed and e.remaining > 0
      and round((cn.amount_cents - cn.tax_cents)::numeric * e.rate_bp / ${BASIS_POINTS}::int) > 0
    on conflict (credit_note_id) where kind = 'credit' do nothing
    returning id, rep_id, amount_cents, rate_bp
  `);
  await auditAdjustment(tx, result, { creditNoteId });
}

/** The audit event of an adjustment just written (none when the insert wrote nothing). */
async function auditAdjustment(tx: Db, result: unknown, about: Record<string, string>): Promise<void> {
  const row = rowsOf<InsertedRow>(result)[0];
  if (!row) return;
  await recordAudit(tx, {
    actorId: null,
    action: 'commission.adjusted',
    entity: 'commission',
    entityId: row.id,
    after: { repId: row.rep_id, ...about, amountCents: Number(row.amount_cents), rateBp: row.rate_bp },
  });
}
