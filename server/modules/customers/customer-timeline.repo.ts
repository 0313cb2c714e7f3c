import {
  CONTRACT_STORY_ACTIONS,
  DEAL_STORY_ACTIONS,
  STORY_ACTIONS,
} from '@shared/contracts/customer-timeline-vocabulary';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { sqlAmountDue } from '../../db/invoice-amounts';
import { rowsOf } from '../../lib/db-rows';

/**
 * The customer's story in one statement (product.md section 19): the newest events of each record the product
 * keeps about a customer, merged by time. Each branch is its own top-N by time, read from an index where one
 * serves it:
 *
 *   activities        activities_customer_idx (customer_id, created_at)
 *   credit notes      credit_notes_customer_idx (customer_id, issued_at)
 *   invoices overdue  invoices_open_customer_idx (customer_id, due_date): the open ones, past due
 *   contract events   per contract of the customer, audit_contract_events_idx (entity_id, created_at, id)
 *                     where entity = 'contract', or audit_entity_idx (entity, entity_id)
 *   deal events       per deal of the customer (deals_customer_idx), audit_entity_idx (entity, entity_id)
 *   payments          payments_customer_story_idx (customer_id, paid_at): received, refunded and failed
 *   invoices issued   the customer's invoices (invoices_customer_idx), sorted by issued_at
 *   invoices paid     the customer's paid invoices, sorted by paid_at
 *
 * The last two read all of a customer's invoices (some hundreds for a large one, one a month per contract): an
 * index on (customer_id, <its time>) would make each an index-ordered top-N like the others.
 * The page's rows are picked first (ids and times only), then read with their names and details: at most
 * `limit` rows, each by primary key.
 */

export { CONTRACT_STORY_ACTIONS, DEAL_STORY_ACTIONS, STORY_ACTIONS };

export type TimelineSource = 'activity' | 'issued' | 'paid' | 'overdue' | 'payment' | 'credit_note' | 'audit';

export type TimelineRow = {
  source: TimelineSource;
  id: string;
  at: Date;
  actorName: string | null;
  contractId: string | null;
  contractTitle: string | null;
  // activities
  activityType: string | null;
  subject: string | null;
  body: string | null;
  dueAt: Date | null;
  done: boolean | null;
  dealId: string | null;
  // invoices, payments, credit notes
  invoiceId: string | null;
  invoiceNumber: string | null;
  number: string | null;
  amountCents: number | null;
  /** What an invoice still asks for (db/invoice-amounts.ts). */
  amountDueCents: number | null;
  dueDate: string | null;
  kind: string | null;
  status: string | null;
  method: string | null;
  cardBrand: string | null;
  cardLast4: string | null;
  failureMessage: string | null;
  reference: string | null;
  reason: string | null;
  toBalanceCents: number | null;
  // audit events
  action: string | null;
  entity: string | null;
  entityId: string | null;
  before: unknown;
  after: unknown;
  dealTitle: string | null;
  lineName: string | null;
  renewalTitle: string | null;
  draftTitle: string | null;
};

export type TimelineWindow = {
  customerId: string;
  /** Events before this moment (exclusive); none: up to now. */
  before: Date | null;
  /** Events at or after this moment; none: from the start. */
  from: Date | null;
  limit: number;
  /** The business's today (YYYY-MM-DD) and time zone: an open invoice is overdue from the midnight after its due date. */
  today: string;
  zone: string;
};

const literals = (values: readonly string[]) =>
  sql.raw(values.map((value) => `'${value.replace(/'/g, "''")}'`).join(', '));
const UUID = `'^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'`;
/** A text as a uuid, null when it is none (for a primary-key probe). */
const asUuid = (text: string) => sql.raw(`(case when ${text} ~ ${UUID} then (${text})::uuid end)`);
/** A snapshot's id field as a uuid. */
const idIn = (snapshot: string, field: string) => asUuid(`${snapshot} ->> '${field}'`);
const contractName = (c: string) =>
  sql.raw(`coalesce(${c}.title, left(${c}.description, 60), 'Contract #' || right(${c}.id::text, 6))`);

export async function selectTimeline(db: Db, w: TimelineWindow): Promise<TimelineRow[]> {
  const before = w.before ? sql`${w.before.toISOString()}::timestamptz` : null;
  const from = w.from ? sql`${w.from.toISOString()}::timestamptz` : null;
  /** The page's window on a branch's time. */
  const within = (at: SQL) =>
    sql`${before ? sql` and ${at} < ${before}` : sql``}${from ? sql` and ${at} >= ${from}` : sql``}`;
  const n = w.limit;
  const overdueAt = sql`((i.due_date + 1)::timestamp at time zone ${w.zone})`;
  const result = await db.execute(sql`
    with picked as (
      select u.source, u.uid, u.aid, u.at from (
        (select 'activity'::text as source, a.id as uid, null::bigint as aid, a.created_at as at
           from activities a where a.customer_id = ${w.customerId} ${within(sql`a.created_at`)}
           order by a.created_at desc limit ${n})
        union all
        (select 'issued', i.id, null, i.issued_at
           from invoices i where i.customer_id = ${w.customerId} ${within(sql`i.issued_at`)}
           order by i.issued_at desc limit ${n})
        union all
        (select 'paid', i.id, null, i.paid_at
           from invoices i
           where i.customer_id = ${w.customerId} and i.status = 'paid' ${within(sql`i.paid_at`)}
           order by i.paid_at desc limit ${n})
        union all
        (select 'overdue', i.id, null, ${overdueAt}
           from invoices i
           where i.customer_id = ${w.customerId} and i.status in ('pending', 'failed')
             and i.due_date < ${w.today}::date ${within(overdueAt)}
           order by 4 desc limit ${n})
        union all
        (select 'payment', p.id, null, p.paid_at
           from payments p where p.customer_id = ${w.customerId} ${within(sql`p.paid_at`)}
           order by p.paid_at desc limit ${n})
        union all
        (select 'credit_note', cn.id, null, cn.issued_at
           from credit_notes cn where cn.customer_id = ${w.customerId} ${within(sql`cn.issued_at`)}
           order by cn.issued_at desc limit ${n})
        union all
        (select 'audit', null, e.id, e.created_at
           from contracts k cross join lateral (
             select e.id, e.created_at from audit_events e
             where e.entity = 'contract' and e.entity_id = k.id::text
               and e.action in (${literals(STORY_ACTIONS)}) ${within(sql`e.created_at`)}
             order by e.created_at desc, e.id desc limit ${n}) e
           where k.customer_id = ${w.customerId}
           order by e.created_at desc, e.id desc limit ${n})
        union all
        (select 'audit', null, e.id, e.created_at
           from deals d cross join lateral (
             select e.id, e.created_at from audit_events e
             where e.entity = 'deal' and e.entity_id = d.id::text
               and e.action in (${literals(STORY_ACTIONS)}) ${within(sql`e.created_at`)}
             order by e.created_at desc, e.id desc limit ${n}) e
           where d.customer_id = ${w.customerId}
           order by e.created_at desc, e.id desc limit ${n})
      ) u
      order by u.at desc, u.aid desc nulls last, u.uid desc
      limit ${n}
    ),
    detailed as (
      select p.*, a.owner_id as actor_id, null::uuid as contract_id,
             jsonb_build_object('activityType', a.type, 'subject', a.subject, 'body', left(a.body, 500),
                                'dueAt', a.due_at, 'done', a.done, 'dealId', a.deal_id) as data
        from picked p join activities a on a.id = p.uid where p.source = 'activity'
      union all
      select p.*, null, i.contract_id,
             jsonb_build_object('number', i.number, 'dueDate', i.due_date, 'amountDueCents', ${sqlAmountDue('i')},
                                'amountCents', case when p.source = 'paid' then i.amount_paid_cents else i.total_cents end)
        from picked p join invoices i on i.id = p.uid where p.source in ('issued', 'paid', 'overdue')
      union all
      select p.*, pay.recorded_by, pay.contract_id,
             jsonb_build_object('invoiceId', pay.invoice_id, 'invoiceNumber', i.number, 'amountCents', pay.amount_cents,
                                'kind', pay.kind, 'status', pay.status, 'method', pay.method,
                                'cardBrand', pay.card_brand, 'cardLast4', pay.card_last4,
                                'failureMessage', pay.failure_message, 'reference', pay.reference)
        from picked p join payments pay on pay.id = p.uid join invoices i on i.id = pay.invoice_id
        where p.source = 'payment'
      union all
      select p.*, cn.created_by, cn.contract_id,
             jsonb_build_object('number', cn.number, 'invoiceId', cn.invoice_id, 'invoiceNumber', i.number,
                                'amountCents', cn.amount_cents, 'reason', cn.reason, 'toBalanceCents', cn.to_balance_cents)
        from picked p join credit_notes cn on cn.id = p.uid join invoices i on i.id = cn.invoice_id
        where p.source = 'credit_note'
      union all
      select p.*, e.actor_id, case when e.entity = 'contract' then ${asUuid('e.entity_id')} end,
             jsonb_build_object('action', e.action, 'entity', e.entity, 'entityId', e.entity_id,
                                'before', e.before, 'after', e.after,
                                'dealTitle', case when e.entity = 'deal' then
                                  (select dl.title from deals dl where dl.id = ${asUuid('e.entity_id')}) end,
                                'lineName', case when e.action like 'delivery.%' then
                                  (select pr.name from contract_line_items li join products pr on pr.id = li.product_id
                                   where li.id = ${idIn('e.after', 'lineId')}) end,
                                'renewalTitle', case when e.action = 'contract.renewed' then
                                  (select ${contractName('c')} from contracts c where c.id = ${idIn('e.after', 'renewedBy')}) end,
                                'draftTitle', case when e.action = 'deal.contract_created' then
                                  (select ${contractName('c')} from contracts c where c.id = ${idIn('e.after', 'contractId')}) end)
        from picked p join audit_events e on e.id = p.aid where p.source = 'audit'
    )
    select d.source, coalesce(d.uid::text, d.aid::text) as id, d.at, d.contract_id as "contractId",
           (select ${contractName('c')} from contracts c where c.id = d.contract_id) as "contractTitle",
           (select nullif(trim(u.first_name || ' ' || u.last_name), '') from users u where u.id = d.actor_id)
             as "actorName",
           d.data
    from detailed d
    order by d.at desc, d.aid desc nulls last, d.uid desc`);
  return rowsOf<RawRow>(result).map(toRow);
}

type RawRow = Pick<TimelineRow, 'source' | 'id' | 'contractId' | 'contractTitle' | 'actorName'> & {
  at: string | Date;
  data: string | Record<string, unknown>;
};

const EMPTY: Omit<TimelineRow, 'source' | 'id' | 'at' | 'contractId' | 'contractTitle' | 'actorName'> = {
  activityType: null,
  subject: null,
  body: null,
  dueAt: null,
  done: null,
  dealId: null,
  invoiceId: null,
  invoiceNumber: null,
  number: null,
  amountCents: null,
  amountDueCents: null,
  dueDate: null,
  kind: null,
  status: null,
  method: null,
  cardBrand: null,
  cardLast4: null,
  failureMessage: null,
  reference: null,
  reason: null,
  toBalanceCents: null,
  action: null,
  entity: null,
  entityId: null,
  before: null,
  after: null,
  dealTitle: null,
  lineName: null,
  renewalTitle: null,
  draftTitle: null,
};

function toRow(raw: RawRow): TimelineRow {
  const data = (typeof raw.data === 'string' ? JSON.parse(raw.data) : raw.data) as Record<string, unknown>;
  const number = (key: string) => (data[key] === null || data[key] === undefined ? null : Number(data[key]));
  return {
    ...EMPTY,
    ...(data as Partial<TimelineRow>),
    source: raw.source,
    id: raw.id,
    at: new Date(raw.at),
    contractId: raw.contractId,
    contractTitle: raw.contractTitle,
    actorName: raw.actorName,
    dueAt: typeof data.dueAt === 'string' ? new Date(data.dueAt) : null,
    amountCents: number('amountCents'),
    amountDueCents: number('amountDueCents'),
    toBalanceCents: number('toBalanceCents'),
  };
}

/** Whether the customer exists (its timeline is 404 otherwise). */
export async function customerExists(db: Db, customerId: string): Promise<boolean> {
  return rowsOf(await db.execute(sql`select 1 from customers where id = ${customerId}`)).length > 0;
}
