import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { getBusinessTimeZone } from '../../lib/business-day';

export type AuditRow = {
  id: number;
  action: string;
  entity: string;
  entityId: string;
  actorId: string | null;
  actorName: string | null;
  /** The API key the change was made with, by name. */
  apiKeyName: string | null;
  label: string | null;
  /** False when the record is gone (deleted), so the event cannot link to it. */
  recordExists: boolean;
  /**
   * The records the event names, by id: the record itself and those its snapshots link to (invoices,
   * customers, contracts, users, products, packages, credit notes, a payout's rep, a contract line's product),
   * each by its number or name as it is now.
   */
  refs: Record<string, string>;
  before: unknown;
  after: unknown;
  createdAt: Date;
};

export type AuditFilter = {
  entity?: string;
  entityId?: string;
  userId?: string;
  /** Inclusive days of the business (BUSINESS_TIMEZONE), YYYY-MM-DD. */
  from?: string;
  to?: string;
  limit: number;
  offset: number;
};

const UUID = `'^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'`;
/** a.entity_id as a uuid when it is one (a primary-key lookup), else null. */
const recordId = sql.raw(`(case when a.entity_id ~ ${UUID} then a.entity_id::uuid end)`);

/**
 * The record's name as it is now, by primary key (a scalar subquery per event, only for the entity the
 * event is about; null when the record is gone). A webhook endpoint by its URL without credentials, query or
 * fragment, as its audit snapshots keep it.
 */
const liveName = sql`case a.entity
    when 'contract' then (select coalesce(c.title, left(c.description, 60), 'Contract #' || right(c.id::text, 6))
                                 || coalesce(' · ' || cu.name, '')
                          from contracts c left join customers cu on cu.id = c.customer_id
                          where c.id = ${recordId})
    when 'customer' then (select name from customers where id = ${recordId})
    when 'invoice' then (select number from invoices where id = ${recordId})
    when 'user' then (select trim(first_name || ' ' || last_name) from users where id = ${recordId})
    when 'product' then (select name from products where id = ${recordId})
    when 'package' then (select name from packages where id = ${recordId})
    when 'deal' then (select d.title || coalesce(' · ' || cu.name, '')
                      from deals d left join customers cu on cu.id = d.customer_id where d.id = ${recordId})
    when 'activity' then (select subject from activities where id = ${recordId})
    when 'payout' then (select 'Payout · ' || trim(u.first_name || ' ' || u.last_name)
                        from payouts p join users u on u.id = p.rep_id where p.id = ${recordId})
    when 'credit_note' then (select number from credit_notes where id = ${recordId})
    when 'api_key' then (select name from api_keys where id = ${recordId})
    when 'webhook_endpoint' then (select regexp_replace(split_part(split_part(url, '?', 1), '#', 1),
                                                        '^([A-Za-z][A-Za-z0-9+.-]*://)[^/@]*@', '\\1')
                                  from webhook_endpoints where id = ${recordId})
  end`;

/**
 * The snapshot fields that name another record by its id, and the kind of record each names (audit-summary.ts
 * shows them by number or name).
 */
const LINK_KINDS: Record<string, string> = {
  invoiceId: 'invoice',
  invoiceIds: 'invoice',
  contractId: 'contract',
  renewedBy: 'contract',
  renewalOfId: 'contract',
  customerId: 'customer',
  repId: 'user',
  salesRepId: 'user',
  userId: 'user',
  createdBy: 'user',
  uploadedBy: 'user',
  recordedBy: 'user',
  productId: 'product',
  packageId: 'package',
  creditNoteId: 'credit_note',
  lineId: 'line',
};
/** (kind, id) of every link field of both snapshots: a key read each, not an expansion of the whole snapshot. */
const linkValues = sql.raw(
  Object.entries(LINK_KINDS)
    .filter(([key]) => key !== 'invoiceIds')
    .flatMap(([key, kind]) => [`('${kind}', a.before ->> '${key}')`, `('${kind}', a.after ->> '${key}')`])
    .concat([`('product', a.before -> 'line' ->> 'productId')`, `('product', a.after -> 'line' ->> 'productId')`])
    .join(', '),
);
const fullName = (u: string) => sql.raw(`nullif(trim(${u}.first_name || ' ' || ${u}.last_name), '')`);

/**
 * The names of the records an event links to, as one jsonb object { id: name } (a scalar subquery of the
 * list's one statement: one primary-key probe per linked id, of the table its field names, for the page's rows
 * only): the event's own record, the id fields of its snapshots (and of a contract line's snapshot), a checkout's
 * invoices. A record gone since is left out.
 */
const linkedNames = sql`(
    select coalesce(jsonb_object_agg(ids.id, ids.name), '{}'::jsonb)
    from (select l.id, case l.kind
            when 'invoice' then (select i.number from invoices i where i.id = l.id)
            when 'customer' then (select c.name from customers c where c.id = l.id)
            when 'contract' then (select coalesce(c.title, left(c.description, 60), 'Contract #' || right(c.id::text, 6))
                                  from contracts c where c.id = l.id)
            when 'user' then (select ${fullName('u')} from users u where u.id = l.id)
            when 'product' then (select p.name from products p where p.id = l.id)
            when 'package' then (select p.name from packages p where p.id = l.id)
            when 'credit_note' then (select cn.number from credit_notes cn where cn.id = l.id)
            when 'payout' then (select ${fullName('u')} from payouts po join users u on u.id = po.rep_id
                                where po.id = l.id)
            when 'line' then (select p.name from contract_line_items li join products p on p.id = li.product_id
                              where li.id = l.id)
          end as name
          from (select distinct k.kind, k.v::uuid as id
                from (select a.entity as kind, a.entity_id as v
                      union all select v.kind, v.id from (values ${linkValues}) v(kind, id)
                      union all select 'invoice', jsonb_array_elements_text(
                                  case when jsonb_typeof(a.after -> 'invoiceIds') = 'array'
                                       then a.after -> 'invoiceIds' else '[]'::jsonb end)
                     ) k
                where k.v ~ ${sql.raw(UUID)}) l
         ) ids
    where ids.name is not null
  )`;

/**
 * The events of `picked` (ids, in any order) with the actor's name and the record's name: the live
 * name, else the one kept in the snapshots (so deleted records stay named), else "Entity #abc123".
 */
const eventsOf = (picked: SQL) => sql`
  with picked as (${picked})
  select e.id, e.action, e.entity, e."entityId", e."actorId", e."actorName", e."apiKeyName",
         coalesce(e.live,
                  case when e.entity = 'settings' then initcap(e."entityId") || ' settings' end,
                  e.after ->> 'name', e.before ->> 'name', e.after ->> 'title', e.before ->> 'title',
                  e.after ->> 'number', e.before ->> 'number', e.after ->> 'url', e.before ->> 'url',
                  left(e.after ->> 'description', 60), left(e.before ->> 'description', 60),
                  initcap(e.entity) || ' #' || right(e."entityId", 6)) as label,
         (e.live is not null or e.entity not in ('contract', 'customer', 'invoice', 'user', 'product', 'package'))
           as "recordExists",
         e.refs, e.before, e.after, e."createdAt"
  from (select a.id, a.action, a.entity, a.entity_id as "entityId", a.actor_id as "actorId",
               (select nullif(trim(first_name || ' ' || last_name), '') from users where id = a.actor_id) as "actorName",
               (select name from api_keys where id = a.api_key_id) as "apiKeyName",
               ${liveName} as live, ${linkedNames} as refs,
               a.before, a.after, a.created_at as "createdAt"
        from picked join audit_events a on a.id = picked.id) e
  order by e."createdAt" desc, e.id desc`;

function rows<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

function toRow(
  raw: Omit<AuditRow, 'refs'> & { createdAt: Date | string; id: number | string; refs: unknown },
): AuditRow {
  const refs = typeof raw.refs === 'string' ? JSON.parse(raw.refs) : raw.refs;
  return {
    ...raw,
    id: Number(raw.id),
    createdAt: new Date(raw.createdAt),
    refs: (refs ?? {}) as Record<string, string>,
  };
}

/**
 * One page of the audit trail, newest first, and the number of matching events. Filters use
 * audit_entity_idx (entity, record), audit_actor_idx (user) and audit_created_idx (dates, order).
 */
export async function selectAuditPage(db: Db, filter: AuditFilter): Promise<{ rows: AuditRow[]; total: number }> {
  const conditions: SQL[] = [];
  if (filter.entity) conditions.push(sql`entity = ${filter.entity}`);
  if (filter.entityId) conditions.push(sql`entity_id = ${filter.entityId}`);
  if (filter.userId) conditions.push(sql`actor_id = ${filter.userId}`);
  // Days of the business (BUSINESS_TIMEZONE): from its midnight to the midnight after `to`.
  const zone = getBusinessTimeZone();
  if (filter.from) conditions.push(sql`created_at >= (${filter.from}::date)::timestamp at time zone ${zone}`);
  if (filter.to) conditions.push(sql`created_at < (${filter.to}::date + 1)::timestamp at time zone ${zone}`);
  const where = conditions.length ? sql`where ${sql.join(conditions, sql` and `)}` : sql``;
  const [page, count] = await Promise.all([
    db.execute(
      eventsOf(sql`select id from audit_events ${where}
                   order by created_at desc, id desc limit ${filter.limit} offset ${filter.offset}`),
    ),
    db.execute(sql`select count(*)::int as total from audit_events ${where}`),
  ]);
  return {
    rows: rows<Parameters<typeof toRow>[0]>(page).map(toRow),
    total: rows<{ total: number }>(count)[0].total,
  };
}

/**
 * The newest events for a report or dashboard. With repId: only what a sales rep may see, i.e. their own
 * actions and events about their contracts (two index-ordered picks, merged; a contract's events from
 * audit_contract_events_idx alone, migration 0035).
 */
export async function selectRecentActivity(db: Db, options: { repId?: string; limit: number }): Promise<AuditRow[]> {
  const { repId, limit } = options;
  const picked = repId
    ? sql`select id from (
            (select id, created_at from audit_events where actor_id = ${repId}
             order by created_at desc, id desc limit ${limit})
            union
            (select e.id, e.created_at from contracts k
               join audit_events e on e.entity = 'contract' and e.entity_id = k.id::text
             where k.sales_rep_id = ${repId}
             order by e.created_at desc, e.id desc limit ${limit})
          ) mine order by created_at desc, id desc limit ${limit}`
    : sql`select id from audit_events order by created_at desc, id desc limit ${limit}`;
  const result = await db.execute(eventsOf(picked));
  return rows<Parameters<typeof toRow>[0]>(result).map(toRow);
}
