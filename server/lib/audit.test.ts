import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestContext } from '../test/app';
import { type AuditEntry, recordAudits } from './audit';
import { rowsOf } from './db-rows';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(() => ctx.close());

describe('recordAudits', () => {
  it('writes more events than one statement may carry parameters for (12,000 events, six parameters each)', async () => {
    const entityId = randomUUID();
    const entries: AuditEntry[] = Array.from({ length: 12_000 }, (_, i) => ({
      actorId: null,
      action: 'delivery.recorded',
      entity: 'bulk-audit-test',
      entityId,
      after: { row: i },
    }));
    await recordAudits(ctx.db, entries);
    const [counted] = rowsOf<{ n: number; first: number; last: number }>(
      await ctx.db.execute(sql`
        select count(*)::int as n, min((after->>'row')::int) as first, max((after->>'row')::int) as last
        from audit_events where entity = 'bulk-audit-test' and entity_id = ${entityId}`),
    );
    expect(counted).toEqual({ n: 12_000, first: 0, last: 11_999 });
  });
});
