import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contracts } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { createTestCustomer } from '../../test/catalog-factories';
import { createTestUser, type TestUser } from '../../test/factories';
import { type FakeStripe, startFakeStripe } from '../../test/stripe-fake';

/**
 * The customer portal of a portal-mode contract: a Stripe billing-portal session (through the official SDK,
 * against a local fake of Stripe that records the request) when Stripe is configured, otherwise the product's
 * own portal page of the contract. The client opens it for its own contracts; staff who may read the contract.
 */

const ORIGIN = 'https://crm.example.test';
let fake: FakeStripe;
let withStripe: TestContext;
let without: TestContext;

beforeAll(async () => {
  fake = await startFakeStripe();
  [withStripe, without] = await Promise.all([
    buildTestApp({
      config: {
        PUBLIC_URL: ORIGIN,
        STRIPE_SECRET_KEY: 'sk_test_portal_fake',
        STRIPE_WEBHOOK_SECRET: 'whsec_portal_fake',
        STRIPE_API_BASE: fake.baseUrl,
      },
    }),
    buildTestApp({ config: { PUBLIC_URL: ORIGIN } }),
  ]);
});
afterAll(async () => {
  await Promise.all([withStripe.close(), without.close()]);
  await fake.close();
});

type Signed = TestUser & { token: string };

/** A customer with a signed-in client, its portal-mode contract with a Stripe customer, and a pay-link one. */
async function setUp(ctx: TestContext) {
  const customer = await createTestCustomer(ctx.db);
  const client: Signed = await ctx.signIn(await createTestUser(ctx.db, { role: 'client', customerId: customer.id }));
  const rep: Signed = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales' }));
  const stripeCustomerId = `cus_${randomUUID().replace(/-/g, '').slice(0, 14)}`;
  const [portal, payLink] = await ctx.db
    .insert(contracts)
    .values([
      {
        customerId: customer.id,
        salesRepId: rep.id,
        status: 'active',
        paymentMode: 'portal',
        startDate: '2026-01-01',
        stripeCustomerId,
      },
      { customerId: customer.id, status: 'active', paymentMode: 'pay_link', startDate: '2026-01-01' },
    ])
    .returning();
  const otherCustomer = await createTestCustomer(ctx.db);
  const [theirs] = await ctx.db
    .insert(contracts)
    .values({
      customerId: otherCustomer.id,
      status: 'active',
      paymentMode: 'portal',
      startDate: '2026-01-01',
      stripeCustomerId: 'cus_someoneelse',
    })
    .returning();
  return { client, rep, portal, payLink, theirs, stripeCustomerId };
}

const portalRequests = () => fake.requests.filter((r) => r.path === '/v1/billing_portal/sessions');

describe('with Stripe configured', () => {
  it("opens a Stripe billing-portal session for the contract's Stripe customer, returning to the client's page", async () => {
    const { client, portal, stripeCustomerId } = await setUp(withStripe);
    const before = portalRequests().length;
    const response = await withStripe.injectAs(client, {
      method: 'POST',
      url: `/api/client/contracts/${portal.id}/billing-portal`,
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.provider).toBe('stripe');
    expect(body.url).toMatch(/^https:\/\/billing\.stripe\.test\/p\/session\/bps_[0-9a-f]+$/);
    const sent = portalRequests().slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      method: 'POST',
      form: { customer: stripeCustomerId, return_url: `${ORIGIN}/portal/contracts/${portal.id}` },
      authorization: 'Bearer sk_test_portal_fake',
    });
  });

  it("lets staff who may read the contract open it, returning to the staff's contract page", async () => {
    const { rep, portal, stripeCustomerId } = await setUp(withStripe);
    for (const who of [rep, 'finance', 'admin'] as const) {
      const before = portalRequests().length;
      const response = await withStripe.injectAs(who, {
        method: 'POST',
        url: `/api/contracts/${portal.id}/billing-portal`,
      });
      expect(response.statusCode, `${typeof who === 'string' ? who : 'rep'}: ${response.body}`).toBe(200);
      expect(response.json().provider).toBe('stripe');
      expect(portalRequests().slice(before)[0].form).toEqual({
        customer: stripeCustomerId,
        return_url: `${ORIGIN}/contracts/${portal.id}`,
      });
    }
    // Another sales rep does not see the contract at all.
    const other = await withStripe.injectAs('sales', {
      method: 'POST',
      url: `/api/contracts/${portal.id}/billing-portal`,
    });
    expect(other.statusCode).toBe(404);
  });

  it("refuses another customer's contract (404), a pay-link contract (409); nothing reaches Stripe", async () => {
    const { client, payLink, theirs } = await setUp(withStripe);
    const before = portalRequests().length;
    const cases = [
      [theirs.id, 404, 'Contract not found'],
      [randomUUID(), 404, 'Contract not found'],
      [payLink.id, 409, 'This contract is paid through its payment link: its customer has no portal payment details'],
    ] as const;
    for (const [id, status, message] of cases) {
      const response = await withStripe.injectAs(client, {
        method: 'POST',
        url: `/api/client/contracts/${id}/billing-portal`,
      });
      expect(response.statusCode, id).toBe(status);
      expect(response.json().message).toBe(message);
    }
    expect(portalRequests().length).toBe(before);
  });

  it("opens the product's own page for a contract that has no Stripe customer yet", async () => {
    const { client, portal } = await setUp(withStripe);
    await withStripe.db.update(contracts).set({ stripeCustomerId: null }).where(eqId(portal.id));
    const response = await withStripe.injectAs(client, {
      method: 'POST',
      url: `/api/client/contracts/${portal.id}/billing-portal`,
    });
    expect(response.json()).toEqual({ url: `${ORIGIN}/portal/contracts/${portal.id}`, provider: 'builtin' });
  });

  it('answers 503 with a message when Stripe refuses the session', async () => {
    const { client, portal } = await setUp(withStripe);
    await withStripe.db.update(contracts).set({ stripeCustomerId: 'not-a-customer' }).where(eqId(portal.id));
    const response = await withStripe.injectAs(client, {
      method: 'POST',
      url: `/api/client/contracts/${portal.id}/billing-portal`,
    });
    expect(response.statusCode).toBe(503);
    expect(response.json().message).toBe(
      'The payment provider could not open the customer portal. Please try again in a moment.',
    );
  });
});

describe('without Stripe', () => {
  it("opens the product's own portal page of the contract, for the client and for staff", async () => {
    const { client, rep, portal } = await setUp(without);
    const before = fake.requests.length;
    for (const [who, url] of [
      [client, `/api/client/contracts/${portal.id}/billing-portal`],
      [rep, `/api/contracts/${portal.id}/billing-portal`],
    ] as const) {
      const response = await without.injectAs(who, { method: 'POST', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.json()).toEqual({ url: `${ORIGIN}/portal/contracts/${portal.id}`, provider: 'builtin' });
    }
    expect(fake.requests.length).toBe(before);
  });

  it('keeps the client route to clients and the staff route to staff', async () => {
    const { client, portal } = await setUp(without);
    expect(
      (await without.injectAs('admin', { method: 'POST', url: `/api/client/contracts/${portal.id}/billing-portal` }))
        .statusCode,
    ).toBe(403);
    expect(
      (await without.injectAs(client, { method: 'POST', url: `/api/contracts/${portal.id}/billing-portal` }))
        .statusCode,
    ).toBe(403);
  });
});

const eqId = (id: string) => eq(contracts.id, id);
