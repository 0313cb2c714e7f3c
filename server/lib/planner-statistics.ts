import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from './db-rows';

/**
 * The planner's statistics on the embedded database. PostgreSQL's autovacuum analyzes a table once enough of it
 * changed; PGlite runs no background workers, so a table filled after it was created (the invoices the billing
 * run issues, contracts imported or created since) keeps the statistics of its empty self, and the planner
 * reads thousands of rows where an index finds fifty: the contract list's preview of first invoices scanned
 * every invoice and every contract (docs/performance.md, "The embedded database").
 *
 * PGlite keeps no change counters across restarts either, so a table counts as changed by its size: ANALYZE the
 * tables of the product's schema whose size in pages moved by more than 10% (and 8 pages) from what the last
 * ANALYZE recorded, or that were never analyzed and hold data. Returns the tables analyzed.
 */
export async function refreshPlannerStatistics(db: Db): Promise<string[]> {
  const result = await db.execute(sql`
    select c.relname as name
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind = 'r'
      and abs(pg_relation_size(c.oid) / current_setting('block_size')::int - greatest(c.relpages, 0))
        > 8 + greatest(c.relpages, 0) / 10
    order by c.relname`);
  const names = rowsOf<{ name: string }>(result).map((row) => row.name);
  // One table per statement, so that requests waiting for PGlite's one connection get their turn in between.
  for (const name of names) await db.execute(sql`analyze ${sql.identifier(name)}`);
  return names;
}
