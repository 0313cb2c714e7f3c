import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../lib/db-rows';

/**
 * The statements of the request limits (plugins/rate-limit.ts) on rate_limit_hits, their one table: a key's
 * hits in its fixed window, counted or read, and the hourly purge. The database's clock is the only one used,
 * so instances whose clocks differ still agree.
 */

/** The hits counted in a key's current window, and the milliseconds until it ends. */
export type Hits = { current: number; ttl: number };

type HitsRow = { hits: number; ttl: string | number };

const toHits = (row: HitsRow): Hits => ({
  current: Number(row.hits),
  ttl: Number(row.ttl),
});

const windowOf = (windowMs: number) => sql`${windowMs} * interval '1 millisecond'`;

/** Counts one hit of `key` in its window of `windowMs` (one conditional upsert): a window that has run out starts again at 1. */
export async function countHit(db: Db, key: string, windowMs: number): Promise<Hits> {
  const window = windowOf(windowMs);
  const result = await db.execute(sql`
    insert into rate_limit_hits as r (key, window_start, hits)
    values (${key}, now(), 1)
    on conflict (key) do update set
      hits = case when r.window_start + ${window} <= now() then 1 else r.hits + 1 end,
      window_start = case when r.window_start + ${window} <= now() then now() else r.window_start end
    returning r.hits,
      greatest(0, ceil(extract(epoch from (r.window_start + ${window} - now())) * 1000))::bigint as ttl`);
  return toHits(rowsOf<HitsRow>(result)[0]!);
}

/** The hits of `key` in its current window of `windowMs`, without counting; null when it has none. */
export async function readHits(db: Db, key: string, windowMs: number): Promise<Hits | null> {
  const window = windowOf(windowMs);
  const result = await db.execute(sql`
    select r.hits, greatest(0, ceil(extract(epoch from (r.window_start + ${window} - now())) * 1000))::bigint as ttl
    from rate_limit_hits r
    where r.key = ${key} and r.window_start + ${window} > now()`);
  const row = rowsOf<HitsRow>(result)[0];
  return row ? toHits(row) : null;
}

/** Forgets windows that ended more than a day ago (hourly, with the session purge). */
export async function purgeRateLimitHits(db: Db): Promise<void> {
  await db.execute(sql`delete from rate_limit_hits where window_start < now() - interval '1 day'`);
}
