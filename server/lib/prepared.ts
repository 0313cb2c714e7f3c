import type { Db } from '../db/client';

const statements = new WeakMap<Db, Map<string, unknown>>();

/**
 * A statement built once per database (or transaction) and reused: `build` returns a Drizzle prepared
 * query (`.prepare(name)` with `sql.placeholder`s), so its SQL text is not rebuilt on every call and
 * node-postgres prepares it once per connection (docs/decisions/017-performance.md).
 */
export function prepared<T>(db: Db, name: string, build: (db: Db) => T): T {
  let byName = statements.get(db);
  if (!byName) {
    byName = new Map();
    statements.set(db, byName);
  }
  let statement = byName.get(name) as T | undefined;
  if (statement === undefined) {
    statement = build(db);
    byName.set(name, statement);
  }
  return statement;
}
