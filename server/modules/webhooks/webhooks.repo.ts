import type {
  WebhookDeliveryStatus,
  WebhookDeliveryView,
  WebhookEndpointView,
  WebhookEventType,
} from '@shared/contracts/webhooks-vocabulary';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { webhookDeliveries, webhookEndpoints } from '../../db/schema';
import { rowsOf } from '../../lib/db-rows';

export type EndpointRow = typeof webhookEndpoints.$inferSelect;

type ViewRow = {
  id: string;
  url: string;
  description: string | null;
  events: WebhookEventType[];
  enabled: boolean;
  disabled_reason: string | null;
  disabled_at: Date | string | null;
  failing_since: Date | string | null;
  previous_secret_expires_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
  creator_id: string | null;
  creator_name: string | null;
  last_at: Date | string | null;
  last_status: WebhookDeliveryStatus | null;
  last_http_status: number | null;
  total?: string | number;
};

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

const toView = (row: ViewRow): WebhookEndpointView => ({
  id: row.id,
  url: row.url,
  description: row.description,
  events: row.events,
  enabled: row.enabled,
  disabledReason: row.disabled_reason,
  disabledAt: iso(row.disabled_at),
  failingSince: iso(row.failing_since),
  previousSecretExpiresAt: iso(row.previous_secret_expires_at),
  createdAt: iso(row.created_at)!,
  createdBy: row.creator_id ? { id: row.creator_id, name: row.creator_name ?? '' } : null,
  updatedAt: iso(row.updated_at)!,
  lastDelivery: row.last_at
    ? { at: iso(row.last_at)!, status: row.last_status!, httpStatus: row.last_http_status }
    : null,
});

/** An endpoint as listed, with its maker and its latest delivery (the newest row of its log). */
const viewQuery = (where: SQL, page?: { limit: number; offset: number }) => sql`
  select e.id, e.url, e.description, e.events, e.enabled, e.disabled_reason, e.disabled_at, e.failing_since,
         case when e.previous_secret_expires_at > now() then e.previous_secret_expires_at end as previous_secret_expires_at,
         e.created_at, e.updated_at, u.id as creator_id, trim(u.first_name || ' ' || u.last_name) as creator_name,
         coalesce(last.last_attempt_at, last.created_at) as last_at, last.status as last_status,
         last.last_status_code as last_http_status
         ${page ? sql`, count(*) over () as total` : sql``}
  from webhook_endpoints e
  left join users u on u.id = e.created_by
  left join lateral (
    select d.created_at, d.last_attempt_at, d.status, d.last_status_code from webhook_deliveries d
    where d.endpoint_id = e.id order by d.created_at desc, d.id desc limit 1
  ) last on true
  where ${where}
  order by e.created_at desc, e.id desc
  ${page ? sql`limit ${page.limit} offset ${page.offset}` : sql``}`;

/** Endpoints newest first, a page at a time, with the count in the same statement. */
export async function listEndpoints(db: Db, page: { limit: number; offset: number }) {
  const rows = rowsOf<ViewRow>(await db.execute(viewQuery(sql`true`, page)));
  return { rows: rows.map(toView), total: Number(rows[0]?.total ?? 0) };
}

export async function findEndpointView(db: Db, id: string): Promise<WebhookEndpointView | null> {
  const [row] = rowsOf<ViewRow>(await db.execute(viewQuery(sql`e.id = ${id}`)));
  return row ? toView(row) : null;
}

export async function findEndpointRow(db: Db, id: string): Promise<EndpointRow | null> {
  const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)).limit(1);
  return row ?? null;
}

export type NewEndpoint = {
  url: string;
  description: string | null;
  events: WebhookEventType[];
  secret: string;
  createdBy: string;
};

export async function insertEndpoint(db: Db, endpoint: NewEndpoint): Promise<string> {
  const [row] = await db.insert(webhookEndpoints).values(endpoint).returning({ id: webhookEndpoints.id });
  return row!.id;
}

export type EndpointChange = {
  url?: string;
  description?: string | null;
  events?: WebhookEventType[];
  enabled?: boolean;
};

/**
 * ONE conditional UPDATE of an endpoint. Turning it off records when and why; turning it on clears that and
 * its run of failures (it starts afresh). Undefined when unknown.
 */
export async function updateEndpointRow(
  db: Db,
  id: string,
  change: EndpointChange,
  disabledReason: string,
): Promise<EndpointRow | undefined> {
  const toggled =
    change.enabled === undefined
      ? {}
      : change.enabled
        ? {
            enabled: true,
            disabledReason: sql`case when ${webhookEndpoints.enabled} then ${webhookEndpoints.disabledReason} end`,
            disabledAt: sql`case when ${webhookEndpoints.enabled} then ${webhookEndpoints.disabledAt} end`,
            failingSince: sql`case when ${webhookEndpoints.enabled} then ${webhookEndpoints.failingSince} end`,
          }
        : {
            enabled: false,
            disabledReason: sql`case when ${webhookEndpoints.enabled} then ${disabledReason} else ${webhookEndpoints.disabledReason} end`,
            disabledAt: sql`case when ${webhookEndpoints.enabled} then now() else ${webhookEndpoints.disabledAt} end`,
          };
  const [row] = await db
    .update(webhookEndpoints)
    .set({
      ...(change.url !== undefined ? { url: change.url } : {}),
      ...(change.description !== undefined ? { description: change.description } : {}),
      ...(change.events !== undefined ? { events: change.events } : {}),
      ...toggled,
      updatedAt: sql`now()`,
    })
    .where(eq(webhookEndpoints.id, id))
    .returning();
  return row;
}

export async function deleteEndpointRow(db: Db, id: string): Promise<EndpointRow | undefined> {
  const [row] = await db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id)).returning();
  return row;
}

/**
 * A new secret: the current one becomes the previous one, which keeps signing until `hours` from now. One
 * UPDATE whose row count decides (undefined: unknown endpoint).
 */
export async function rotateSecretRow(
  db: Db,
  id: string,
  secret: string,
  hours: number,
): Promise<EndpointRow | undefined> {
  const [row] = await db
    .update(webhookEndpoints)
    .set({
      previousSecret: sql`${webhookEndpoints.secret}`,
      previousSecretExpiresAt: sql`now() + make_interval(hours => ${hours})`,
      secret,
      updatedAt: sql`now()`,
    })
    .where(eq(webhookEndpoints.id, id))
    .returning();
  return row;
}

/**
 * Disables an enabled endpoint (one conditional UPDATE: the row count says whether this call did it), when
 * `onlyIf` holds too (the run of failures is long enough). Its pending deliveries fail in the same statement.
 */
export async function disableEndpointRow(
  db: Db,
  id: string,
  reason: string,
  at: Date,
  onlyIf?: SQL,
): Promise<EndpointRow | undefined> {
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`
      with disabled as (
        update webhook_endpoints set enabled = false, disabled_reason = ${reason}, disabled_at = ${at.toISOString()}::timestamptz,
               updated_at = now()
        where id = ${id} and enabled ${onlyIf ? sql`and ${onlyIf}` : sql``}
        returning id
      ),
      stopped as (
        update webhook_deliveries d set status = 'failed', next_attempt_at = null, lease_token = null,
               last_error = coalesce(d.last_error, 'Endpoint disabled')
        from disabled where d.endpoint_id = disabled.id and d.status = 'pending'
        returning d.id
      )
      select id from disabled`),
  );
  if (rows.length === 0) return undefined;
  return (await findEndpointRow(db, id)) ?? undefined;
}

/** The pending deliveries of an endpoint turned off by an admin stop (failed: "Endpoint disabled"). */
export async function stopPendingDeliveries(db: Db, endpointId: string): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({
      status: 'failed',
      nextAttemptAt: null,
      leaseToken: null,
      lastError: sql`coalesce(${webhookDeliveries.lastError}, 'Endpoint disabled')`,
    })
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, 'pending')));
}

// ---------------------------------------------------------------------------------------------------------
// The delivery log
// ---------------------------------------------------------------------------------------------------------

type DeliveryRow = {
  id: string;
  event_id: string;
  event_type: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  last_status_code: number | null;
  last_duration_ms: number | null;
  last_error: string | null;
  last_attempt_at: Date | string | null;
  next_attempt_at: Date | string | null;
  created_at: Date | string;
  total?: string | number;
};

const toDeliveryView = (row: DeliveryRow): WebhookDeliveryView => ({
  id: row.id,
  eventId: row.event_id,
  eventType: row.event_type,
  status: row.status,
  attempts: Number(row.attempts),
  httpStatus: row.last_status_code,
  durationMs: row.last_duration_ms,
  error: row.last_error,
  lastAttemptAt: iso(row.last_attempt_at),
  nextAttemptAt: iso(row.next_attempt_at),
  createdAt: iso(row.created_at)!,
});

const deliveryQuery = (where: SQL, page?: { limit: number; offset: number }) => sql`
  select d.id, d.event_id, ev.type as event_type, d.status, d.attempts, d.last_status_code, d.last_duration_ms,
         d.last_error, d.last_attempt_at, d.next_attempt_at, d.created_at
         ${page ? sql`, count(*) over () as total` : sql``}
  from webhook_deliveries d
  join webhook_events ev on ev.id = d.event_id
  where ${where}
  order by d.created_at desc, d.id desc
  ${page ? sql`limit ${page.limit} offset ${page.offset}` : sql``}`;

/** An endpoint's deliveries, newest first, a page at a time (on webhook_deliveries_endpoint_idx). */
export async function listDeliveries(db: Db, endpointId: string, page: { limit: number; offset: number }) {
  const rows = rowsOf<DeliveryRow>(await db.execute(deliveryQuery(sql`d.endpoint_id = ${endpointId}`, page)));
  return { rows: rows.map(toDeliveryView), total: Number(rows[0]?.total ?? 0) };
}

export async function findDelivery(db: Db, endpointId: string, deliveryId: string) {
  const [row] = rowsOf<DeliveryRow>(
    await db.execute(deliveryQuery(sql`d.id = ${deliveryId} and d.endpoint_id = ${endpointId}`)),
  );
  return row ? toDeliveryView(row) : null;
}

/** A new event id: `msg_` and 32 hex digits of a random UUID, reused by every attempt of every delivery. */
const NEW_EVENT_ID = sql`'msg_' || replace(gen_random_uuid()::text, '-', '')`;

/** The rows an event is raised for: a resource's table (alias `r`), the filters that pick them, and the event's data read from each. */
export type EventSource = { table: string; data: SQL; filters: SQL[]; join?: SQL };

/**
 * The outbox's one statement (webhook-events.ts, emitWebhookEvent; decision 042): ONE INSERT ... SELECT that
 * writes an event of `type` for each row `source` picks and a pending delivery, due now, to every enabled
 * endpoint subscribed to the type. Without `once`, a row no endpoint subscribes to gets no event; with it, the
 * event is written anyway under its key (type and resource id, unique), and a row that already has one gets
 * none. Answers how many events were written.
 */
export async function insertEventsAndDeliveries(
  tx: Db,
  type: string,
  source: EventSource,
  options: { once: boolean },
): Promise<number> {
  const filters = [...source.filters];
  const key = sql`${type}::text || ':' || r.id::text`;
  if (options.once) {
    filters.push(sql`not exists (select 1 from webhook_events w where w.dedupe_key = ${key})`);
  }
  const subscribed = sql`exists (
    select 1 from webhook_endpoints e where e.enabled and ${type}::text = any(e.events))`;
  const result = await tx.execute(sql`
    with written as (
      insert into webhook_events (id, type, data, dedupe_key)
      select ${NEW_EVENT_ID}, ${type}::text, ${source.data}, ${options.once ? key : sql`null`}
      from ${sql.raw(source.table)} r ${source.join ?? sql``}
      where ${sql.join(filters, sql` and `)} ${options.once ? sql`` : sql`and ${subscribed}`}
      on conflict (dedupe_key) do nothing
      returning id
    ),
    fanned as (
      insert into webhook_deliveries (endpoint_id, event_id, next_attempt_at)
      select e.id, w.id, now()
      from written w
      join webhook_endpoints e on e.enabled and ${type}::text = any(e.events)
      returning id
    )
    select (select count(*) from written) as events, (select count(*) from fanned) as deliveries`);
  return Number(rowsOf<{ events: string | number }>(result)[0]?.events ?? 0);
}

/** A new delivery of a delivery's event to the same endpoint, due now (a resend: same event, same webhook-id). */
export async function insertResend(db: Db, endpointId: string, deliveryId: string): Promise<string | null> {
  const [row] = rowsOf<{ id: string }>(
    await db.execute(sql`
      insert into webhook_deliveries (endpoint_id, event_id, next_attempt_at)
      select d.endpoint_id, d.event_id, now() from webhook_deliveries d
      where d.id = ${deliveryId} and d.endpoint_id = ${endpointId}
      returning id`),
  );
  return row?.id ?? null;
}

/** A test event and its one delivery, to this endpoint only, due now. */
export async function insertTestEvent(db: Db, endpointId: string, type: string, data: object): Promise<string> {
  const [row] = rowsOf<{ id: string }>(
    await db.execute(sql`
      with event as (
        insert into webhook_events (id, type, data)
        values (${NEW_EVENT_ID}, ${type}, ${JSON.stringify(data)}::jsonb)
        returning id
      )
      insert into webhook_deliveries (endpoint_id, event_id, next_attempt_at)
      select ${endpointId}, event.id, now() from event
      returning id`),
  );
  return row!.id;
}

// ---------------------------------------------------------------------------------------------------------
// The worker's statements
// ---------------------------------------------------------------------------------------------------------

/** A delivery claimed for one attempt, with what its request needs. */
export type ClaimedDelivery = {
  id: string;
  leaseToken: string;
  attempts: number;
  endpointId: string;
  url: string;
  secret: string;
  /** The previous secret while its 24 hours run (at the attempt's time). */
  previousSecret: string | null;
  eventId: string;
  eventType: string;
  eventCreatedAt: string;
  data: unknown;
};

/**
 * Claims up to `limit` due deliveries of enabled endpoints for this worker: FOR UPDATE SKIP LOCKED, so workers
 * on several instances never take the same row at once, and a lease (next_attempt_at moves to its end, a new
 * lease_token names the claim): a delivery whose worker died is due again when the lease ends.
 */
export async function claimDueDeliveries(
  db: Db,
  options: { now?: Date; leaseSeconds: number; limit: number },
): Promise<ClaimedDelivery[]> {
  // Deliveries are queued at the database's now(), to the microsecond; a clock read here in milliseconds could
  // fall before a delivery committed in the same millisecond. Without a test clock, the database's clock decides.
  const now = options.now ? sql`${options.now.toISOString()}::timestamptz` : sql`now()`;
  const rows = rowsOf<{
    id: string;
    lease_token: string;
    attempts: number;
    endpoint_id: string;
    url: string;
    secret: string;
    previous_secret: string | null;
    event_id: string;
    event_type: string;
    event_created_at: string;
    data: unknown;
  }>(
    await db.execute(sql`
      with due as (
        select d.id from webhook_deliveries d
        join webhook_endpoints e on e.id = d.endpoint_id and e.enabled
        where d.status = 'pending' and d.next_attempt_at <= ${now}
        order by d.next_attempt_at
        limit ${options.limit}
        for update of d skip locked
      )
      update webhook_deliveries d
      set next_attempt_at = ${now} + make_interval(secs => ${options.leaseSeconds}),
          lease_token = gen_random_uuid()
      from due, webhook_endpoints e, webhook_events ev
      where d.id = due.id and e.id = d.endpoint_id and ev.id = d.event_id
      returning d.id, d.lease_token, d.attempts, d.endpoint_id, e.url, e.secret,
                case when e.previous_secret_expires_at > ${now} then e.previous_secret end as previous_secret,
                d.event_id, ev.type as event_type,
                to_char(ev.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as event_created_at, ev.data`),
  );
  return rows.map((r) => ({
    id: r.id,
    leaseToken: r.lease_token,
    attempts: Number(r.attempts),
    endpointId: r.endpoint_id,
    url: r.url,
    secret: r.secret,
    previousSecret: r.previous_secret,
    eventId: r.event_id,
    eventType: r.event_type,
    eventCreatedAt: r.event_created_at,
    data: typeof r.data === 'string' ? JSON.parse(r.data) : r.data,
  }));
}

export type AttemptResult = {
  at: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** pending: retried at nextAttemptAt; succeeded or failed: done. */
  status: WebhookDeliveryStatus;
  nextAttemptAt: Date | null;
};

/**
 * Records an attempt on a claimed delivery: ONE UPDATE that matches only while the claim is this worker's
 * (its lease token, still pending), then the endpoint's run of failures (a success ends it, a failure starts
 * it if none is running). Answers whether the claim was still this worker's.
 */
export async function recordAttempt(db: Db, claim: ClaimedDelivery, result: AttemptResult): Promise<boolean> {
  const at = result.at.toISOString();
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`
      with marked as (
        update webhook_deliveries
        set status = ${result.status}, attempts = attempts + 1,
            next_attempt_at = ${result.nextAttemptAt?.toISOString() ?? null}::timestamptz,
            lease_token = null, last_attempt_at = ${at}::timestamptz, last_status_code = ${result.statusCode},
            last_duration_ms = ${result.durationMs}, last_error = ${result.error},
            succeeded_at = ${result.status === 'succeeded' ? at : null}::timestamptz
        where id = ${claim.id} and lease_token = ${claim.leaseToken} and status = 'pending'
        returning id
      ),
      endpoint as (
        update webhook_endpoints
        set failing_since = ${result.status === 'succeeded' ? sql`null` : sql`coalesce(failing_since, ${at}::timestamptz)`}
        where id = ${claim.endpointId}
          and ${result.status === 'succeeded' ? sql`failing_since is not null` : sql`failing_since is null`}
          and exists (select 1 from marked)
        returning id
      )
      select id from marked`),
  );
  return rows.length === 1;
}

/** Gives a claimed delivery back unsent (its worker is stopping): due again at once. */
export async function releaseClaim(db: Db, claim: ClaimedDelivery, at: Date): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({ nextAttemptAt: at, leaseToken: null })
    .where(
      and(
        eq(webhookDeliveries.id, claim.id),
        eq(webhookDeliveries.leaseToken, claim.leaseToken),
        eq(webhookDeliveries.status, 'pending'),
      ),
    );
}

/** The condition of an endpoint failing since at least `days` before `at`. */
export const failingFor = (days: number, at: Date): SQL =>
  sql`failing_since is not null and failing_since <= ${at.toISOString()}::timestamptz - make_interval(days => ${days})`;

/**
 * Deliveries finished (succeeded or failed) made before `before`, then the events left with no delivery and no
 * once-only key (a once-only event's key is what keeps it once).
 */
export async function purgeDeliveries(db: Db, before: Date): Promise<number> {
  const cutoff = before.toISOString();
  const [row] = rowsOf<{ deliveries: string | number }>(
    await db.execute(sql`
      with gone as (
        delete from webhook_deliveries
        where status <> 'pending' and created_at < ${cutoff}::timestamptz
        returning id
      )
      select count(*) as deliveries from gone`),
  );
  await db.execute(sql`
    delete from webhook_events ev
    where ev.dedupe_key is null and ev.created_at < ${cutoff}::timestamptz
      and not exists (select 1 from webhook_deliveries d where d.event_id = ev.id)`);
  return Number(row?.deliveries ?? 0);
}
