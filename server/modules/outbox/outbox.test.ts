import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxEmails } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(() => ctx.close());

describe('GET /api/outbox', () => {
  it('answers every message newest first, paged, with the total and the fields the screen reads', async () => {
    const base = Date.parse('2031-01-01T00:00:00Z');
    const subjects = ['first', 'second', 'third'].map((s) => `${s} ${Math.random().toString(36).slice(2, 7)}`);
    await ctx.db.insert(outboxEmails).values(
      subjects.map((subject, i) => ({
        to: `client${i}@example.test`,
        subject,
        text: `Body of ${subject}`,
        html: `<p>${subject}</p>`,
        status: i === 1 ? 'sent' : 'queued',
        attempts: i,
        sentAt: i === 1 ? new Date(base + i * 60_000) : null,
        entity: 'contract',
        entityId: `c${i}`,
        createdAt: new Date(base + i * 60_000),
      })),
    );

    const first = await ctx.injectAs('admin', { method: 'GET', url: '/api/outbox?limit=2' });
    expect(first.statusCode).toBe(200);
    const total = Number(first.headers['x-total-count']);
    expect(total).toBeGreaterThanOrEqual(3);
    const page = first.json();
    expect(page.map((m: { subject: string }) => m.subject)).toEqual([subjects[2], subjects[1]]);
    expect(page[1]).toEqual({
      id: expect.any(String),
      to: 'client1@example.test',
      recipient: 'client1@example.test',
      subject: subjects[1],
      body: `Body of ${subjects[1]}`,
      text: `Body of ${subjects[1]}`,
      html: `<p>${subjects[1]}</p>`,
      status: 'sent',
      attempts: 1,
      lastError: null,
      entity: 'contract',
      entityId: 'c1',
      createdAt: '2031-01-01T00:01:00.000Z',
      sentAt: '2031-01-01T00:01:00.000Z',
    });

    const second = await ctx.injectAs('admin', { method: 'GET', url: '/api/outbox?limit=2&offset=2' });
    expect(second.json()[0].subject).toBe(subjects[0]);
    expect(second.headers['x-total-count']).toBe(String(total));
  });

  it('is for admin-level roles only', async () => {
    for (const role of ['sales_manager', 'sales', 'finance', 'client'] as const) {
      expect((await ctx.injectAs(role, { method: 'GET', url: '/api/outbox' })).statusCode).toBe(403);
    }
  });
});
