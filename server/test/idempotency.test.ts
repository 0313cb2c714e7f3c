import { gunzipSync } from 'node:zlib';
import { asc, count, eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { contracts, idempotencyKeys, invoices, payments } from '../db/schema';
import { runBilling } from '../modules/billing/billing-run';
import { purgeIdempotencyKeys } from '../plugins/idempotency.repo';
import { buildTestApp, type TestContext } from './app';
import { createBillableContract, setTaxSettings } from './billing-factories';
import { createTestCustomer, createTestProduct } from './catalog-factories';
import { createTestUser, type TestUser } from './factories';

/**
 * Idempotent money requests (plugins/idempotency.ts, decision 040), through a real money route: a manual
 * payment of an invoice of $400.00. A repeat with the same key replays the first answer and moves the money
 * once; everything else a key can meet answers as product.md section 16 says.
 */
let ctx: TestContext;
type Signed = TestUser & { token: string };
let finance: Signed;
let otherFinance: Signed;

beforeAll(async () => {
  ctx = await buildTestApp();
  finance = await ctx.signIn(await createTestUser(ctx.db, { role: 'finance' }));
  otherFinance = await ctx.signIn(await createTestUser(ctx.db, { role: 'finance' }));
  await setTaxSettings(ctx.db, { defaultTaxRate: 0, taxIncluded: false, taxLabel: 'Tax' });
});
afterAll(() => ctx.close());

let invoiceId: string;
beforeEach(async () => {
  const { contract } = await createBillableContract(ctx.db, {
    startDate: '2025-06-01',
    lines: [{ unitPriceCents: 400_00 }],
  });
  await runBilling(ctx.db, { contractId: contract.id, asOf: '2025-06-01', baseUrl: 'https://crm.example.test' });
  const [invoice] = await ctx.db.select().from(invoices).where(eq(invoices.contractId, contract.id));
  expect(invoice.totalCents).toBe(400_00);
  invoiceId = invoice.id;
});

const check = { amount: '150.25', method: 'check', reference: 'CHK 4471' };

function pay(
  who: Signed | 'sales',
  payload: object,
  key?: string,
  extra: Record<string, string> = {},
  id = invoiceId,
): Promise<LightMyRequestResponse> {
  return ctx.injectAs(who, {
    method: 'POST',
    url: `/api/invoices/${id}/payments`,
    payload,
    headers: { ...(key === undefined ? {} : { 'idempotency-key': key }), ...extra },
  });
}

/** The invoice's payments (amounts in cents, oldest first) and its amount paid, as the database has them. */
async function money(id = invoiceId) {
  const rows = await ctx.db
    .select({ amount: payments.amountCents })
    .from(payments)
    .where(eq(payments.invoiceId, id))
    .orderBy(asc(payments.createdAt));
  const [invoice] = await ctx.db.select().from(invoices).where(eq(invoices.id, id));
  return { payments: rows.map((r) => r.amount), paidCents: invoice.amountPaidCents };
}

async function keyRows(key: string) {
  const [{ n }] = await ctx.db.select({ n: count() }).from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
  return n;
}

let seq = 0;
const newKey = () => `pay-${Date.now()}-${++seq}`;

describe('a repeated request with the same key', () => {
  it('answers the first response again, status and body exactly, and pays once', async () => {
    const key = newKey();
    const first = await pay(finance, check, key);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(first.json()).toMatchObject({ amountPaid: 150.25, amountDue: 249.75, status: 'pending' });

    const again = await pay(finance, check, key);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.body).toBe(first.body);

    // The same body with its keys in another order is the same request.
    const reordered = await pay(finance, { reference: 'CHK 4471', method: 'check', amount: '150.25' }, key);
    expect(reordered.statusCode).toBe(201);
    expect(reordered.body).toBe(first.body);

    expect(await money()).toEqual({ payments: [150_25], paidCents: 150_25 });
    expect(await keyRows(key)).toBe(1);
  });

  it('without the header nothing changes: each request pays', async () => {
    expect((await pay(finance, check)).statusCode).toBe(201);
    const second = await pay(finance, check);
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(await money()).toEqual({ payments: [150_25, 150_25], paidCents: 300_50 });
  });

  it('stores the answer before compression: a compressed first answer replays as the same JSON', async () => {
    const key = newKey();
    const first = await pay(finance, check, key, { 'accept-encoding': 'gzip' });
    expect(first.statusCode).toBe(201);
    expect(first.headers['content-encoding']).toBe('gzip');
    const json = gunzipSync(first.rawPayload).toString('utf8');
    expect(JSON.parse(json)).toMatchObject({ amountPaid: 150.25 });

    const again = await pay(finance, check, key);
    expect(again.headers['content-encoding']).toBeUndefined();
    expect(again.body).toBe(json);
    expect(await money()).toEqual({ payments: [150_25], paidCents: 150_25 });
  });
});

describe('a key used with another request', () => {
  it('answers 422 for another body, and changes nothing', async () => {
    const key = newKey();
    expect((await pay(finance, check, key)).statusCode).toBe(201);
    const other = await pay(finance, { ...check, amount: '99.00' }, key);
    expect(other.statusCode).toBe(422);
    expect(other.json()).toEqual({
      message: 'This Idempotency-Key was used with a different request',
      code: 'UNPROCESSABLE',
    });
    expect(await money()).toEqual({ payments: [150_25], paidCents: 150_25 });
  });

  it('answers 422 for the same body on another invoice (the path parameters count)', async () => {
    const key = newKey();
    const firstInvoice = invoiceId;
    expect((await pay(finance, check, key)).statusCode).toBe(201);
    const { contract } = await createBillableContract(ctx.db, {
      startDate: '2025-06-01',
      lines: [{ unitPriceCents: 400_00 }],
    });
    await runBilling(ctx.db, { contractId: contract.id, asOf: '2025-06-01', baseUrl: 'https://crm.example.test' });
    const [second] = await ctx.db.select().from(invoices).where(eq(invoices.contractId, contract.id));

    const elsewhere = await pay(finance, check, key, {}, second.id);
    expect(elsewhere.statusCode).toBe(422);
    expect(await money(second.id)).toEqual({ payments: [], paidCents: 0 });
    expect(await money(firstInvoice)).toEqual({ payments: [150_25], paidCents: 150_25 });
  });
});

describe('the key itself', () => {
  const invalid = {
    message: 'Idempotency-Key must be 1 to 255 visible ASCII characters (no spaces)',
    code: 'BAD_REQUEST',
  };

  it('is 1 to 255 visible ASCII characters: 255 are taken, 256 refused with 400 and nothing paid', async () => {
    const long = await pay(finance, check, 'k'.repeat(256));
    expect(long.statusCode).toBe(400);
    expect(long.json()).toEqual(invalid);
    expect(await money()).toEqual({ payments: [], paidCents: 0 });

    const longest = `${'k'.repeat(254)}${seq++ % 10}`;
    expect((await pay(finance, check, longest)).statusCode).toBe(201);
    expect((await pay(finance, check, longest)).headers['idempotent-replayed']).toBe('true');
    expect(await money()).toEqual({ payments: [150_25], paidCents: 150_25 });
  });

  it.each([
    ['empty', ''],
    ['with a space', 'two words'],
    ['with a non-ASCII letter', 'clé-1'],
    ['with a tab', 'a\tb'],
  ])('refuses a key %s with 400', async (_name, key) => {
    const response = await pay(finance, check, key);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(invalid);
    expect(await money()).toEqual({ payments: [], paidCents: 0 });
  });

  it('is checked after the caller: 401 signed out, 403 without the permission, and nothing is claimed', async () => {
    const key = newKey();
    const signedOut = await ctx.app.inject({
      method: 'POST',
      url: `/api/invoices/${invoiceId}/payments`,
      payload: check,
      headers: { 'idempotency-key': key },
    });
    expect(signedOut.statusCode).toBe(401);
    const sales = await pay('sales', check, key);
    expect(sales.statusCode).toBe(403);
    // An invalid key from a caller without access still learns only that it has no access.
    expect((await pay('sales', check, 'k'.repeat(300))).statusCode).toBe(403);
    expect(await keyRows(key)).toBe(0);

    // The key is still free for the caller who may use the route.
    const paid = await pay(finance, check, key);
    expect(paid.statusCode).toBe(201);
    expect(paid.headers['idempotent-replayed']).toBeUndefined();
  });

  it('belongs to its caller: another user with the same key gets a result of their own', async () => {
    const key = newKey();
    const mine = await pay(finance, check, key);
    const theirs = await pay(otherFinance, check, key);
    expect(mine.statusCode).toBe(201);
    expect(theirs.statusCode).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.json()).toMatchObject({ amountPaid: 300.5, amountDue: 99.5 });
    // A different body under the same key is no conflict either: each caller's keys are their own.
    const third = await ctx.signIn(await createTestUser(ctx.db, { role: 'admin' }));
    const other = await pay(third, { ...check, amount: '99.50' }, key);
    expect(other.statusCode).toBe(201);
    expect(other.json()).toMatchObject({ amountPaid: 400, amountDue: 0, status: 'paid' });

    // Each replays its own answer.
    expect((await pay(finance, check, key)).body).toBe(mine.body);
    expect((await pay(otherFinance, check, key)).body).toBe(theirs.body);
    expect(await money()).toEqual({ payments: [150_25, 150_25, 99_50], paidCents: 400_00 });
    expect(await keyRows(key)).toBe(3);
  });

  it('an API key is a caller of its own: its repeats replay, apart from its maker’s session', async () => {
    const admin = await ctx.signIn(await createTestUser(ctx.db, { role: 'admin' }));
    const made = await ctx.injectAs(admin, {
      method: 'POST',
      url: '/api/api-keys',
      payload: { name: 'Books sync', scope: 'role', role: 'finance' },
    });
    const secret: string = made.json().secret;
    const withKey = (key: string) =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/invoices/${invoiceId}/payments`,
        payload: check,
        headers: { authorization: `Bearer ${secret}`, 'idempotency-key': key },
      });
    const key = newKey();
    const first = await withKey(key);
    expect(first.statusCode, first.body).toBe(201);
    const again = await withKey(key);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    // The admin who made the key, in their own session, has keys of their own.
    const session = await pay(admin, check, key);
    expect(session.statusCode).toBe(201);
    expect(session.headers['idempotent-replayed']).toBeUndefined();
    expect(await money()).toEqual({ payments: [150_25, 150_25], paidCents: 300_50 });
    expect(await keyRows(key)).toBe(2);
  });
});

describe('24 hours, and requests still running', () => {
  const age = (key: string, interval: string) =>
    ctx.db.execute(sql`update idempotency_keys set created_at = now() - ${interval}::interval where key = ${key}`);

  it('a key older than 24 hours counts as new: the request runs again', async () => {
    const key = newKey();
    expect((await pay(finance, check, key)).statusCode).toBe(201);
    await age(key, '23 hours 59 minutes');
    expect((await pay(finance, check, key)).headers['idempotent-replayed']).toBe('true');

    await age(key, '24 hours 1 second');
    const later = await pay(finance, check, key);
    expect(later.statusCode).toBe(201);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(later.json()).toMatchObject({ amountPaid: 300.5 });
    // ... and is then replayed for 24 hours of its own.
    expect((await pay(finance, check, key)).body).toBe(later.body);
    expect(await money()).toEqual({ payments: [150_25, 150_25], paidCents: 300_50 });
  });

  it('a request still running answers 409; a claim older than the 5-minute lease is taken over', async () => {
    const key = newKey();
    const probe = await pay(finance, { amount: 'x', method: 'check' }, key);
    expect(probe.statusCode).toBe(400);
    // The key as a request that is still running leaves it (the same request, claimed a moment ago).
    await ctx.db.execute(
      sql`update idempotency_keys set state = 'running', response_status = null, response_type = null,
            response_body = null, completed_at = null where key = ${key}`,
    );
    const busy = await pay(finance, { amount: 'x', method: 'check' }, key);
    expect(busy.statusCode).toBe(409);
    expect(busy.json()).toEqual({
      message: 'A request with this Idempotency-Key is still in progress',
      code: 'CONFLICT',
    });

    // A different request with the key is still refused as different, running or not.
    expect((await pay(finance, check, key)).statusCode).toBe(422);

    // The instance that claimed it died: after the lease the key is taken over and the request runs.
    await age(key, '4 minutes 59 seconds');
    expect((await pay(finance, { amount: 'x', method: 'check' }, key)).statusCode).toBe(409);
    await age(key, '5 minutes 1 second');
    const taken = await pay(finance, { amount: 'x', method: 'check' }, key);
    expect(taken.statusCode).toBe(400);
    expect(taken.headers['idempotent-replayed']).toBeUndefined();
  });

  it('the hourly purge deletes the keys past 24 hours only', async () => {
    const [old, fresh] = [newKey(), newKey()];
    expect((await pay(finance, check, old)).statusCode).toBe(201);
    expect((await pay(finance, check, fresh)).statusCode).toBe(201);
    await age(old, '25 hours');
    await purgeIdempotencyKeys(ctx.db);
    expect(await keyRows(old)).toBe(0);
    expect(await keyRows(fresh)).toBe(1);
  });
});

describe('what is stored', () => {
  it('a 4xx answer is the answer: replayed as it was', async () => {
    const key = newKey();
    const refused = await pay(finance, { amount: 'twelve', method: 'check' }, key);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      code: 'VALIDATION',
      fieldErrors: { amount: ['Enter an amount in dollars, like 1250.00'] },
    });

    const again = await pay(finance, { amount: 'twelve', method: 'check' }, key);
    expect(again.statusCode).toBe(400);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(refused.body);

    // The route's own refusal after validation too: more than is due.
    const overKey = newKey();
    const over = await pay(finance, { amount: '400.01', method: 'wire' }, overKey);
    expect(over.statusCode).toBe(400);
    expect((await pay(finance, { amount: '400.01', method: 'wire' }, overKey)).body).toBe(over.body);
    expect(await money()).toEqual({ payments: [], paidCents: 0 });
  });

  it('a 5xx is not stored: the retry with the same key runs, and pays once', async () => {
    const key = newKey();
    // The database refuses payments for a moment, as an unavailable database would (SQLSTATE 57P03).
    await ctx.db.execute(sql`
      create function refuse_payments() returns trigger language plpgsql as $$
      begin raise exception 'the database is not accepting payments' using errcode = '57P03'; end $$`);
    await ctx.db.execute(
      sql`create trigger refuse_payments before insert on payments for each row execute function refuse_payments()`,
    );
    try {
      const failed = await pay(finance, check, key);
      expect(failed.statusCode).toBe(503);
      expect(failed.json().code).toBe('UNAVAILABLE');
      expect(await keyRows(key)).toBe(0);
    } finally {
      await ctx.db.execute(sql`drop trigger refuse_payments on payments`);
      await ctx.db.execute(sql`drop function refuse_payments()`);
    }
    expect(await money()).toEqual({ payments: [], paidCents: 0 });

    const retried = await pay(finance, check, key);
    expect(retried.statusCode).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect((await pay(finance, check, key)).headers['idempotent-replayed']).toBe('true');
    expect(await money()).toEqual({ payments: [150_25], paidCents: 150_25 });
  });

  it('a CSV import is told apart by its text: the same file replays, another one is 422', async () => {
    const key = newKey();
    const csv = (body: string) =>
      ctx.injectAs('admin', {
        method: 'POST',
        url: '/api/delivery/import',
        payload: body,
        headers: { 'content-type': 'text/csv', 'idempotency-key': key },
      });
    const header = 'contract_id,line_id,month,impressions\n';
    const first = await csv(header);
    expect(first.statusCode).toBe(400);
    expect(first.json()).toEqual({ message: 'The file has no rows to import', code: 'BAD_REQUEST' });
    const again = await csv(header);
    expect(again.statusCode).toBe(first.statusCode);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    expect((await csv(`${header}\n`)).statusCode).toBe(422);
  });
});

describe('the routes that take a key', () => {
  it('are every POST that creates or moves money (decision 040)', () => {
    expect([...ctx.app.idempotentRoutes].sort()).toEqual(
      [
        'POST /api/contracts',
        'POST /api/contracts/:id/activate',
        'POST /api/contracts/:id/resume',
        'POST /api/contracts/:id/lines',
        'POST /api/contracts/:id/lines/:lineId/end',
        'POST /api/invoices/:id/payments',
        'POST /api/invoices/:id/void',
        'POST /api/invoices/:id/credit-notes',
        'POST /api/customers/:id/credit-refunds',
        'POST /api/invoices/:id/checkout',
        'POST /api/client/pay-all',
        'POST /api/payouts/request',
        'POST /api/payouts/:id/approve',
        'POST /api/payouts/:id/reject',
        'POST /api/payouts/:id/disburse',
        'POST /api/delivery/import',
        'POST /api/delivery',
      ].sort(),
    );
  });

  it('a contract created twice with one key is one contract', async () => {
    const key = newKey();
    const customer = await createTestCustomer(ctx.db);
    const product = await createTestProduct(ctx.db);
    const body = {
      customerId: customer.id,
      startDate: '2030-01-01',
      termMonths: 12,
      paymentMode: 'pay_link',
      lineItems: [{ productId: product.id, quantity: 1, unitPrice: 250, discount: 0 }],
    };
    const create = () =>
      ctx.injectAs('admin', {
        method: 'POST',
        url: '/api/contracts',
        payload: body,
        headers: { 'idempotency-key': key },
      });
    const first = await create();
    expect(first.statusCode, first.body).toBe(201);
    const second = await create();
    expect(second.statusCode).toBe(201);
    expect(second.body).toBe(first.body);
    const [{ n }] = await ctx.db.select({ n: count() }).from(contracts).where(eq(contracts.customerId, customer.id));
    expect(n).toBe(1);
  });
});
