import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, contracts, notifications, outboxEmails, products, renewalNotices } from '../../db/schema';
import { businessToday } from '../../lib/business-day';
import { buildTestApp, type TestContext } from '../../test/app';
import { createTestCustomer, createTestProduct } from '../../test/catalog-factories';
import { createTestUser, type TestUser } from '../../test/factories';
import { sendRenewalNotices } from './contract-renewals.service';

let ctx: TestContext;
let productId: string;
let customerId: string;
const BASE = 'https://crm.example.test';

beforeAll(async () => {
  ctx = await buildTestApp({ config: { PUBLIC_URL: BASE } });
  productId = (await createTestProduct(ctx.db, { seasonalPriceCents: null })).id;
  customerId = (await createTestCustomer(ctx.db, { name: 'Northwind Radio' })).id;
});
afterAll(() => ctx.close());

type Who = Parameters<TestContext['injectAs']>[0];
type ContractAnswer = {
  id: string;
  status: string;
  startDate: string;
  termMonths: number | null;
  autoStopDate: string | null;
  renewalOfId: string | null;
  renewedBy: { id: string; status: string } | null;
  [key: string]: unknown;
};

/** A day `days` after `date` (YYYY-MM-DD), by plain UTC day arithmetic. */
const plusDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
/** The same day of the month before (every date used here has a day below 29). */
const monthBefore = (date: string) => {
  const [y, m, d] = date.split('-').map(Number);
  const index = y * 12 + m - 2;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
};

async function createContract(who: Who, extra: Record<string, unknown>): Promise<ContractAnswer> {
  const response = await ctx.injectAs(who, {
    method: 'POST',
    url: '/api/contracts',
    payload: {
      customerId,
      startDate: '2031-01-05',
      termMonths: 1,
      description: 'Drive-time spots',
      setupFee: 0,
      paymentMode: 'portal',
      packageId: null,
      sendToCustomer: false,
      makeActive: false,
      lineItems: [{ productId, quantity: 1, unitPrice: 500, discount: 0 }],
      ...extra,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

/** A one-month contract of `rep`'s, made active, whose auto-stop date is `stop` (a day of the month 1-28). */
const endingOn = (rep: TestUser, stop: string, extra: Record<string, unknown> = {}) =>
  createContract('admin', { salesRepId: rep.id, makeActive: true, startDate: monthBefore(stop), ...extra });

const renew = (who: Who, id: string) => ctx.injectAs(who, { method: 'POST', url: `/api/contracts/${id}/renew` });

async function expiringNoticesOf(user: TestUser) {
  return ctx.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, user.id), eq(notifications.type, 'contract_expiring')));
}

async function stepsOf(contractId: string) {
  const rows = await ctx.db
    .select({ autoStopDate: renewalNotices.autoStopDate, daysBefore: renewalNotices.daysBefore })
    .from(renewalNotices)
    .where(eq(renewalNotices.contractId, contractId));
  return rows.map((r) => `${r.autoStopDate}:${r.daysBefore}`).sort();
}

const rep = async () => ctx.signIn(await createTestUser(ctx.db, { role: 'sales' }));

describe('renewal notices (daily job)', () => {
  // The job reads "today" from its caller here; contracts end in 2031, so nothing else in this file is due.
  const TODAY = '2031-03-01';

  it('tells the rep once per step, the most urgent only when several are due, running contracts only', async () => {
    const seller = await rep();
    const quiet = await rep();
    await ctx.injectAs(quiet, {
      method: 'PUT',
      url: '/api/settings/notifications',
      payload: {
        emailContractUpdates: false,
        emailPaymentNotifications: true,
        emailCommissionAlerts: true,
        emailSystemMaintenance: false,
        emailAccountSecurity: true,
      },
    });
    const in55 = await endingOn(seller, '2031-04-25');
    const in25 = await endingOn(seller, '2031-03-26');
    const in5 = await endingOn(seller, '2031-03-06');
    const in75 = await endingOn(seller, '2031-05-15');
    const endsToday = await endingOn(seller, '2031-03-01');
    const pausedIn3 = await endingOn(quiet, '2031-03-04');
    expect(
      (await ctx.injectAs('admin', { method: 'POST', url: `/api/contracts/${pausedIn3.id}/pause` })).statusCode,
    ).toBe(200);
    const canceled = await endingOn(seller, '2031-03-10');
    await ctx.injectAs('admin', {
      method: 'POST',
      url: `/api/contracts/${canceled.id}/cancel`,
      payload: { reason: 'Closed' },
    });
    const draft = await createContract('admin', { salesRepId: seller.id, startDate: '2031-02-10' });
    expect([in55, in25, in5, in75].map((c) => c.autoStopDate)).toEqual([
      '2031-04-25',
      '2031-03-26',
      '2031-03-06',
      '2031-05-15',
    ]);

    expect(await sendRenewalNotices(ctx.db, { baseUrl: BASE, today: TODAY })).toBe(4);
    expect(await sendRenewalNotices(ctx.db, { baseUrl: BASE, today: TODAY })).toBe(0);

    expect(await stepsOf(in55.id)).toEqual(['2031-04-25:60']);
    expect(await stepsOf(in25.id)).toEqual(['2031-03-26:30', '2031-03-26:60']);
    expect(await stepsOf(in5.id)).toEqual(['2031-03-06:30', '2031-03-06:60', '2031-03-06:7']);
    expect(await stepsOf(pausedIn3.id)).toEqual(['2031-03-04:30', '2031-03-04:60', '2031-03-04:7']);
    for (const none of [in75, endsToday, canceled, draft]) expect(await stepsOf(none.id)).toEqual([]);

    // One notice per contract: the most urgent step of those recorded at once.
    const notices = await expiringNoticesOf(seller);
    expect(notices.map((n) => n.entityId).sort()).toEqual([in55.id, in25.id, in5.id].sort());
    expect(notices.find((n) => n.entityId === in5.id)).toMatchObject({
      title: 'Contract ending soon',
      body: 'Drive-time spots for Northwind Radio ends on 2031-03-06 (in 5 days). Renew it from the contract page or the dashboard.',
      link: `/contracts/${in5.id}`,
    });
    expect((await expiringNoticesOf(quiet)).map((n) => n.entityId)).toEqual([pausedIn3.id]);

    // E-mail copies by preference: the quiet rep gets none; each links to the contract page on PUBLIC_URL.
    const sellerMail = await ctx.db.select().from(outboxEmails).where(eq(outboxEmails.to, seller.email));
    const ending = sellerMail.filter((m) => m.subject === 'Contract ending soon: Drive-time spots');
    expect(ending).toHaveLength(3);
    expect(ending.map((m) => m.text.split('\n\n')[1]).sort()).toEqual(
      [in55.id, in25.id, in5.id].map((id) => `${BASE}/contracts/${id}`).sort(),
    );
    const quietMail = await ctx.db.select().from(outboxEmails).where(eq(outboxEmails.to, quiet.email));
    expect(quietMail.filter((m) => m.subject.startsWith('Contract ending soon'))).toEqual([]);

    // Days later the next steps come due, each once.
    // 2031-03-20: in25 has 6 days left (its 7-day step), in75 56 (its 60-day step).
    expect(await sendRenewalNotices(ctx.db, { baseUrl: BASE, today: '2031-03-20' })).toBe(2);
    expect(await stepsOf(in25.id)).toEqual(['2031-03-26:30', '2031-03-26:60', '2031-03-26:7']);
    expect(await stepsOf(in75.id)).toEqual(['2031-05-15:60']);
    expect(await sendRenewalNotices(ctx.db, { baseUrl: BASE, today: '2031-03-27' })).toBe(1); // in55: 29 days left
    expect(await stepsOf(in55.id)).toEqual(['2031-04-25:30', '2031-04-25:60']);
    expect(await sendRenewalNotices(ctx.db, { baseUrl: BASE, today: '2031-03-27' })).toBe(0);
    const later = await expiringNoticesOf(seller);
    expect(later.filter((n) => n.entityId === in25.id)).toHaveLength(2);
    expect(later.filter((n) => n.entityId === in55.id)).toHaveLength(2);
    expect(later.find((n) => n.body.includes('(in 6 days)'))?.entityId).toBe(in25.id);
  });

  it('a new end date re-arms the steps', async () => {
    const seller = await rep();
    const c = await endingOn(seller, '2031-03-20');
    expect(await sendRenewalNotices(ctx.db, { baseUrl: BASE, today: TODAY })).toBe(1);
    expect(await stepsOf(c.id)).toEqual(['2031-03-20:30', '2031-03-20:60']);

    // The term is made a month longer: the contract now ends on 2031-04-20.
    const detail = (await ctx.injectAs('admin', { method: 'GET', url: `/api/contracts/${c.id}` })).json();
    const edited = await ctx.injectAs('admin', {
      method: 'PATCH',
      url: `/api/contracts/${c.id}`,
      payload: {
        customerId,
        startDate: detail.startDate,
        termMonths: 2,
        description: 'Drive-time spots',
        setupFee: 0,
        paymentMode: 'portal',
        packageId: null,
        salesRepId: seller.id,
        lineItems: [{ productId, quantity: 1, unitPrice: 500, discount: 0 }],
      },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().autoStopDate).toBe('2031-04-20');

    expect(await sendRenewalNotices(ctx.db, { baseUrl: BASE, today: TODAY })).toBe(1);
    expect(await stepsOf(c.id)).toEqual(['2031-03-20:30', '2031-03-20:60', '2031-04-20:60']);
    expect((await expiringNoticesOf(seller)).map((n) => n.body).sort()).toEqual([
      'Drive-time spots for Northwind Radio ends on 2031-03-20 (in 19 days). Renew it from the contract page or the dashboard.',
      'Drive-time spots for Northwind Radio ends on 2031-04-20 (in 50 days). Renew it from the contract page or the dashboard.',
    ]);
  });

  it('runs on several instances at once and still notifies once', async () => {
    const seller = await rep();
    const c = await endingOn(seller, '2031-03-11');
    await Promise.all([
      sendRenewalNotices(ctx.db, { baseUrl: BASE, today: TODAY }),
      sendRenewalNotices(ctx.db, { baseUrl: BASE, today: TODAY }),
      sendRenewalNotices(ctx.db, { baseUrl: BASE, today: TODAY }),
    ]);
    expect((await expiringNoticesOf(seller)).map((n) => n.entityId)).toEqual([c.id]);
    expect(await stepsOf(c.id)).toEqual(['2031-03-11:30', '2031-03-11:60']);
    const mails = await ctx.db.select().from(outboxEmails).where(eq(outboxEmails.to, seller.email));
    expect(mails.filter((m) => m.subject.startsWith('Contract ending soon'))).toHaveLength(1);
  });

  it('a contract already renewed is not announced', async () => {
    const seller = await rep();
    const c = await endingOn(seller, '2031-03-12');
    expect((await renew(seller, c.id)).statusCode).toBe(201);
    await sendRenewalNotices(ctx.db, { baseUrl: BASE, today: TODAY });
    expect(await stepsOf(c.id)).toEqual([]);
    expect(await expiringNoticesOf(seller)).toEqual([]);
  });
});

describe('POST /api/contracts/:id/renew', () => {
  it('copies the contract into a draft from its auto-stop date: lines, prices, current in-season prices, flights moved by the term', async () => {
    const seller = await rep();
    const spots = await createTestProduct(ctx.db, { name: 'Morning spots', seasonalPriceCents: 120_00 });
    const banner = await createTestProduct(ctx.db, { name: 'Site banner', seasonalPriceCents: null });
    const original = await createContract(seller, {
      title: 'Spring campaign',
      startDate: '2031-01-31',
      termMonths: 3,
      setupFee: 250,
      paymentMode: 'pay_link',
      makeActive: true,
      lineItems: [
        { productId: spots.id, quantity: 2, unitPrice: 80, discount: 5, seasonalPrice: 110 },
        {
          productId: banner.id,
          quantity: 1,
          unitPrice: 40,
          discount: 0,
          flightStart: '2031-02-10',
          flightEnd: '2031-03-31',
        },
      ],
    });
    expect(original.autoStopDate).toBe('2031-04-30');
    // The product's in-season price changes after the sale: the renewal takes the current one.
    await ctx.db.update(products).set({ seasonalPriceCents: 175_00 }).where(eq(products.id, spots.id));

    const response = await renew(seller, original.id);
    expect(response.statusCode, response.body).toBe(201);
    const renewal = response.json();
    expect(renewal).toMatchObject({
      status: 'draft',
      customerId,
      salesRepId: seller.id,
      title: 'Spring campaign',
      paymentMode: 'pay_link',
      packageId: null,
      startDate: '2031-04-30',
      termMonths: 3,
      autoStopDate: '2031-07-30',
      setupFee: 0,
      renewalOfId: original.id,
      renewedBy: null,
    });
    expect(
      renewal.lineItems.map((l: Record<string, unknown>) => ({
        productId: l.productId,
        quantity: l.quantity,
        unitPrice: l.unitPrice,
        discount: l.discount,
        seasonalPrice: l.seasonalPrice,
        flightStart: l.flightStart,
        flightEnd: l.flightEnd,
      })),
    ).toEqual([
      {
        productId: spots.id,
        quantity: 2,
        unitPrice: 80,
        discount: 5,
        seasonalPrice: 175,
        flightStart: '2031-04-30',
        flightEnd: null,
      },
      {
        productId: banner.id,
        quantity: 1,
        unitPrice: 40,
        discount: 0,
        seasonalPrice: null,
        flightStart: '2031-05-10',
        flightEnd: '2031-06-30',
      },
    ]);

    // Linked both ways.
    const again = (await ctx.injectAs(seller, { method: 'GET', url: `/api/contracts/${original.id}` })).json();
    expect(again.renewedBy).toEqual({ id: renewal.id, status: 'draft' });
    expect(again.renewalOfId).toBeNull();

    const audit = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, original.id), eq(auditEvents.action, 'contract.renewed')));
    expect(audit.map((a) => a.after)).toEqual([{ renewedBy: renewal.id }]);

    // Renewing twice: 409 naming the renewal, nothing new.
    const before = await contractCount();
    const twice = await renew(seller, original.id);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe(`This contract was already renewed by ${renewal.id.slice(-6)}`);
    expect(await contractCount()).toBe(before);
  });

  it('refuses a contract without a term, a draft, a sent or a canceled one with 409, changing nothing', async () => {
    const seller = await rep();
    const noTerm = await createContract(seller, { termMonths: null, makeActive: true });
    const draft = await createContract(seller, {});
    const sent = await createContract(seller, { paymentMode: 'pay_link', sendToCustomer: true });
    expect(sent.status).toBe('sent');
    const canceled = await createContract(seller, { makeActive: true });
    await ctx.injectAs(seller, {
      method: 'POST',
      url: `/api/contracts/${canceled.id}/cancel`,
      payload: { reason: 'Closed' },
    });
    const before = await contractCount();
    const answers = await Promise.all([noTerm, draft, sent, canceled].map((c) => renew(seller, c.id)));
    expect(answers.map((a) => [a.statusCode, a.json().message])).toEqual([
      [409, 'This contract has no term to renew'],
      [409, 'Only a running or completed contract can be renewed'],
      [409, 'Only a running or completed contract can be renewed'],
      [409, 'Only a running or completed contract can be renewed'],
    ]);
    expect(await contractCount()).toBe(before);
  });

  it('renews a completed contract; another rep gets 404, finance 403, an unknown id 404', async () => {
    const seller = await rep();
    const other = await rep();
    const completed = await createContract(seller, { makeActive: true });
    await ctx.db.update(contracts).set({ status: 'completed' }).where(eq(contracts.id, completed.id));
    expect((await renew(other, completed.id)).statusCode).toBe(404);
    expect((await renew('finance', completed.id)).statusCode).toBe(403);
    expect((await renew(seller, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    const managed = await renew('sales_manager', completed.id);
    expect(managed.statusCode, managed.body).toBe(201);
    expect(managed.json()).toMatchObject({ salesRepId: seller.id, renewalOfId: completed.id, startDate: '2031-02-05' });
  });

  it('20 renewals sent at once make one draft; the others get 409', async () => {
    const seller = await rep();
    const c = await createContract(seller, { makeActive: true });
    const before = await contractCount();
    const answers = await Promise.all(Array.from({ length: 20 }, () => renew(seller, c.id)));
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([201, ...Array(19).fill(409)]);
    const renewalId = answers.find((a) => a.statusCode === 201)!.json().id;
    for (const refused of answers.filter((a) => a.statusCode === 409)) {
      expect(refused.json().message).toBe(`This contract was already renewed by ${renewalId.slice(-6)}`);
    }
    expect(await contractCount()).toBe(before + 1);
  });
});

describe('GET /api/renewals', () => {
  it('lists running contracts ending within the window, soonest first: a rep their own, a manager everyone', async () => {
    const today = businessToday();
    const a = await rep();
    const b = await rep();
    // One-month terms, so each ends on its start + 1 month: the end is the first day from today + n on whose
    // day of the month every month has (1-28).
    const stopNear = (days: number) => {
      let stop = plusDays(today, days);
      while (Number(stop.slice(8, 10)) > 28) stop = plusDays(stop, 1);
      return stop;
    };
    const daysTo = (stop: string) => Math.round((Date.parse(stop) - Date.parse(today)) / 86_400_000);
    const a10 = await endingOn(a, stopNear(10));
    const a40 = await endingOn(a, stopNear(40));
    const a70 = await endingOn(a, stopNear(70));
    const b20 = await endingOn(b, stopNear(20));

    const mine = await ctx.injectAs(a, { method: 'GET', url: '/api/renewals' });
    expect(mine.statusCode, mine.body).toBe(200);
    const rows = mine.json().filter((r: { salesRepId: string }) => r.salesRepId === a.id);
    expect(mine.json().every((r: { salesRepId: string }) => r.salesRepId === a.id)).toBe(true);
    expect(rows.map((r: { id: string }) => r.id)).toEqual([a10.id, a40.id]);
    expect(rows[0]).toMatchObject({
      customerName: 'Northwind Radio',
      autoStopDate: stopNear(10),
      daysLeft: daysTo(stopNear(10)),
      termMonths: 1,
      monthlyAmount: 500,
      termValue: 500,
      lastNoticeDays: null,
      renewedBy: null,
      status: 'active',
    });

    // The notice job has run: the last step sent shows; a renewal shows.
    await sendRenewalNotices(ctx.db, { baseUrl: BASE });
    const renewal = (await renew(a, a40.id)).json();
    const after = (await ctx.injectAs(a, { method: 'GET', url: '/api/renewals?withinDays=365' })).json();
    expect(after.map((r: { id: string }) => r.id)).toEqual([a10.id, a40.id, a70.id]);
    expect(after.map((r: { lastNoticeDays: number | null }) => r.lastNoticeDays)).toEqual([30, 60, null]);
    expect(after[1].renewedBy).toEqual({ id: renewal.id, status: 'draft' });

    const managed = await ctx.injectAs('sales_manager', { method: 'GET', url: '/api/renewals?limit=500' });
    const ids = managed.json().map((r: { id: string }) => r.id);
    expect(ids).toEqual(expect.arrayContaining([a10.id, a40.id, b20.id]));
    expect(ids).not.toContain(a70.id);
    expect(Number(managed.headers['x-total-count'])).toBe(ids.length);

    const paged = await ctx.injectAs(a, { method: 'GET', url: '/api/renewals?limit=1&offset=1' });
    expect(paged.json().map((r: { id: string }) => r.id)).toEqual([a40.id]);
    expect(paged.headers['x-total-count']).toBe('2');
    const past = await ctx.injectAs(a, { method: 'GET', url: '/api/renewals?limit=1&offset=5' });
    expect(past.json()).toEqual([]);
    expect(past.headers['x-total-count']).toBe('2');
  });

  it('refuses a window outside 1-365 days with 400', async () => {
    for (const bad of ['0', '366', 'soon', '1.5']) {
      const response = await ctx.injectAs('sales', { method: 'GET', url: `/api/renewals?withinDays=${bad}` });
      expect(response.statusCode, bad).toBe(400);
      expect(response.json().message).toMatch(/withinDays/);
    }
  });
});

async function contractCount(): Promise<number> {
  const [row] = await ctx.db.select({ n: sql<number>`count(*)::int` }).from(contracts);
  return row.n;
}
