import type { AuditEvent } from '@shared/contracts/audit';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, invoices } from '../../db/schema';
import { recordAudit } from '../../lib/audit';
import { buildTestApp, type TestContext } from '../../test/app';
import { createBillableContract, setTaxSettings } from '../../test/billing-factories';
import { createTestCustomer } from '../../test/catalog-factories';
import { createTestUser } from '../../test/factories';
import { runBilling } from '../billing/billing-run';
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
        { field: 'city', before: 'Austin', after: 'Denver', label: 'City', beforeText: 'Austin', afterText: 'Denver' },
        { field: 'phone', before: null, after: '555-0100', label: 'Phone', beforeText: '—', afterText: '555-0100' },
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
    expect(updated.summary).toBe('Customer "Harbor Lights" updated: City, Phone');
    expect(create.summary).toBe('Customer "Harbor Lights" created');
    expect(create.changes).toEqual(
      expect.arrayContaining([
        {
          field: 'name',
          before: null,
          after: 'Harbor Lights',
          label: 'Name',
          beforeText: '—',
          afterText: 'Harbor Lights',
        },
      ]),
    );
    expect(create.changes.every((c) => c.before === null)).toBe(true);

    // Deleted: still named from its snapshot, no longer linked.
    await ctx.injectAs(admin, { method: 'DELETE', url: `/api/customers/${id}` });
    const [deleted] = (await audit('admin', `?entity=customer&entityId=${id}`)).body as AuditEvent[];
    expect(deleted).toMatchObject({
      action: 'customer.deleted',
      label: 'Harbor Lights',
      link: null,
      summary: 'Customer "Harbor Lights" deleted',
    });
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
    expect(event.changes).toEqual([
      { field: 'firstName', before: 'A', after: 'B', label: 'First name', beforeText: 'A', afterText: 'B' },
    ]);
    expect(event.summary).toBe('User "B" updated: First name');
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
    expect((byUser.body as AuditEvent[])[0].changes).toEqual([
      { field: 'defaultTaxRate', before: 3, after: 4, label: 'Default tax rate', beforeText: '3', afterText: '4' },
    ]);
    expect((byUser.body as AuditEvent[])[0].summary).toBe('Tax settings updated: Default tax rate');

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

describe('GET /api/audit in words', () => {
  it('says what happened in a sentence, field labels and dollars beside it, records by number or name', async () => {
    await setTaxSettings(ctx.db, { defaultTaxRate: 0, taxIncluded: false, taxLabel: 'Tax' });
    const rep = await ctx.signIn(
      await createTestUser(ctx.db, { role: 'sales', firstName: 'Jordan', lastName: 'Words', commissionRateBp: 1000 }),
    );
    const finance = await ctx.signIn(
      await createTestUser(ctx.db, { role: 'finance', firstName: 'Casey', lastName: 'Words' }),
    );
    const customer = await createTestCustomer(ctx.db, { name: 'Bella Notte Trattoria' });
    // The billing run issues the invoice (its audit event is written by SQL), finance records a check, the
    // rep's commission is earned, the rep asks for $500.00 and finance approves $400.00, an admin makes a key.
    const { contract } = await createBillableContract(ctx.db, {
      startDate: '2030-01-01',
      termMonths: 1,
      customerId: customer.id,
      salesRepId: rep.id,
      title: 'Spring Campaign',
      lines: [{ unitPriceCents: 500_000 }],
    });
    await runBilling(ctx.db, { contractId: contract.id, asOf: '2030-01-01', baseUrl: 'https://crm.example.test' });
    const [invoice] = await ctx.db.select().from(invoices).where(eq(invoices.contractId, contract.id));
    const post = async (who: typeof rep, url: string, payload: Record<string, unknown>) => {
      const response = await ctx.injectAs(who, { method: 'POST', url, payload });
      expect(response.statusCode, `${url}: ${response.body}`).toBeLessThan(300);
      return response.json();
    };
    await post(finance, `/api/invoices/${invoice.id}/payments`, {
      amount: '5000.00',
      method: 'check',
      reference: 'chk 77',
    });
    const payout = await post(rep, '/api/payouts/request', { requestedAmount: 500 });
    await post(finance, `/api/payouts/${payout.id}/approve`, { approvedAmount: 400 });
    await post(await ctx.as('admin'), '/api/api-keys', { name: 'Ad server', scope: 'delivery' });

    const page = await audit('admin', '?limit=100');
    expect(page.status).toBe(200);
    const events = page.body as AuditEvent[];
    const of = (action: string) => events.find((e) => e.action === action)!;
    const number = invoice.number;
    expect(
      [
        'invoice.issued',
        'payment.recorded',
        'invoice.paid',
        'commission.earned',
        'payout.requested',
        'payout.approved',
        'api_key.created',
      ].map((action) => [action, of(action)?.summary]),
    ).toEqual([
      ['invoice.issued', `Invoice ${number} issued: $5,000.00`],
      ['payment.recorded', `Payment of $5,000.00 by check recorded on invoice ${number}`],
      ['invoice.paid', `Invoice ${number} paid in full: $5,000.00`],
      ['commission.earned', `Commission earned: $500.00 (10%) for Jordan Words on invoice ${number}`],
      ['payout.requested', 'Payout requested: $500.00 of $500.00 available'],
      ['payout.approved', 'Payout approved: $400.00 of $500.00 requested'],
      ['api_key.created', 'API key "Ad server" created'],
    ]);
    // The structured changes stay, each with its label and its values as shown.
    const approved = of('payout.approved');
    expect(approved.changes).toEqual(
      expect.arrayContaining([
        {
          field: 'approvedCents',
          before: null,
          after: 40_000,
          label: 'Approved',
          beforeText: '—',
          afterText: '$400.00',
        },
        {
          field: 'requestedCents',
          before: null,
          after: 50_000,
          label: 'Requested',
          beforeText: '—',
          afterText: '$500.00',
        },
        {
          field: 'status',
          before: 'pending',
          after: 'approved',
          label: 'Status',
          beforeText: 'pending',
          afterText: 'approved',
        },
      ]),
    );
    expect(of('payment.recorded').changes).toEqual(
      expect.arrayContaining([
        { field: 'invoiceId', before: null, after: invoice.id, label: 'Invoice', beforeText: '—', afterText: number },
        {
          field: 'amountCents',
          before: null,
          after: 500_000,
          label: 'Amount',
          beforeText: '—',
          afterText: '$5,000.00',
        },
        { field: 'method', before: null, after: 'check', label: 'Method', beforeText: '—', afterText: 'Check' },
      ]),
    );
    expect(of('commission.earned').changes).toEqual(
      expect.arrayContaining([
        { field: 'repId', before: null, after: rep.id, label: 'Sales rep', beforeText: '—', afterText: 'Jordan Words' },
        { field: 'rateBp', before: null, after: 1000, label: 'Commission rate', beforeText: '—', afterText: '10%' },
      ]),
    );
    // The Reports screen's recent activity says the same.
    const report = await ctx.injectAs('admin', { method: 'GET', url: '/api/reports?range=current_month' });
    const recent = (report.json() as { recentActivity: { id: number; summary: string }[] }).recentActivity;
    expect(recent.find((e) => e.id === of('api_key.created').id)?.summary).toBe('API key "Ad server" created');
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
