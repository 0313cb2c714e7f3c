import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rowsOf } from '../../lib/db-rows';

/** One event of an invoice's timeline as the query reads it (bigint columns maybe as text). */
export type TimelineRow = {
  id: string;
  kind: string;
  at: Date | string;
  amount_cents: string | number | null;
  reference: string | null;
  detail: string | null;
  email_status: string | null;
  actor: string | null;
};

/**
 * An invoice's events in one query, oldest first: its issue, the e-mails the customer was sent about it and
 * its credit notes (the outbox, by entity), its dunning steps, its payments and refunds, its credit notes and its void (who voided
 * it from the audit trail). They are ordered by when each was recorded (a back-dated payment where it was
 * entered, shown with the day the money moved); events of one transaction share that moment, and the rank
 * orders them cause first (a void before its credit note and refund), e-mails last (a first reminder's
 * before a second's). Each source is read by an index on the invoice
 * (outbox_entity_idx, payments_invoice_idx, credit_notes_invoice_idx, dunning_steps' key, audit_entity_idx).
 * `sentOnly` leaves out e-mails not (yet) delivered.
 */
export async function selectInvoiceTimeline(
  db: Db,
  invoiceId: string,
  options: { sentOnly: boolean },
): Promise<TimelineRow[]> {
  const staffName = (userId: string) =>
    sql.raw(`(select nullif(trim(u.first_name || ' ' || u.last_name), '') from users u where u.id = ${userId})`);
  const result = await db.execute(sql`
    with inv as (select id, issued_at, total_cents, voided_at, void_reason from invoices where id = ${invoiceId}),
    events as (
      select 'issued:' || i.id as id, 'issued' as kind, i.issued_at as at, i.issued_at as sort_at, 0 as rank,
             i.total_cents as amount_cents,
             null::text as reference, null::text as detail, null::text as email_status, null::text as actor
      from inv i
      union all
      select 'dunning:' || d.step, case d.step when 'pause' then 'paused' else 'reminder' end, d.done_at, d.done_at,
             case d.step when 'pause' then 2 else 1 end, null, case when d.step <> 'pause' then d.step end, null, null,
             null
      from dunning_steps d where d.invoice_id = ${invoiceId}
      union all
      select 'payment:' || p.id,
             case when p.kind = 'refund' then 'refund' when p.status = 'failed' then 'payment_failed' else 'payment' end,
             p.paid_at, p.created_at, case when p.kind = 'refund' then 6 else 3 end, p.amount_cents, p.method,
             case when p.status = 'failed' then p.failure_message end, null, ${staffName('p.recorded_by')}
      from payments p where p.invoice_id = ${invoiceId}
      union all
      select 'void:' || i.id, 'void', i.voided_at,
             coalesce((select c.issued_at from credit_notes c where c.invoice_id = i.id and c.kind = 'void'), i.voided_at), 4, null, null, i.void_reason, null,
             (select ${staffName('a.actor_id')} from audit_events a
              where a.entity = 'invoice' and a.entity_id = i.id::text
                and a.action in ('invoice.voided', 'invoice.refunded')
              order by a.created_at desc limit 1)
      from inv i where i.voided_at is not null
      union all
      select 'credit_note:' || c.id, 'credit_note', c.issued_at, c.issued_at, 5, c.amount_cents, c.number, c.reason, null,
             ${staffName('c.created_by')}
      from credit_notes c where c.invoice_id = ${invoiceId}
      union all
      select 'email:' || o.id, 'emailed', o.created_at, o.created_at, 9, null, null, o.subject, o.status, null
      from outbox_emails o
      where ((o.entity = 'invoice' and o.entity_id = ${invoiceId}::text)
          or (o.entity = 'credit_note'
              and o.entity_id in (select c.id::text from credit_notes c where c.invoice_id = ${invoiceId})))
        -- What the customer was sent: the notices to the team (a rep's, finance's) are not the invoice's story.
        and not exists (select 1 from users u where lower(u.email) = lower(o.to) and u.role <> 'client')
        and ${sql.raw(options.sentOnly ? "o.status = 'sent'" : 'true')}
    )
    select id, kind, at, amount_cents, reference, detail, email_status, actor
    from events
    order by sort_at, rank, reference, detail, id
  `);
  return rowsOf<TimelineRow>(result);
}
