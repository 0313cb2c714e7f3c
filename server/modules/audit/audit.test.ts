import type { AuditEvent } from '@shared/contracts/audit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../../db/schema';
import { recordAudit } from '../../lib/audit';
import { buildTestApp, type TestContext } from '../../test/app';
import { createTestUser } from '../../test/factories';
import { diffSnapshots } from './audit.service';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(() => ctx.close());

async function audit(who: Parameters<TestContext['injectAs']>[0], query: string) {
  const response = await ctx.injectAs(who, { method: 'GET', url: `/api/audit${query}` });
  return { status: response.statusCode, total: Number(response.headers['x-total-count']), body: response.json() };
}

describe('GET /api/audit', () => {
  it('shows who changed what, field by field, naming and linking the record', async () => {
    const admin = await ctx.signIn(
      await createTestUser(ctx.db, { role: 'admin', firstName: 'Ada', lastName: 'Admin' }),
    );
    const created = await ctx.injectAs(admin, {
      method: 'POST',
      url: '/api/customers',
      payload: { name: 'Harbor Lights', email: 'harbor@example.test', city: 'Austin' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id;
    await ctx.injectAs(admin, {
      method: 'PATCH',
      url: `/api/customers/${id}`,
      payload: { city: 'Denver', phone: '555-0100' },
    });

    const page = await audit('admin', `?entity=customer&entityId=${id}`);
    expect(page.status).toBe(200);
    expect(page.total).toBe(2);
    const [updated, create] = page.body as AuditEvent[];
    expect(updated).toMatchObject({
      action: 'customer.updated',
      entity: 'customer',
      entityId: id,
      actorId: admin.id,
      actorName: 'Ada Admin',
      label: 'Harbor Lights',
      link: `/customers/${id}`,
    });
    // Only the fields that changed, with both values.
    expect(updated.changes).toEqual(
      expect.arrayContaining([
        { field: 'city', before: 'Austin', after: 'Denver' },
        { field: 'phone', before: null, after: '555-0100' },
      ]),
    );
    expect(updated.changes.map((c) => c.field).sort()).toEqual(
      updated.changes
        .map((c) => c.field)
        .filter((f) => ['city', 'phone', 'updatedAt'].includes(f))
        .sort(),
    );
    // A creation shows every field as new.
    expect(create.action).toBe('customer.created');
    expect(create.changes).toEqual(expect.arrayContaining([{ field: 'name', before: null, after: 'Harbor Lights' }]));
    expect(create.changes.every((c) => c.before === null)).toBe(true);

    // Deleted: still named from its snapshot, no longer linked.
    await ctx.injectAs(admin, { method: 'DELETE', url: `/api/customers/${id}` });
    const [deleted] = (await audit('admin', `?entity=customer&entityId=${id}`)).body as AuditEvent[];
    expect(deleted).toMatchObject({ action: 'customer.deleted', label: 'Harbor Lights', link: null });
    expect(deleted.changes.every((c) => c.after === null)).toBe(true);
  });

  it('never shows a secret kept in a snapshot', async () => {
    const user = await createTestUser(ctx.db, { role: 'sales' });
    await recordAudit(ctx.db, {
      actorId: null,
      action: 'user.updated',
      entity: 'user',
      entityId: user.id,
      before: { firstName: 'A', resetToken: 'abc123', nested: { apiSecret: 's1' } },
      after: { firstName: 'B', resetToken: 'def456', nested: { apiSecret: 's2' } },
    });
    const [event] = (await audit('admin', `?entity=user&entityId=${user.id}`)).body as AuditEvent[];
    expect(event.changes).toEqual([{ field: 'firstName', before: 'A', after: 'B' }]);
    expect(JSON.stringify(event)).not.toMatch(/abc123|def456|s1|s2/);
    expect(event.label).toBe(`${user.firstName} ${user.lastName}`);
    expect(event.link).toBe('/users');
  });

  it('filters by user and by date (inclusive days, UTC) and pages with X-Total-Count', async () => {
    const actor = await createTestUser(ctx.db, { role: 'finance' });
    const days = ['2024-03-01T00:00:00Z', '2024-03-01T23:59:59Z', '2024-03-02T12:00:00Z', '2024-03-04T08:00:00Z'];
    await ctx.db.insert(auditEvents).values(
      days.map((at, i) => ({
        actorId: actor.id,
        action: 'settings.updated',
        entity: 'settings',
        entityId: 'tax',
        before: { defaultTaxRate: i },
        after: { defaultTaxRate: i + 1 },
        createdAt: new Date(at),
      })),
    );
    const byUser = await audit('admin', `?userId=${actor.id}`);
    expect(byUser.total).toBe(4);
    expect((byUser.body as AuditEvent[]).map((e) => e.createdAt)).toEqual(
      [...days].reverse().map((d) => new Date(d).toISOString()),
    );
    expect((byUser.body as AuditEvent[])[0]).toMatchObject({ label: 'Tax settings', link: '/settings' });
    expect((byUser.body as AuditEvent[])[0].changes).toEqual([{ field: 'defaultTaxRate', before: 3, after: 4 }]);

    const firstDay = await audit('admin', `?userId=${actor.id}&from=2024-03-01&to=2024-03-01`);
    expect(firstDay.total).toBe(2);
    const span = await audit('admin', `?userId=${actor.id}&from=2024-03-02&to=2024-03-04`);
    expect(span.total).toBe(2);
    const paged = await audit('admin', `?userId=${actor.id}&limit=1&offset=1`);
    expect(paged.total).toBe(4);
    expect((paged.body as AuditEvent[]).map((e) => e.createdAt)).toEqual([new Date(days[2]).toISOString()]);
  });

  it('refuses bad filters with 400 and every role below admin-level with 403', async () => {
    expect((await audit('admin', '?from=2024-03-05&to=2024-03-01')).status).toBe(400);
    expect((await audit('admin', '?from=2024-02-30')).status).toBe(400);
    expect((await audit('admin', '?userId=someone')).status).toBe(400);
    for (const role of ['sales_manager', 'sales', 'finance', 'client'] as const) {
      expect((await audit(role, '')).status).toBe(403);
    }
    expect((await audit('super_admin', '')).status).toBe(200);
  });
});

describe('diffSnapshots', () => {
  it('lists changed paths only, nested objects as dotted paths, arrays as whole values', () => {
    expect(
      diffSnapshots(
        { status: 'draft', figures: { total: 100, tax: 5 }, lines: [1, 2], same: 'x' },
        { status: 'active', figures: { total: 100, tax: 7 }, lines: [1, 2, 3], same: 'x', added: true },
      ),
    ).toEqual([
      { field: 'status', before: 'draft', after: 'active' },
      { field: 'figures.tax', before: 5, after: 7 },
      { field: 'lines', before: [1, 2], after: [1, 2, 3] },
      { field: 'added', before: null, after: true },
    ]);
    expect(diffSnapshots(null, null)).toEqual([]);
    expect(diffSnapshots({ passwordHash: 'a' }, { passwordHash: 'b' })).toEqual([]);
  });
});
