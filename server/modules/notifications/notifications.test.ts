import type { NotificationList } from '@shared/contracts/notifications';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifications, outboxEmails, users } from '../../db/schema';
import { notify } from '../../lib/notify';
import { buildTestApp, type TestContext } from '../../test/app';
import { createTestUser } from '../../test/factories';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(() => ctx.close());

async function rowsFor(userIds: string[]) {
  return ctx.db.select().from(notifications).where(inArray(notifications.userId, userIds));
}
async function mailTo(emails: string[]) {
  return ctx.db.select().from(outboxEmails).where(inArray(outboxEmails.to, emails));
}

describe('notify()', () => {
  it('writes one row per active recipient (ids and roles, each once) and e-mails those whose preferences allow it', async () => {
    const rep = await createTestUser(ctx.db, { role: 'sales' });
    const finance1 = await createTestUser(ctx.db, { role: 'finance' });
    const finance2 = await createTestUser(ctx.db, { role: 'finance' });
    const financeOff = await createTestUser(ctx.db, { role: 'finance', isActive: false });
    const otherRep = await createTestUser(ctx.db, { role: 'sales' });
    // finance2 turns payment e-mails off through the settings API; the others never saved preferences.
    const session = await ctx.signIn(finance2);
    const saved = await ctx.injectAs(session, {
      method: 'PUT',
      url: '/api/settings/notifications',
      payload: {
        emailContractUpdates: true,
        emailPaymentNotifications: false,
        emailCommissionAlerts: true,
        emailSystemMaintenance: false,
        emailAccountSecurity: true,
      },
    });
    expect(saved.statusCode).toBe(200);

    await ctx.db.transaction(async (tx) =>
      notify(tx, {
        // finance1 is named twice (by id and by role): one row only.
        to: { userIds: [rep.id, finance1.id], roles: ['finance'] },
        type: 'payment_received',
        title: 'Payment received',
        body: '$1,200.00 for INV-2026-000001',
        link: '/invoices/abc',
        entity: 'invoice',
        entityId: 'abc',
        email: { subject: 'Payment received: INV-2026-000001', text: 'We received $1,200.00.' },
      }),
    );

    const all = [rep, finance1, finance2, financeOff, otherRep];
    const rows = await rowsFor(all.map((u) => u.id));
    expect(rows.map((r) => r.userId).sort()).toEqual([rep.id, finance1.id, finance2.id].sort());
    for (const row of rows) {
      expect(row).toMatchObject({
        type: 'payment_received',
        title: 'Payment received',
        body: '$1,200.00 for INV-2026-000001',
        link: '/invoices/abc',
        entity: 'invoice',
        entityId: 'abc',
        readAt: null,
      });
    }
    const mails = await mailTo(all.map((u) => u.email));
    expect(mails.map((m) => m.to).sort()).toEqual([rep.email, finance1.email].sort());
    expect(mails[0]).toMatchObject({
      subject: 'Payment received: INV-2026-000001',
      status: 'queued',
      entity: 'invoice',
    });
  });

  it('maps each type to its preference: commission alerts off stops payout e-mails but not contract ones', async () => {
    const rep = await createTestUser(ctx.db, { role: 'sales' });
    const session = await ctx.signIn(rep);
    await ctx.injectAs(session, {
      method: 'PUT',
      url: '/api/settings/notifications',
      payload: {
        emailContractUpdates: true,
        emailPaymentNotifications: true,
        emailCommissionAlerts: false,
        emailSystemMaintenance: false,
        emailAccountSecurity: true,
      },
    });
    const email = { subject: 's', text: 't' };
    await notify(ctx.db, { to: { userIds: [rep.id] }, type: 'payout_approved', title: 'a', body: 'b', email });
    await notify(ctx.db, { to: { userIds: [rep.id] }, type: 'contract_activated', title: 'c', body: 'd', email });
    expect(await rowsFor([rep.id])).toHaveLength(2);
    expect(await mailTo([rep.email])).toHaveLength(1);
  });

  it('without an e-mail copy only the in-app row is written', async () => {
    const rep = await createTestUser(ctx.db, { role: 'sales' });
    await notify(ctx.db, { to: { userIds: [rep.id] }, type: 'payout_rejected', title: 'x', body: 'y' });
    expect(await rowsFor([rep.id])).toHaveLength(1);
    expect(await mailTo([rep.email])).toHaveLength(0);
  });

  it('a dedupe key notifies (and e-mails) each recipient once', async () => {
    const rep = await createTestUser(ctx.db, { role: 'sales' });
    const n = {
      to: { userIds: [rep.id] },
      type: 'contract_expiring' as const,
      title: 'Contract expiring',
      body: 'Ends soon',
      email: { subject: 'Contract expiring', text: 'Ends soon' },
      dedupeKey: 'contract_expiring:c1:2026-01-31',
    };
    await notify(ctx.db, n);
    await notify(ctx.db, n);
    await notify(ctx.db, { ...n, dedupeKey: 'contract_expiring:c1:2026-03-31' });
    expect(await rowsFor([rep.id])).toHaveLength(2);
    expect(await mailTo([rep.email])).toHaveLength(2);
  });

  it('is part of the caller transaction: a rolled-back event notifies nobody', async () => {
    const rep = await createTestUser(ctx.db, { role: 'sales' });
    await expect(
      ctx.db.transaction(async (tx) => {
        await notify(tx, {
          to: { userIds: [rep.id] },
          type: 'payment_failed',
          title: 'Payment failed',
          body: 'Card declined',
          email: { subject: 'Payment failed', text: 'Card declined' },
        });
        throw new Error('the payment write failed');
      }),
    ).rejects.toThrow('the payment write failed');
    expect(await rowsFor([rep.id])).toHaveLength(0);
    expect(await mailTo([rep.email])).toHaveLength(0);
  });

  it('with no recipients does nothing', async () => {
    const before = await ctx.db.select().from(notifications);
    await notify(ctx.db, { to: {}, type: 'payout_requested', title: 'x', body: 'y' });
    await notify(ctx.db, { to: { userIds: [], roles: [] }, type: 'payout_requested', title: 'x', body: 'y' });
    expect(await ctx.db.select().from(notifications)).toHaveLength(before.length);
  });
});

describe('notification routes', () => {
  it('lists only the caller own notifications, newest first, with the unread count; marks one and all read', async () => {
    const me = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales_manager' }));
    const other = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales_manager' }));
    const base = Date.parse('2026-01-10T10:00:00Z');
    const [a, b, c] = await ctx.db
      .insert(notifications)
      .values([
        {
          userId: me.id,
          type: 'contract_activated',
          title: 'A',
          body: 'a',
          link: '/contracts/1',
          createdAt: new Date(base),
        },
        { userId: me.id, type: 'payment_received', title: 'B', body: 'b', createdAt: new Date(base + 60_000) },
        { userId: me.id, type: 'payment_failed', title: 'C', body: 'c', createdAt: new Date(base + 120_000) },
      ])
      .returning();
    const [theirs] = await ctx.db
      .insert(notifications)
      .values({ userId: other.id, type: 'payout_requested', title: 'Theirs', body: 'x' })
      .returning();

    const list = await ctx.injectAs(me, { method: 'GET', url: '/api/notifications' });
    expect(list.statusCode).toBe(200);
    const body = list.json() as NotificationList;
    expect(body.unreadCount).toBe(3);
    expect(body.items.map((i) => i.title)).toEqual(['C', 'B', 'A']);
    expect(body.items[2]).toEqual({
      id: a.id,
      type: 'contract_activated',
      title: 'A',
      body: 'a',
      link: '/contracts/1',
      readAt: null,
      createdAt: '2026-01-10T10:00:00.000Z',
    });

    const limited = (await ctx.injectAs(me, { method: 'GET', url: '/api/notifications?limit=1' })).json();
    expect(limited.items.map((i: { id: string }) => i.id)).toEqual([c.id]);
    expect(limited.unreadCount).toBe(3);

    // Another user's notification is invisible: 404, and it stays unread.
    const foreign = await ctx.injectAs(me, { method: 'POST', url: `/api/notifications/${theirs.id}/read` });
    expect(foreign.statusCode).toBe(404);
    const [theirsAfter] = await ctx.db.select().from(notifications).where(eq(notifications.id, theirs.id));
    expect(theirsAfter.readAt).toBeNull();

    const one = await ctx.injectAs(me, { method: 'POST', url: `/api/notifications/${b.id}/read` });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual({ unreadCount: 2 });
    const again = await ctx.injectAs(me, { method: 'POST', url: `/api/notifications/${b.id}/read` });
    expect(again.json()).toEqual({ unreadCount: 2 });

    const all = await ctx.injectAs(me, { method: 'POST', url: '/api/notifications/read-all' });
    expect(all.json()).toEqual({ unreadCount: 0 });
    const after = (await ctx.injectAs(me, { method: 'GET', url: '/api/notifications' })).json() as NotificationList;
    expect(after.items.every((i) => i.readAt !== null)).toBe(true);
    // read-all touched only the caller's rows
    expect((await ctx.injectAs(other, { method: 'GET', url: '/api/notifications' })).json().unreadCount).toBe(1);
  });

  it('answers a malformed id like an unknown one (404) and refuses an out-of-range limit (400)', async () => {
    expect(
      (await ctx.injectAs('sales', { method: 'POST', url: '/api/notifications/not-a-uuid/read' })).statusCode,
    ).toBe(404);
    expect((await ctx.injectAs('sales', { method: 'GET', url: '/api/notifications?limit=1000' })).statusCode).toBe(400);
  });

  it('removing a user removes their notifications', async () => {
    const gone = await createTestUser(ctx.db, { role: 'sales' });
    await notify(ctx.db, { to: { userIds: [gone.id] }, type: 'payout_disbursed', title: 'x', body: 'y' });
    await ctx.db.delete(users).where(eq(users.id, gone.id));
    expect(await rowsFor([gone.id])).toHaveLength(0);
  });
});
