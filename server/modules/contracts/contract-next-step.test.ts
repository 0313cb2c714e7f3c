import type { ContractNextStep } from '@shared/contracts/contract-next-step';
import type { Contract } from '@shared/contracts/contract-responses';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { insertionOrders, invoices, notifications, outboxEmails, users } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { createBillableContract, setTaxSettings } from '../../test/billing-factories';
import { createTestCustomer, createTestProduct } from '../../test/catalog-factories';
import { createTestUser } from '../../test/factories';
import { createPayLinkContract, nextAddress, publicClient } from '../../test/payment-factories';

/**
 * The next step of a sent contract once its insertion order is signed, or when it was sent before insertion
 * orders (product.md section 17): the staff contract, the client's contract and list answer it, and the rep's
 * notice of the signature names it. Today is pinned to Mar 10, 2026; every expected value is written out.
 */

const TODAY = '2026-03-10';
const ORIGIN = 'https://next.example.test';
let ctx: TestContext;
let product: Awaited<ReturnType<typeof createTestProduct>>;

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(`${TODAY}T15:00:00Z`));
  ctx = await buildTestApp({ config: { PUBLIC_URL: ORIGIN } });
  await setTaxSettings(ctx.db, { defaultTaxRate: 0, taxIncluded: false, taxLabel: 'Tax' });
  product = await createTestProduct(ctx.db, { name: 'Lobby Screen Loop', defaultPriceCents: 200_00 });
});
afterAll(async () => {
  await ctx.close();
  vi.useRealTimers();
});

type SendOptions = { paymentMode: 'portal' | 'pay_link'; startDate: string; title: string };

/** The contract form's payload (the same for the edit, which sends every field). */
const formOf = (customerId: string, options: SendOptions) => ({
  customerId,
  startDate: options.startDate,
  termMonths: 3,
  title: options.title,
  setupFee: 0,
  paymentMode: options.paymentMode,
  packageId: null,
  sendToCustomer: true,
  makeActive: false,
  lineItems: [{ productId: product.id, quantity: 1, unitPrice: 200, discount: 0 }],
});

/** A contract the sales rep creates and sends (version 1 of its insertion order goes to the customer). */
async function sendContract(options: SendOptions) {
  const customer = await createTestCustomer(ctx.db, { name: `${options.title} Co` });
  const response = await ctx.injectAs('sales', {
    method: 'POST',
    url: '/api/contracts',
    payload: formOf(customer.id, options),
  });
  expect(response.statusCode, response.body).toBe(201);
  const contract = response.json() as Contract;
  const [io] = await ctx.db.select().from(insertionOrders).where(eq(insertionOrders.contractId, contract.id));
  return { contract, customer, ioToken: io.token };
}

const accept = (token: string) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/io/${token}/accept`,
    payload: { signerName: 'Ann Buyer', agree: true },
    remoteAddress: nextAddress(),
  });

async function staffStep(contractId: string): Promise<ContractNextStep | null> {
  const response = await ctx.injectAs('admin', { method: 'GET', url: `/api/contracts/${contractId}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().nextStep;
}

/** The portal account "Send to Customer" made for the customer, signed in. */
async function clientOf(customerId: string) {
  const [account] = await ctx.db.select().from(users).where(eq(users.customerId, customerId));
  return ctx.signIn({ ...account, password: '' });
}

async function clientSteps(client: Awaited<ReturnType<typeof clientOf>>, contractId: string) {
  const detail = await ctx.injectAs(client, { method: 'GET', url: `/api/client/contracts/${contractId}` });
  expect(detail.statusCode, detail.body).toBe(200);
  const list = await ctx.injectAs(client, { method: 'GET', url: '/api/client/contracts' });
  const row = (list.json() as { id: string; nextStep: ContractNextStep | null }[]).find((c) => c.id === contractId);
  return { detail: detail.json().nextStep, list: row!.nextStep };
}

describe('a portal contract', () => {
  it('has no next step while its insertion order waits; signed, it is ready to activate, its first invoice on its start date', async () => {
    const { contract, customer, ioToken } = await sendContract({
      paymentMode: 'portal',
      startDate: '2026-05-01',
      title: 'Spring Lobby',
    });
    const client = await clientOf(customer.id);
    expect(contract.nextStep).toBeNull();
    expect(await staffStep(contract.id)).toBeNull();
    expect(await clientSteps(client, contract.id)).toEqual({ detail: null, list: null });

    expect((await accept(ioToken)).statusCode).toBe(200);
    const signed = { kind: 'activation', signed: true, firstInvoiceOn: '2026-05-01' };
    expect(await staffStep(contract.id)).toEqual(signed);
    expect(await clientSteps(client, contract.id)).toEqual({ detail: signed, list: signed });

    // The rep's notice and the rep's copy of the signed record say what comes next.
    const rep = await ctx.as('sales');
    const [notice] = await ctx.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, rep.id), eq(notifications.link, `/contracts/${contract.id}`)));
    expect(notice.body).toBe(
      'Ann Buyer accepted version 1 of the insertion order for Spring Lobby Co. Signed, ready to activate: Activate it: ' +
        'its first invoice is issued on May 1, 2026 once it is active, and the client pays it with Pay Now in the portal.',
    );
    const [record] = await ctx.db
      .select()
      .from(outboxEmails)
      .where(
        and(
          eq(outboxEmails.to, rep.email),
          eq(outboxEmails.subject, 'Signed insertion order: Spring Lobby (version 1)'),
        ),
      );
    expect(record.text).toContain(
      'Next step: Signed, ready to activate: Activate it: its first invoice is issued on May 1, 2026',
    );
    const [customerCopy] = await ctx.db
      .select()
      .from(outboxEmails)
      .where(
        and(
          eq(outboxEmails.to, customer.email),
          eq(outboxEmails.subject, 'Signed insertion order: Spring Lobby (version 1)'),
        ),
      );
    expect(customerCopy.text).not.toContain('Next step');

    // Activated early, it bills nothing before May 1 and has no next step.
    const activated = await ctx.injectAs('admin', { method: 'POST', url: `/api/contracts/${contract.id}/activate` });
    expect(activated.statusCode, activated.body).toBe(200);
    expect(activated.json().nextStep).toBeNull();
    expect(await ctx.db.select().from(invoices).where(eq(invoices.contractId, contract.id))).toEqual([]);
  });

  it('whose start date has passed: its first invoice is issued today, on activation', async () => {
    const { contract, customer, ioToken } = await sendContract({
      paymentMode: 'portal',
      startDate: '2026-02-02',
      title: 'Late Winter Lobby',
    });
    expect((await accept(ioToken)).statusCode).toBe(200);
    const step = { kind: 'activation', signed: true, firstInvoiceOn: TODAY };
    expect(await staffStep(contract.id)).toEqual(step);
    expect((await clientSteps(await clientOf(customer.id), contract.id)).detail).toEqual(step);
  });

  it('declined, or changed since it was sent: no next step (the insertion order step says what to do)', async () => {
    const declined = await sendContract({ paymentMode: 'portal', startDate: '2026-05-01', title: 'Declined Lobby' });
    const refused = await ctx.app.inject({
      method: 'POST',
      url: `/api/io/${declined.ioToken}/decline`,
      payload: { reason: 'Not this year' },
      remoteAddress: nextAddress(),
    });
    expect(refused.statusCode).toBe(200);
    expect(await staffStep(declined.contract.id)).toBeNull();

    const options = { paymentMode: 'portal', startDate: '2026-05-01', title: 'Changed Lobby' } as const;
    const changed = await sendContract(options);
    expect((await accept(changed.ioToken)).statusCode).toBe(200);
    const edit = await ctx.injectAs('sales', {
      method: 'PATCH',
      url: `/api/contracts/${changed.contract.id}`,
      payload: { ...formOf(changed.customer.id, options), sendToCustomer: false, description: 'Two screens' },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json().insertionOrder.status).toBe('superseded');
    expect(await staffStep(changed.contract.id)).toBeNull();
  });
});

describe('a pay-link contract', () => {
  it('signed, waits for its first payment, which its pay page now asks for', async () => {
    const { contract, ioToken } = await sendContract({
      paymentMode: 'pay_link',
      startDate: '2026-04-06',
      title: 'Marquee Spot',
    });
    expect((await accept(ioToken)).statusCode).toBe(200);
    expect(await staffStep(contract.id)).toEqual({ kind: 'first_payment', signed: true, firstInvoiceOn: '2026-04-06' });
    const rep = await ctx.as('sales');
    const [notice] = await ctx.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, rep.id), eq(notifications.link, `/contracts/${contract.id}`)));
    expect(notice.body).toBe(
      'Ann Buyer accepted version 1 of the insertion order for Marquee Spot Co. Signed, waiting for first payment: ' +
        'The pay link asks the customer for the first invoice; paying it activates the contract. You may activate it sooner.',
    );
  });
});

describe('a contract sent before insertion orders (no version)', () => {
  it('portal: ready to activate; pay link: waiting for first payment; both say so to the client', async () => {
    const customer = await createTestCustomer(ctx.db);
    const client = await ctx.signIn(await createTestUser(ctx.db, { role: 'client', customerId: customer.id }));
    const { contract: portal } = await createBillableContract(ctx.db, {
      status: 'sent',
      paymentMode: 'portal',
      customerId: customer.id,
      startDate: '2026-04-15',
      lines: [{ unitPriceCents: 90_00 }],
    });
    const { contract: linked, token } = await createPayLinkContract(ctx.db, {
      status: 'sent',
      customerId: customer.id,
      startDate: '2026-01-05',
      lines: [{ unitPriceCents: 90_00 }],
    });
    const portalStep = { kind: 'activation', signed: false, firstInvoiceOn: '2026-04-15' };
    const linkStep = { kind: 'first_payment', signed: false, firstInvoiceOn: TODAY };
    expect(await staffStep(portal.id)).toEqual(portalStep);
    expect(await staffStep(linked.id)).toEqual(linkStep);
    expect(await clientSteps(client, portal.id)).toEqual({ detail: portalStep, list: portalStep });
    expect(await clientSteps(client, linked.id)).toEqual({ detail: linkStep, list: linkStep });
    // Its pay page offers the first payment (no insertion order to sign first).
    const page = (await publicClient(ctx.app).getPayLink(token)).json();
    expect(page).toMatchObject({ state: 'due', insertionOrder: null, totalDue: 90 });
  });
});
