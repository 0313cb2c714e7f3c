import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxEmails } from '../../db/schema';
import { enqueueEmail } from '../../lib/mailer';
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

describe('GET /api/outbox/:id', () => {
  it('opens one message as it was sent: recipient, subject, status, attempts, text and HTML, links masked', async () => {
    const token = 'Tok3nThatGrantsPaying0123456789abcdef';
    const id = await enqueueEmail(ctx.db, {
      to: 'payer@example.test',
      subject: 'Your invoice INV-2031-000001',
      text: `Pay here: https://crm.example.test/p/${token}\nThank you.`,
      html: `<p>Pay <a href="https://crm.example.test/p/${token}">here</a></p>`,
      entity: 'invoice',
      entityId: 'inv-1',
    });

    const response = await ctx.injectAs('admin', { method: 'GET', url: `/api/outbox/${id}` });
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toContain(token);
    expect(response.json()).toMatchObject({
      id,
      to: 'payer@example.test',
      recipient: 'payer@example.test',
      subject: 'Your invoice INV-2031-000001',
      status: 'queued',
      attempts: 0,
      lastError: null,
      text: 'Pay here: https://crm.example.test/p/[hidden]\nThank you.',
      html: '<p>Pay <a href="https://crm.example.test/p/[hidden]">here</a></p>',
      entity: 'invoice',
      entityId: 'inv-1',
      sentAt: null,
    });
    // The list masks it the same way.
    const list = await ctx.injectAs('super_admin', { method: 'GET', url: '/api/outbox?limit=100' });
    expect(list.json().find((m: { id: string }) => m.id === id).text).toBe(response.json().text);
  });

  it('is for admin-level roles only; an unknown or malformed id answers 404', async () => {
    const id = await enqueueEmail(ctx.db, { to: 'x@example.test', subject: 'Hello', text: 'Hi' });
    for (const role of ['sales_manager', 'sales', 'finance', 'client'] as const) {
      const refused = await ctx.injectAs(role, { method: 'GET', url: `/api/outbox/${id}` });
      expect(refused.statusCode, role).toBe(403);
      expect(refused.body).not.toContain('Hello');
    }
    const missing = await ctx.injectAs('admin', { method: 'GET', url: `/api/outbox/${randomUUID()}` });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('E-mail not found');
    expect((await ctx.injectAs('admin', { method: 'GET', url: '/api/outbox/not-an-id' })).statusCode).toBe(404);
  });
});
