import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../lib/db-rows';
import { IDEMPOTENCY_LEASE_SECONDS, IDEMPOTENCY_WINDOW_HOURS } from './idempotency-key';

/**
 * The statements of idempotent requests (plugins/idempotency.ts, decision 040) on idempotency_keys, their one
 * table: claiming a key, reading its row, storing the response, giving the key back, and the hourly purge.
 */

/** A claimed key: the row this request owns, told apart from a later claim of the same key by its claim time. */
export type Claim = { scope: string; key: string; claimedAt: string };

export type StoredKey = {
  requestHash: string;
  state: string;
  responseStatus: number | null;
  responseType: string | null;
  responseBody: string | null;
};

const keptFor = sql`${IDEMPOTENCY_WINDOW_HOURS} * interval '1 hour'`;
const leaseFor = sql`${IDEMPOTENCY_LEASE_SECONDS} * interval '1 second'`;

/**
 * The one statement that decides who runs a request: a new key is inserted; an existing row is taken over
 * only when it is past the 24-hour window, or `running` past the lease. The claim's time (exact, as text)
 * when this request won, null when another holds the key.
 */
export async function claimKey(db: Db, scope: string, key: string, hash: string): Promise<string | null> {
  const result = await db.execute(sql`
    insert into idempotency_keys as k (scope, key, request_hash, state)
    values (${scope}, ${key}, ${hash}, 'running')
    on conflict (scope, key) do update set
      request_hash = excluded.request_hash, state = 'running', response_status = null, response_type = null,
      response_body = null, created_at = now(), completed_at = null
    where k.created_at <= now() - ${keptFor} or (k.state = 'running' and k.created_at <= now() - ${leaseFor})
    returning k.created_at::text as claimed_at`);
  return rowsOf<{ claimed_at: string }>(result)[0]?.claimed_at ?? null;
}

export async function findKey(db: Db, scope: string, key: string): Promise<StoredKey | null> {
  const result = await db.execute(sql`
    select request_hash as "requestHash", state, response_status as "responseStatus",
      response_type as "responseType", response_body as "responseBody"
    from idempotency_keys where scope = ${scope} and key = ${key}`);
  return rowsOf<StoredKey>(result)[0] ?? null;
}

/** Stores the response on the claim this request holds (not on a later one that took it over). */
export async function completeKey(
  db: Db,
  claim: Claim,
  response: { status: number; type: string | null; body: string },
): Promise<void> {
  await db.execute(sql`
    update idempotency_keys set state = 'done', response_status = ${response.status},
      response_type = ${response.type}, response_body = ${response.body}, completed_at = now()
    where scope = ${claim.scope} and key = ${claim.key} and state = 'running'
      and created_at = ${claim.claimedAt}::timestamptz`);
}

/** Gives the key back (the request failed): the next request with it runs. */
export async function releaseKey(db: Db, claim: Claim): Promise<void> {
  await db.execute(sql`
    delete from idempotency_keys
    where scope = ${claim.scope} and key = ${claim.key} and state = 'running'
      and created_at = ${claim.claimedAt}::timestamptz`);
}

/** Forgets keys past their 24-hour window (hourly, with the session purge); they count as absent already. */
export async function purgeIdempotencyKeys(db: Db): Promise<void> {
  await db.execute(sql`delete from idempotency_keys where created_at < now() - ${keptFor}`);
}
