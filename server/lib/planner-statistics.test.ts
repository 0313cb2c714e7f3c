import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { openTestDatabase } from '../test/app';
import { rowsOf } from './db-rows';
import { refreshPlannerStatistics } from './planner-statistics';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

const recorded = async (table: string) => {
  const result = await database.db.execute(
    sql`select relpages, reltuples from pg_class where oid = ${`public.${table}`}::regclass`,
  );
  const [row] = rowsOf<{ relpages: number; reltuples: number }>(result);
  return { pages: Number(row.relpages), tuples: Number(row.reltuples) };
};

describe('refreshPlannerStatistics', () => {
  it('analyzes a table filled since its last statistics, then nothing until it changes again', async () => {
    // A settled database first: whatever the template holds is analyzed once.
    await refreshPlannerStatistics(database.db);
    expect(await refreshPlannerStatistics(database.db)).toEqual([]);

    // 5,000 rows of about 120 bytes: some 80 pages that the planner does not know of.
    await database.db.execute(sql`
      insert into app_settings (key, value)
      select 'bench-' || n, jsonb_build_object('filler', repeat('x', 100)) from generate_series(1, 5000) n`);
    expect((await recorded('app_settings')).tuples).toBeLessThan(100);

    expect(await refreshPlannerStatistics(database.db)).toEqual(['app_settings']);
    const after = await recorded('app_settings');
    expect(after.tuples).toBeGreaterThanOrEqual(4_900);
    expect(after.tuples).toBeLessThanOrEqual(5_100);
    expect(after.pages).toBeGreaterThan(50);

    // A few more rows do not move the size by 10%: no ANALYZE.
    await database.db.execute(sql`insert into app_settings (key, value) values ('bench-extra', '{}'::jsonb)`);
    expect(await refreshPlannerStatistics(database.db)).toEqual([]);
  });
});
