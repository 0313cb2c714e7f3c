import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, commissions, customers, notifications, payouts, users } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import {
  confirmCardPayment,
  createContractFor,
  createInvoice,
  createRep,
  earn,
  payInvoice,
  type Rep,
  voidInvoice,
} from '../../test/commission-factories';
import { createTestUser } from '../../test/factories';
import { earnCommissionForInvoice, reverseCommissionForInvoice } from './commissions.ledger';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(() => ctx.close());

const json = { 'content-type': 'application/json' };

async function ledgerOf(repId: string) {
  const rows = await ctx.db
    .select({ status: commissions.status, kind: commissions.kind, amountCents: commissions.amountCents })
    .from(commissions)
    .where(eq(commissions.repId, repId))
    .orderBy(asc(commissions.earnedAt), asc(commissions.createdAt));
  // Rows of one moment (a split) in a fixed order: by status, then larger amounts first.
  const order = ['available', 'requested', 'disbursed', 'adjusted'];
  return rows
    .map((r) => ({ ...r, amountCents: Number(r.amountCents) }))
    .sort((a, b) => order.indexOf(a.status) - order.indexOf(b.status) || b.amountCents - a.amountCents);
}

async function summaryOf(rep: Rep) {
  const response = await ctx.injectAs(rep, { method: 'GET', url: '/api/commissions/summary' });
  expect(response.statusCode).toBe(200);
  return response.json();
}

async function request(rep: Rep, requestedAmount: unknown) {
  return ctx.injectAs(rep, {
    method: 'POST',
    url: '/api/payouts/request',
    headers: json,
    payload: { requestedAmount },
  });
}

async function review(action: 'approve' | 'reject' | 'disburse', id: string, payload: object = {}, who = 'finance') {
  return ctx.injectAs(who as 'finance', {
    method: 'POST',
    url: `/api/payouts/${id}/${action}`,
    headers: json,
    payload,
  });
}

describe('earning commission on paid invoices', () => {
  it('earns (subtotal - setup fee) x rate once per invoice, before tax, even when the payment is replayed', async () => {
    const rep = await createRep(ctx, 500);
    const { contract } = await createContractFor(ctx.db, rep.id);
    // $1,000.00 subtotal of which $250.00 is the setup fee, $82.50 tax on top: 5% of $750.00 = $37.50.
    const invoice = await createInvoice(ctx.db, contract.id, {
      subtotalCents: 1000_00,
      setupFeeCents: 250_00,
      taxCents: 82_50,
    });
    // The checkout's confirmation arrives twice (a replayed webhook), then someone tries a manual payment.
    expect((await confirmCardPayment(ctx.db, invoice.id, 'ch_replayed')).becamePaid).toBe(true);
    expect((await confirmCardPayment(ctx.db, invoice.id, 'ch_replayed')).duplicate).toBe(true);
    expect((await payInvoice(ctx, invoice.id)).statusCode).toBe(409);
    await ctx.db.transaction((tx) => earnCommissionForInvoice(tx, invoice.id));

    expect(await ledgerOf(rep.id)).toEqual([{ status: 'available', kind: 'earned', amountCents: 37_50 }]);
    const list = await ctx.injectAs(rep, { method: 'GET', url: '/api/commissions' });
    expect(list.headers['x-total-count']).toBe('1');
    const [row] = list.json();
    expect(row).toMatchObject({
      status: 'available',
      amount: 37.5,
      rate: 0.05,
      baseAmount: 750,
      invoiceId: invoice.id,
      invoiceNumber: invoice.number,
      contractId: contract.id,
      contractShortId: contract.id.slice(-8),
      contractTitle: contract.title,
      repId: rep.id,
    });
    const audit = await ctx.db.select().from(auditEvents).where(eq(auditEvents.action, 'commission.earned'));
    expect(audit.filter((a) => (a.after as { invoiceId: string }).invoiceId === invoice.id)).toHaveLength(1);
  });

  it('takes the tax part out of prices that include tax', async () => {
    const rep = await createRep(ctx, 500);
    const { contract } = await createContractFor(ctx.db, rep.id);
    // $1,080.00 including 8% tax ($80.00) of which $108.00 is the setup fee (with its $8.00 tax):
    // before tax and without the setup fee $900.00; 5% = $45.00.
    const invoice = await createInvoice(ctx.db, contract.id, {
      subtotalCents: 1080_00,
      setupFeeCents: 108_00,
      taxIncludedBp: 800,
    });
    expect(invoice.taxCents).toBe(80_00);
    expect((await payInvoice(ctx, invoice.id)).statusCode).toBe(201);
    const [row] = (await ctx.injectAs(rep, { method: 'GET', url: '/api/commissions' })).json();
    expect(row).toMatchObject({ amount: 45, baseAmount: 900, rate: 0.05 });
  });

  it('uses the rate of the moment of payment, and keeps earlier commissions at their rate', async () => {
    const rep = await createRep(ctx, 500);
    const { contract } = await createContractFor(ctx.db, rep.id);
    const first = await createInvoice(ctx.db, contract.id, { subtotalCents: 400_00 });
    const second = await createInvoice(ctx.db, contract.id, { subtotalCents: 400_00 });
    expect((await payInvoice(ctx, first.id)).statusCode).toBe(201);
    const changed = await ctx.injectAs('admin', {
      method: 'PATCH',
      url: `/api/users/${rep.id}`,
      headers: json,
      payload: { commissionRate: 0.125 },
    });
    expect(changed.statusCode).toBe(200);
    expect((await payInvoice(ctx, second.id)).statusCode).toBe(201);

    const rows = (await ctx.injectAs(rep, { method: 'GET', url: '/api/commissions' })).json();
    expect(
      rows.map((r: { invoiceId: string; rate: number; amount: number }) => [r.invoiceId, r.rate, r.amount]),
    ).toEqual([
      [second.id, 0.125, 50],
      [first.id, 0.05, 20],
    ]);
  });

  it('dates the commission when the invoice was paid (a back-dated manual payment)', async () => {
    const rep = await createRep(ctx, 1000);
    const { contract } = await createContractFor(ctx.db, rep.id);
    const invoice = await createInvoice(ctx.db, contract.id, { subtotalCents: 200_00 });
    const paid = await ctx.injectAs('finance', {
      method: 'POST',
      url: `/api/invoices/${invoice.id}/payments`,
      headers: json,
      payload: { amount: 200, method: 'wire', paidAt: '2025-03-14' },
    });
    expect(paid.statusCode).toBe(201);
    const [row] = (await ctx.injectAs(rep, { method: 'GET', url: '/api/commissions' })).json();
    expect(row.createdAt.slice(0, 10)).toBe('2025-03-14');
    expect(await summaryOf(rep)).toMatchObject({ total: 20, thisMonth: 0 });
  });

  it('rounds half away from zero', async () => {
    // 5% of $10.10 = 50.5 cents -> 51; 5% of $10.30 = 51.5 -> 52; 5% of $10.29 = 51.45 -> 51.
    const rep = await createRep(ctx, 500);
    for (const cents of [10_10, 10_30, 10_29]) await earn(ctx, rep.id, cents);
    expect((await ledgerOf(rep.id)).map((r) => r.amountCents).sort()).toEqual([51, 51, 52]);
  });

  it('earns nothing without a sales rep, at a zero rate, on a setup-fee-only invoice or on an unpaid invoice', async () => {
    const noRep = await createContractFor(ctx.db, null);
    const a = await createInvoice(ctx.db, noRep.contract.id, { subtotalCents: 500_00 });
    expect((await payInvoice(ctx, a.id)).statusCode).toBe(201);

    const zeroRate = await createRep(ctx, 0);
    await earn(ctx, zeroRate.id, 500_00);

    const rep = await createRep(ctx, 1000);
    const { contract } = await createContractFor(ctx.db, rep.id);
    const setupOnly = await createInvoice(ctx.db, contract.id, { subtotalCents: 300_00, setupFeeCents: 300_00 });
    expect((await payInvoice(ctx, setupOnly.id)).statusCode).toBe(201);
    const unpaid = await createInvoice(ctx.db, contract.id, { subtotalCents: 300_00 });
    await ctx.db.transaction((tx) => earnCommissionForInvoice(tx, unpaid.id));

    const rows = await ctx.db.select().from(commissions);
    const invoiceIds = rows.map((r) => r.invoiceId);
    for (const id of [a.id, setupOnly.id, unpaid.id]) expect(invoiceIds).not.toContain(id);
    expect(await ledgerOf(zeroRate.id)).toEqual([]);
  });

  it('voiding a paid invoice adds one negative adjusted commission of the same amount', async () => {
    const rep = await createRep(ctx, 1000);
    const invoice = await earn(ctx, rep.id, 123_45); // 10% = 1234.5 cents -> 1235
    expect((await voidInvoice(ctx, invoice.id)).statusCode).toBe(200);
    expect((await voidInvoice(ctx, invoice.id)).statusCode).toBe(409);
    await ctx.db.transaction((tx) => reverseCommissionForInvoice(tx, invoice.id));
    expect(await ledgerOf(rep.id)).toEqual([
      { status: 'available', kind: 'earned', amountCents: 12_35 },
      { status: 'adjusted', kind: 'reversal', amountCents: -12_35 },
    ]);
    expect(await summaryOf(rep)).toMatchObject({ available: 0, total: 0, requested: 0, disbursed: 0 });
  });

  it('reverses the whole amount even after part of it was requested and paid out', async () => {
    const rep = await createRep(ctx, 1000);
    const invoice = await earn(ctx, rep.id, 1000_00); // $100.00
    const requested = await request(rep, 40);
    expect(requested.statusCode).toBe(201);
    await review('approve', requested.json().id, { approvedAmount: 40 });
    await review('disburse', requested.json().id);
    expect((await voidInvoice(ctx, invoice.id)).statusCode).toBe(200);
    // $40.00 was paid out; the $100.00 reversal leaves the rep owing $40.00 against future commission.
    expect(await summaryOf(rep)).toMatchObject({ available: -40, requested: 0, disbursed: 40, total: 0 });
    expect((await request(rep, 1)).json().message).toBe('You have no available commission to request');
  });
});

describe('payout requests', () => {
  it('takes at most the available amount; that much becomes requested', async () => {
    const rep = await createRep(ctx, 1000);
    await earn(ctx, rep.id, 300_00); // $30.00
    await earn(ctx, rep.id, 200_00); // $20.00

    const tooMuch = await request(rep, 50.01);
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.json().message).toBe('Amount cannot exceed available commission ($50.00 available)');

    const ok = await request(rep, 35);
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({ status: 'pending', requestedAmount: 35, approvedAmount: null, repId: rep.id });
    // Oldest first: all of the $30.00 row and $5.00 split off the $20.00 row.
    expect(await ledgerOf(rep.id)).toEqual([
      { status: 'available', kind: 'earned', amountCents: 15_00 },
      { status: 'requested', kind: 'earned', amountCents: 30_00 },
      { status: 'requested', kind: 'earned', amountCents: 5_00 },
    ]);
    expect(await summaryOf(rep)).toMatchObject({ available: 15, requested: 35, pending: 35, disbursed: 0, total: 50 });

    expect((await request(rep, 15.01)).statusCode).toBe(409);
    expect((await request(rep, 15)).statusCode).toBe(201);
    const none = await request(rep, 0.01);
    expect(none.statusCode).toBe(409);
    expect(none.json().message).toBe('You have no available commission to request');
  });

  it.each([
    [undefined, 'Amount is required'],
    ['', 'Amount is required'],
    [0, 'Amount must be greater than 0'],
    [-5, 'Amount must be greater than 0'],
    [1.234, 'Enter an amount in dollars, like 250.00'],
    ['abc', 'Enter an amount in dollars, like 250.00'],
  ])('refuses requestedAmount %j with 400 "%s"', async (value, message) => {
    const rep = await createRep(ctx);
    const response = await request(rep, value);
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors.requestedAmount).toEqual([message]);
  });

  it('is for the sales role only', async () => {
    for (const role of ['admin', 'finance', 'sales_manager', 'super_admin'] as const) {
      const response = await ctx.injectAs(role, {
        method: 'POST',
        url: '/api/payouts/request',
        headers: json,
        payload: { requestedAmount: 1 },
      });
      expect(response.statusCode, role).toBe(403);
    }
  });

  it('notifies finance and admin-level users and writes an audit event', async () => {
    const rep = await createRep(ctx, 1000);
    await earn(ctx, rep.id, 100_00);
    const finance = await ctx.as('finance');
    const id = (await request(rep, 10)).json().id;
    const notes = await ctx.db.select().from(notifications).where(eq(notifications.entityId, id));
    const recipients = await ctx.db.select({ id: users.id, role: users.role }).from(users);
    const roleOf = new Map(recipients.map((u) => [u.id, u.role]));
    expect(notes.length).toBeGreaterThan(0);
    expect(notes.map((n) => n.userId)).toContain(finance.id);
    expect(new Set(notes.map((n) => roleOf.get(n.userId)))).toEqual(
      new Set(notes.map((n) => roleOf.get(n.userId)).filter((r) => ['finance', 'admin', 'super_admin'].includes(r!))),
    );
    expect(notes[0]).toMatchObject({ type: 'payout_requested', title: 'Payout requested', link: '/payouts' });
    const [audit] = await ctx.db.select().from(auditEvents).where(eq(auditEvents.entityId, id));
    expect(audit).toMatchObject({ action: 'payout.requested', actorId: rep.id, entity: 'payout' });
  });
});

describe('payout review', () => {
  async function pendingPayout(rep: Rep, earnedCents: number, requestedAmount: number) {
    await earn(ctx, rep.id, earnedCents * 10); // at 10%
    const response = await request(rep, requestedAmount);
    expect(response.statusCode).toBe(201);
    return response.json().id as string;
  }

  it('approving a lower amount returns the rest to available; each transition happens once', async () => {
    const rep = await createRep(ctx, 1000);
    const id = await pendingPayout(rep, 100_00, 80);

    const tooHigh = await review('approve', id, { approvedAmount: 80.01 });
    expect(tooHigh.statusCode).toBe(400);
    expect(tooHigh.json().message).toBe('Approved amount cannot exceed the requested amount ($80.00)');

    const disburseEarly = await review('disburse', id);
    expect(disburseEarly.statusCode).toBe(409);
    expect(disburseEarly.json().message).toBe(
      'This payout is already pending, so it cannot be marked disbursed. Only approved payouts can be marked disbursed.',
    );

    const approved = await review('approve', id, { approvedAmount: 60.5 });
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({ status: 'approved', requestedAmount: 80, approvedAmount: 60.5 });
    expect(await summaryOf(rep)).toMatchObject({ available: 39.5, requested: 60.5, disbursed: 0, total: 100 });

    const again = await review('approve', id, { approvedAmount: 10 });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(
      'This payout is already approved, so it cannot be approved. Only pending payouts can be reviewed.',
    );
    expect((await review('reject', id, { reason: 'Too late' })).statusCode).toBe(409);

    const disbursed = await review('disburse', id);
    expect(disbursed.statusCode).toBe(200);
    expect(disbursed.json()).toMatchObject({ status: 'disbursed', approvedAmount: 60.5 });
    expect(disbursed.json().disbursedAt).toEqual(expect.any(String));
    expect(await summaryOf(rep)).toMatchObject({ available: 39.5, requested: 0, disbursed: 60.5, total: 100 });
    expect((await review('disburse', id)).statusCode).toBe(409);

    const actions = await ctx.db
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(eq(auditEvents.entityId, id))
      .orderBy(asc(auditEvents.id));
    expect(actions.map((a) => a.action)).toEqual(['payout.requested', 'payout.approved', 'payout.disbursed']);
    const notes = await ctx.db
      .select({ type: notifications.type, userId: notifications.userId, body: notifications.body })
      .from(notifications)
      .where(eq(notifications.userId, rep.id));
    expect(
      notes
        .map((n) => n.type)
        .filter((t) => t.startsWith('payout_'))
        .sort(),
    ).toEqual(['payout_approved', 'payout_disbursed']);
    expect(notes.find((n) => n.type === 'payout_approved')?.body).toBe(
      'Your payout request of $80.00 was approved for $60.50; the rest is available again.',
    );
  });

  it('rejecting returns all of it to available, with the reason, once', async () => {
    const rep = await createRep(ctx, 1000);
    const id = await pendingPayout(rep, 50_00, 50);
    expect(await summaryOf(rep)).toMatchObject({ available: 0, requested: 50 });

    const noReason = await review('reject', id, { reason: '  ' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().fieldErrors.reason).toEqual(['Please give a reason for rejecting the payout']);

    const rejected = await review('reject', id, { reason: 'Invoice under dispute' }, 'admin');
    expect(rejected.statusCode).toBe(200);
    expect(rejected.json()).toMatchObject({ status: 'rejected', rejectReason: 'Invoice under dispute' });
    expect(await summaryOf(rep)).toMatchObject({ available: 50, requested: 0, disbursed: 0, total: 50 });
    expect(await ledgerOf(rep.id)).toEqual([{ status: 'available', kind: 'earned', amountCents: 50_00 }]);

    expect((await review('reject', id, { reason: 'again' })).statusCode).toBe(409);
    expect((await review('approve', id, { approvedAmount: 1 })).statusCode).toBe(409);
    expect((await review('disburse', id)).statusCode).toBe(409);
    const notes = await ctx.db.select().from(notifications).where(eq(notifications.entityId, id));
    const note = notes.find((n) => n.type === 'payout_rejected')!;
    expect(notes.filter((n) => n.type === 'payout_rejected')).toHaveLength(1);
    expect(note.userId).toBe(rep.id);
    expect(note.body).toContain('Invoice under dispute');
  });

  it('answers 404 for an unknown payout and for a malformed id', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const action of ['approve', 'reject', 'disburse'] as const) {
      const response = await review(action, unknown, { approvedAmount: 1, reason: 'x' });
      expect(response.statusCode, action).toBe(404);
      expect(response.json().message).toBe('Payout not found');
    }
    expect((await review('disburse', 'not-a-uuid')).statusCode).toBe(404);
  });
});

describe('scoping', () => {
  it("a rep sees only their own commissions and payouts; another rep's payout answers 404", async () => {
    const alice = await createRep(ctx, 1000);
    const bob = await createRep(ctx, 1000);
    await earn(ctx, alice.id, 100_00);
    await earn(ctx, bob.id, 300_00);
    const alicePayout = (await request(alice, 5)).json().id;
    const bobPayout = (await request(bob, 7)).json().id;

    const aliceRows = (await ctx.injectAs(alice, { method: 'GET', url: '/api/commissions' })).json();
    expect(new Set(aliceRows.map((r: { repId: string }) => r.repId))).toEqual(new Set([alice.id]));
    const asOther = await ctx.injectAs(alice, { method: 'GET', url: `/api/commissions?repId=${bob.id}` });
    expect(asOther.json()).toEqual([]);
    expect(asOther.headers['x-total-count']).toBe('0');
    const otherSummary = await ctx.injectAs(alice, { method: 'GET', url: `/api/commissions/summary?repId=${bob.id}` });
    expect(otherSummary.json()).toMatchObject({ available: 0, total: 0 });

    const alicePayouts = (await ctx.injectAs(alice, { method: 'GET', url: '/api/payouts' })).json();
    expect(alicePayouts.map((p: { id: string }) => p.id)).toEqual([alicePayout]);
    expect((await ctx.injectAs(alice, { method: 'GET', url: `/api/payouts/${bobPayout}` })).statusCode).toBe(404);
    expect((await ctx.injectAs(alice, { method: 'GET', url: `/api/payouts/${alicePayout}` })).statusCode).toBe(200);

    // Staff who read every rep's: all of them, or one rep by repId.
    for (const role of ['finance', 'admin', 'sales_manager', 'super_admin'] as const) {
      const bobs = await ctx.injectAs(role, { method: 'GET', url: `/api/commissions/summary?repId=${bob.id}` });
      expect(bobs.json(), role).toMatchObject({ available: 23, requested: 7, total: 30 });
      const payoutsOfBob = await ctx.injectAs(role, { method: 'GET', url: `/api/payouts?repId=${bob.id}` });
      expect(payoutsOfBob.json().map((p: { id: string }) => p.id)).toEqual([bobPayout]);
      expect((await ctx.injectAs(role, { method: 'GET', url: `/api/payouts/${bobPayout}` })).statusCode).toBe(200);
    }
    const reps = (await ctx.injectAs('finance', { method: 'GET', url: '/api/commissions/reps' })).json();
    expect(reps.map((r: { id: string }) => r.id)).toEqual(expect.arrayContaining([alice.id, bob.id]));
  });

  it('the summary over every rep adds up the per-rep figures (one aggregate)', async () => {
    const all = (await ctx.injectAs('admin', { method: 'GET', url: '/api/commissions/summary' })).json();
    const rows = await ctx.db.select().from(commissions);
    const sum = (pred: (r: (typeof rows)[number]) => boolean) =>
      rows.filter(pred).reduce((acc, r) => acc + Number(r.amountCents), 0) / 100;
    expect(all).toEqual({
      available: sum((r) => r.status === 'available' || r.status === 'adjusted'),
      requested: sum((r) => r.status === 'requested'),
      pending: sum((r) => r.status === 'requested'),
      disbursed: sum((r) => r.status === 'disbursed'),
      thisMonth: sum((r) => r.earnedAt >= startOfMonth()),
      total: sum(() => true),
    });
    expect(all.available + all.requested + all.disbursed).toBeCloseTo(all.total, 2);
  });
});

describe('lists, filters and the CSV export', () => {
  it('pages the history and the payouts with X-Total-Count, and filters by status', async () => {
    const rep = await createRep(ctx, 1000);
    for (let i = 1; i <= 5; i++) await earn(ctx, rep.id, i * 100_00);
    const payout = (await request(rep, 30)).json().id; // the two oldest: $10.00 and $20.00
    await review('approve', payout, { approvedAmount: 30 });

    const page = await ctx.injectAs(rep, { method: 'GET', url: '/api/commissions?limit=2&offset=1' });
    expect(page.headers['x-total-count']).toBe('5');
    expect(page.json()).toHaveLength(2);
    const requested = await ctx.injectAs(rep, { method: 'GET', url: '/api/commissions?status=requested' });
    expect(
      requested
        .json()
        .map((r: { amount: number }) => r.amount)
        .sort(),
    ).toEqual([10, 20]);
    const available = await ctx.injectAs(rep, { method: 'GET', url: '/api/commissions?status=available' });
    expect(
      available
        .json()
        .map((r: { amount: number }) => r.amount)
        .sort(),
    ).toEqual([30, 40, 50]);

    const open = await ctx.injectAs(rep, { method: 'GET', url: '/api/payouts?status=open' });
    expect(open.json().map((p: { id: string }) => p.id)).toEqual([payout]);
    const pending = await ctx.injectAs(rep, { method: 'GET', url: '/api/payouts?status=pending' });
    expect(pending.json()).toEqual([]);
    expect((await ctx.injectAs(rep, { method: 'GET', url: '/api/commissions?status=paid' })).statusCode).toBe(400);
  });

  it('exports exactly the filtered history as CSV, one line per commission, safe for spreadsheets', async () => {
    const rep = await ctx.signIn(
      await createTestUser(ctx.db, { role: 'sales', commissionRateBp: 1000, firstName: '=cmd', lastName: 'Rep' }),
    );
    const { contract, customer } = await createContractFor(ctx.db, rep.id);
    await ctx.db.update(customers).set({ name: '@SUM(A1), "quoted"' }).where(eq(customers.id, customer.id));
    const first = await createInvoice(ctx.db, contract.id, { subtotalCents: 100_00 });
    const second = await createInvoice(ctx.db, contract.id, { subtotalCents: 250_00 });
    expect((await payInvoice(ctx, first.id)).statusCode).toBe(201);
    expect((await payInvoice(ctx, second.id)).statusCode).toBe(201);
    expect((await voidInvoice(ctx, first.id)).statusCode).toBe(200);

    const all = await ctx.injectAs(rep, { method: 'GET', url: '/api/commissions/export' });
    expect(all.statusCode).toBe(200);
    expect(all.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(all.headers['content-disposition']).toMatch(
      /^attachment; filename="commissions-all-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = all.body.split('\r\n');
    expect(lines.at(-1)).toBe('');
    expect(lines[0]).toBe('Date,Sales Rep,Contract,Contract Title,Customer,Invoice,Rate (%),Amount,Status');
    const day = new Date().toISOString().slice(0, 10);
    const short = contract.id.slice(-8);
    const cells = `${short},${contract.title},"'@SUM(A1), ""quoted"""`;
    expect(lines.slice(1, -1).sort()).toEqual(
      [
        `${day},'=cmd Rep,${cells},${first.number},10,10.00,Available`,
        `${day},'=cmd Rep,${cells},${first.number},10,-10.00,Adjusted`,
        `${day},'=cmd Rep,${cells},${second.number},10,25.00,Available`,
      ].sort(),
    );

    const adjusted = await ctx.injectAs(rep, { method: 'GET', url: '/api/commissions/export?status=adjusted' });
    expect(adjusted.body.split('\r\n').slice(1, -1)).toEqual([
      `${day},'=cmd Rep,${cells},${first.number},10,-10.00,Adjusted`,
    ]);
    // Another rep's export does not contain these rows.
    const other = await createRep(ctx);
    const theirs = await ctx.injectAs(other, { method: 'GET', url: '/api/commissions/export' });
    expect(theirs.body).toBe('Date,Sales Rep,Contract,Contract Title,Customer,Invoice,Rate (%),Amount,Status\r\n');
    // Staff filter by rep and status.
    const staff = await ctx.injectAs('finance', {
      method: 'GET',
      url: `/api/commissions/export?repId=${rep.id}&status=available`,
    });
    expect(staff.body.split('\r\n').slice(1, -1)).toHaveLength(2);
  });
});

describe('payouts table', () => {
  it('never holds more than requested or an approval above the request', async () => {
    const rows = await ctx.db.select().from(payouts);
    for (const p of rows) {
      expect(Number(p.requestedCents)).toBeGreaterThan(0);
      if (p.approvedCents !== null) expect(Number(p.approvedCents)).toBeLessThanOrEqual(Number(p.requestedCents));
    }
  });
});

function startOfMonth(): Date {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}
