import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TEST_CARDS } from '@shared/contracts/checkout';
import type { PortalContract } from '@shared/contracts/client-portal';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { autopayAttempts, contracts, invoices, outboxEmails } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { createBillableContract, setContractSettings, setTaxSettings } from '../../test/billing-factories';
import { createTestCustomer } from '../../test/catalog-factories';
import { createTestUser, type TestUser } from '../../test/factories';
import { card, checkoutToken, nextAddress, publicClient } from '../../test/payment-factories';
import { multipartBody, PNG } from '../../test/upload-fixtures';
import { runAutopayCharges } from '../autopay/autopay-charges.service';
import { runBilling } from '../billing/billing-run';
import { runDunning } from '../dunning/dunning.service';

/**
 * Agencies in the client portal (product.md section 20, decision 060): a client's scope is "billed to my
 * customer". The agency Cardinal Media is billed for two advertisers (Bella Notte Trattoria, Harbor Lights); Bella
 * also has a contract billed to itself; another agency, Northwind, is billed for Zephyr Bikes. Each party's client
 * user sees, pays, signs and uploads for exactly what is billed to its customer; every other id answers 404.
 */

type Signed = TestUser & { token: string };
const ORIGIN = 'https://agency.example.test';
let ctx: TestContext;
let dataDir: string;
let agency: { id: string; client: Signed };
let otherAgency: { id: string; client: Signed };
let bella: { id: string; client: Signed };
let harborId: string;
type Billed = { contractId: string; invoiceId: string; number: string; dueDate: string };
let bellaViaAgency: Billed;
let harborViaAgency: Billed;
let bellaOwn: Billed;
let zephyrViaOther: Billed;
let harborIo: { id: string };

const today = () => new Date().toISOString().slice(0, 10);
const plusDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

async function partyOf(name: string, kind: 'advertiser' | 'agency') {
  const slug = name.toLowerCase().replace(/\W+/g, '-');
  const customer = await createTestCustomer(ctx.db, { name, kind, email: `billing@${slug}.test` });
  const client = await ctx.signIn(await createTestUser(ctx.db, { role: 'client', customerId: customer.id }));
  return { id: customer.id, client };
}

/** A contract of the advertiser billed to `billTo` (set before any invoice is issued), and its first invoice. */
async function billedContract(title: string, advertiserId: string, billTo: string): Promise<Billed> {
  const { contract } = await createBillableContract(ctx.db, {
    title,
    customerId: advertiserId,
    startDate: today(),
    lines: [{ unitPriceCents: 100_00 }],
  });
  await ctx.db.update(contracts).set({ billToCustomerId: billTo }).where(eq(contracts.id, contract.id));
  await runBilling(ctx.db, { contractId: contract.id, baseUrl: ORIGIN });
  const [invoice] = await ctx.db.select().from(invoices).where(eq(invoices.contractId, contract.id));
  expect(invoice!.billToCustomerId).toBe(billTo);
  return { contractId: contract.id, invoiceId: invoice!.id, number: invoice!.number, dueDate: invoice!.dueDate };
}

const get = (who: Signed, url: string) => ctx.injectAs(who, { method: 'GET', url });
const ids = (rows: { id: string }[]) => rows.map((row) => row.id).sort();

function upload(who: Signed, contractId: string) {
  const body = multipartBody([
    { name: 'contractId', value: contractId },
    { name: 'file', filename: 'banner.png', type: 'image/png', content: PNG },
  ]);
  return ctx.injectAs(who, { method: 'POST', url: '/api/client/creatives', ...body });
}

/** Every client route that names a contract or an invoice, with these ids. */
const probes = (contractId: string, invoiceId: string) =>
  [
    ['GET', `/api/client/contracts/${contractId}`],
    ['GET', `/api/client/contracts/${contractId}/schedule`],
    ['POST', `/api/client/contracts/${contractId}/billing-portal`],
    ['GET', `/api/contracts/${contractId}/creatives`],
    ['GET', `/api/contracts/${contractId}/delivery`],
    ['GET', `/api/invoices/${invoiceId}`],
    ['GET', `/api/invoices/${invoiceId}/pdf`],
    ['GET', `/api/invoices/${invoiceId}/timeline`],
    ['POST', `/api/invoices/${invoiceId}/checkout`],
  ] as const;

async function expectRefused(who: Signed, contractId: string, invoiceId: string) {
  for (const [method, url] of probes(contractId, invoiceId)) {
    const response = await ctx.injectAs(who, { method, url });
    expect(response.statusCode, `${method} ${url}`).toBe(404);
  }
  expect((await upload(who, contractId)).statusCode, 'POST /api/client/creatives').toBe(404);
  const filtered = await get(who, `/api/invoices?contractId=${contractId}`);
  expect(filtered.json(), 'GET /api/invoices?contractId=').toEqual([]);
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'adcrm-agency-portal-'));
  ctx = await buildTestApp({ config: { PUBLIC_URL: ORIGIN, DATA_DIR: dataDir } });
  await setTaxSettings(ctx.db, { defaultTaxRate: 0, taxIncluded: false, taxLabel: 'Tax' });
  await setContractSettings(ctx.db, { pausePaymentsAfterExpiry: true, gracePeriodsEndOfDays: 7 });
  agency = await partyOf('Cardinal Media', 'agency');
  otherAgency = await partyOf('Northwind Agency', 'agency');
  bella = await partyOf('Bella Notte Trattoria', 'advertiser');
  harborId = (await partyOf('Harbor Lights', 'advertiser')).id;
  const zephyrId = (await partyOf('Zephyr Bikes', 'advertiser')).id;

  bellaViaAgency = await billedContract('Bella winter menu', bella.id, agency.id);
  harborViaAgency = await billedContract('Harbor spring sail', harborId, agency.id);
  bellaOwn = await billedContract('Bella direct', bella.id, bella.id);
  zephyrViaOther = await billedContract('Zephyr summer', zephyrId, otherAgency.id);

  // A pay-link contract of Harbor billed to the agency, sent with its insertion order to sign.
  const { contract } = await createBillableContract(ctx.db, {
    title: 'Harbor regatta',
    customerId: harborId,
    status: 'draft',
    paymentMode: 'pay_link',
    startDate: plusDays(today(), 40),
    lines: [{ unitPriceCents: 50_00 }],
  });
  await ctx.db.update(contracts).set({ billToCustomerId: agency.id }).where(eq(contracts.id, contract.id));
  const sent = await ctx.injectAs('admin', { method: 'POST', url: `/api/contracts/${contract.id}/send` });
  expect(sent.statusCode, sent.body).toBe(200);
  harborIo = { id: contract.id };
});
afterAll(async () => {
  await ctx.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("an agency's client user", () => {
  it('lists every contract billed to the agency, with its advertiser, and nothing else', async () => {
    const response = await get(agency.client, '/api/client/contracts');
    expect(response.statusCode).toBe(200);
    const rows = (response.json() as PortalContract[])
      .map((c) => ({ id: c.id, title: c.title, advertiserId: c.advertiserId, advertiserName: c.advertiserName }))
      .sort((a, b) => a.title!.localeCompare(b.title!));
    expect(rows).toEqual([
      {
        id: bellaViaAgency.contractId,
        title: 'Bella winter menu',
        advertiserId: bella.id,
        advertiserName: 'Bella Notte Trattoria',
      },
      { id: harborIo.id, title: 'Harbor regatta', advertiserId: harborId, advertiserName: 'Harbor Lights' },
      {
        id: harborViaAgency.contractId,
        title: 'Harbor spring sail',
        advertiserId: harborId,
        advertiserName: 'Harbor Lights',
      },
    ]);
    const detail = await get(agency.client, `/api/client/contracts/${bellaViaAgency.contractId}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({ advertiserId: bella.id, advertiserName: 'Bella Notte Trattoria' });
  });

  it("lists the agency-billed invoices on both lists, named by advertiser; the figures are the agency's", async () => {
    for (const url of ['/api/client/invoices', '/api/invoices']) {
      const response = await get(agency.client, url);
      expect(response.statusCode, url).toBe(200);
      const rows = response.json() as { id: string; customerId: string; customerName: string; amount: number }[];
      expect(ids(rows), url).toEqual([bellaViaAgency.invoiceId, harborViaAgency.invoiceId].sort());
      expect(rows.map((r) => [r.customerName, r.amount]).sort(), url).toEqual([
        ['Bella Notte Trattoria', 100],
        ['Harbor Lights', 100],
      ]);
    }
    expect((await get(agency.client, `/api/invoices/${bellaViaAgency.invoiceId}`)).statusCode).toBe(200);
    const summary = (await get(agency.client, '/api/client/summary')).json();
    expect(summary).toMatchObject({ activeContracts: 2, pendingInvoices: 2, outstandingBalance: 200 });
  });

  it("signs the insertion order of an advertiser's contract billed to the agency", async () => {
    const before = (await get(agency.client, `/api/client/contracts/${harborIo.id}`)).json();
    expect(before.insertionOrder).toMatchObject({ version: 1, status: 'sent' });
    const accepted = await ctx.app.inject({
      method: 'POST',
      url: `/api/io/${before.insertionOrder.token}/accept`,
      payload: { signerName: 'Carla Cardinal', agree: true },
      remoteAddress: nextAddress(),
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const after = (await get(agency.client, `/api/client/contracts/${harborIo.id}`)).json();
    expect(after.insertionOrder).toMatchObject({ version: 1, status: 'accepted' });
  });

  it("pays one of the agency's invoices with Pay Now", async () => {
    const opened = await ctx.injectAs(agency.client, {
      method: 'POST',
      url: `/api/invoices/${harborViaAgency.invoiceId}/checkout`,
    });
    expect(opened.statusCode, opened.body).toBe(200);
    const paid = await publicClient(ctx.app).pay(checkoutToken(opened.json().checkoutUrl), card());
    expect(paid.statusCode, paid.body).toBe(200);
    const [invoice] = await ctx.db.select().from(invoices).where(eq(invoices.id, harborViaAgency.invoiceId));
    expect(invoice).toMatchObject({ status: 'paid', amountPaidCents: 100_00 });
    const summary = (await get(agency.client, '/api/client/summary')).json();
    expect(summary).toMatchObject({ pendingInvoices: 1, outstandingBalance: 100 });
  });

  it("uploads a creative for an agency-billed contract; the advertiser's own users do not see it", async () => {
    const uploaded = await upload(agency.client, bellaViaAgency.contractId);
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const id = uploaded.json().id as string;
    expect(ids((await get(agency.client, '/api/client/creatives')).json())).toEqual([id]);
    expect((await get(bella.client, '/api/client/creatives')).json()).toEqual([]);
    expect((await get(bella.client, `/api/creatives/${id}/download`)).statusCode).toBe(404);
  });

  it("is charged by autopay from the agency's own card for the invoices billed to it, never the advertiser's", async () => {
    const start = await ctx.injectAs(agency.client, { method: 'POST', url: '/api/client/payment-methods/setup' });
    expect(start.statusCode, start.body).toBe(200);
    const token = new URL(start.json().url).pathname.split('/').pop()!;
    const saved = await ctx.app.inject({
      method: 'POST',
      url: `/api/setup/${token}`,
      payload: { ...card(TEST_CARDS.visa), consent: true, makeDefault: true },
      remoteAddress: nextAddress(),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const latest = [bellaViaAgency, bellaOwn, zephyrViaOther].map((b) => b.dueDate).sort()[2]!;
    await runAutopayCharges({ db: ctx.db, mailer: ctx.app.mailer, baseUrl: ORIGIN }, { today: latest });
    const statuses = await ctx.db
      .select({ id: invoices.id, status: invoices.status })
      .from(invoices)
      .where(eq(invoices.billToCustomerId, agency.id))
      .orderBy(asc(invoices.number));
    expect(statuses.map((s) => s.status)).toEqual(['paid', 'paid']);
    const attempts = await ctx.db
      .select({ invoiceId: autopayAttempts.invoiceId, customerId: autopayAttempts.customerId })
      .from(autopayAttempts)
      .where(eq(autopayAttempts.customerId, agency.id));
    expect(attempts).toEqual([{ invoiceId: bellaViaAgency.invoiceId, customerId: agency.id }]);
    for (const other of [bellaOwn, zephyrViaOther]) {
      const [row] = await ctx.db.select().from(invoices).where(eq(invoices.id, other.invoiceId));
      expect(row!.status).toBe('pending');
    }
  });

  it("gets 404 for the advertiser's own contract and invoice, and for another agency's", async () => {
    await expectRefused(agency.client, bellaOwn.contractId, bellaOwn.invoiceId);
    await expectRefused(agency.client, zephyrViaOther.contractId, zephyrViaOther.invoiceId);
  });
});

describe("the advertiser's own client user", () => {
  it('sees only the contract and invoice billed to itself', async () => {
    const listed = (await get(bella.client, '/api/client/contracts')).json() as PortalContract[];
    expect(listed.map((c) => [c.id, c.advertiserName])).toEqual([[bellaOwn.contractId, 'Bella Notte Trattoria']]);
    for (const url of ['/api/client/invoices', '/api/invoices']) {
      expect(ids((await get(bella.client, url)).json()), url).toEqual([bellaOwn.invoiceId]);
    }
    const summary = (await get(bella.client, '/api/client/summary')).json();
    expect(summary).toMatchObject({ activeContracts: 1, pendingInvoices: 1, outstandingBalance: 100 });
  });

  it("gets 404 for its contracts billed to its agency, and for the agency's other advertisers'", async () => {
    await expectRefused(bella.client, bellaViaAgency.contractId, bellaViaAgency.invoiceId);
    await expectRefused(bella.client, harborViaAgency.contractId, harborViaAgency.invoiceId);
  });
});

describe("another agency's client user", () => {
  it("sees its own advertiser's contract and invoice, and gets 404 for Cardinal Media's", async () => {
    const listed = (await get(otherAgency.client, '/api/client/contracts')).json() as PortalContract[];
    expect(listed.map((c) => [c.id, c.advertiserName])).toEqual([[zephyrViaOther.contractId, 'Zephyr Bikes']]);
    expect(ids((await get(otherAgency.client, '/api/client/invoices')).json())).toEqual([zephyrViaOther.invoiceId]);
    await expectRefused(otherAgency.client, bellaViaAgency.contractId, bellaViaAgency.invoiceId);
    await expectRefused(otherAgency.client, harborIo.id, harborViaAgency.invoiceId);
  });
});

describe('reminders of an agency-billed invoice', () => {
  it("go to the agency, the payer, never to the advertiser's own address", async () => {
    await runDunning(
      { db: ctx.db, mailer: ctx.app.mailer, baseUrl: ORIGIN },
      { asOf: plusDays(zephyrViaOther.dueDate, 4), contractId: zephyrViaOther.contractId },
    );
    const reminders = await ctx.db
      .select({ to: outboxEmails.to, subject: outboxEmails.subject })
      .from(outboxEmails)
      .where(and(eq(outboxEmails.subject, `Reminder: invoice ${zephyrViaOther.number} is overdue`)));
    expect(reminders).toEqual([
      { to: 'billing@northwind-agency.test', subject: `Reminder: invoice ${zephyrViaOther.number} is overdue` },
    ]);
  });
});
