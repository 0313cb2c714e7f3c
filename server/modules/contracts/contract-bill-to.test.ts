import { AGENCY_MESSAGES } from '@shared/contracts/agencies';
import type { Contract, ContractSummary } from '@shared/contracts/contract-responses';
import type { ContractInsertionOrders } from '@shared/contracts/insertion-orders';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts, contracts, insertionOrders, outboxEmails } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { setTaxSettings } from '../../test/billing-factories';
import { createTestCustomer, createTestProduct } from '../../test/catalog-factories';
import { pdfText } from '../../test/pdf';

/**
 * A contract for a represented advertiser is billed to its agency (product.md section 20): the default bill-to
 * is the agency of record on the start date, the agency's terms are kept on the contract, an explicit bill-to
 * is the advertiser or that agency only, and the IO and the send e-mail go to the agency's billing contact
 * naming both ("Advertiser: Bella Notte Trattoria — Billed to: Cardinal Media").
 */

const YEAR = new Date().getUTCFullYear() + 1;
const START = `${YEAR}-03-01`;

let ctx: TestContext;
let productId: string;

beforeAll(async () => {
  ctx = await buildTestApp({ config: { PUBLIC_URL: 'https://bill-to.example.test' } });
  await setTaxSettings(ctx.db, { defaultTaxRate: 0, taxIncluded: false, taxLabel: 'Tax' });
  productId = (await createTestProduct(ctx.db, { name: 'Dinner Hour Spot', defaultPriceCents: 400_00 })).id;
});
afterAll(async () => {
  await ctx.app.mailer.idle();
  await ctx.close();
});

async function agencyOfRecord(
  advertiserId: string,
  agencyId: string,
  terms: { commissionBp: number; mode: 'net' | 'gross'; from: string; to?: string | null },
) {
  await ctx.db.execute(sql`insert into customer_agencies (advertiser_id, agency_id, commission_bp, billing_mode, from_date, to_date)
    values (${advertiserId}, ${agencyId}, ${terms.commissionBp}, ${terms.mode}, ${terms.from}, ${terms.to ?? null})`);
}

/** An advertiser represented by a new agency from January 1 (net, 15%), and the agency. */
async function represented(names: { advertiser: string; agency: string }, commissionBp = 1500) {
  const advertiser = await createTestCustomer(ctx.db, { name: names.advertiser });
  const agency = await createTestCustomer(ctx.db, { name: names.agency, kind: 'agency', agencyCommissionBp: 1500 });
  await agencyOfRecord(advertiser.id, agency.id, { commissionBp, mode: 'net', from: `${YEAR}-01-01` });
  return { advertiser, agency };
}

const body = (customerId: string, extra: Record<string, unknown> = {}) => ({
  customerId,
  startDate: START,
  termMonths: 3,
  paymentMode: 'pay_link',
  packageId: null,
  sendToCustomer: false,
  makeActive: false,
  lineItems: [{ productId, quantity: 1, unitPrice: 400, discount: 0 }],
  ...extra,
});

async function create(payload: object): Promise<Contract> {
  const response = await ctx.injectAs('admin', { method: 'POST', url: '/api/contracts', payload });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

async function stored(id: string) {
  const [row] = await ctx.db.select().from(contracts).where(eq(contracts.id, id));
  return row;
}

describe('the default bill-to', () => {
  it('is the customer itself when it has no agency of record', async () => {
    const customer = await createTestCustomer(ctx.db, { name: 'Lakeside Motors' });
    const contract = await create(body(customer.id));
    expect(contract).toMatchObject({
      customerId: customer.id,
      billToCustomerId: customer.id,
      billToName: 'Lakeside Motors',
      agencyCommissionPercent: null,
      agencyBillingMode: null,
    });
    expect(await stored(contract.id)).toMatchObject({
      billToCustomerId: customer.id,
      agencyCommissionBp: null,
      agencyBillingMode: null,
    });
  });

  it('is the agency of record on the start date, with its commission and billing mode stored', async () => {
    const { advertiser, agency } = await represented(
      { advertiser: 'Bella Notte Trattoria', agency: 'Cardinal Media' },
      1250,
    );
    const contract = await create(body(advertiser.id));
    expect(contract).toMatchObject({
      customerId: advertiser.id,
      customerName: 'Bella Notte Trattoria',
      billToCustomerId: agency.id,
      billToName: 'Cardinal Media',
      agencyCommissionPercent: 12.5,
      agencyBillingMode: 'net',
    });
    expect(await stored(contract.id)).toMatchObject({
      billToCustomerId: agency.id,
      agencyCommissionBp: 1250,
      agencyBillingMode: 'net',
    });
    // The list answers the same, from its one statement.
    const list = await ctx.injectAs('admin', { method: 'GET', url: `/api/contracts?customerId=${advertiser.id}` });
    expect(list.statusCode, list.body).toBe(200);
    const rows: ContractSummary[] = list.json();
    expect(rows.find((row) => row.id === contract.id)).toMatchObject({
      billToCustomerId: agency.id,
      billToName: 'Cardinal Media',
      agencyCommissionPercent: 12.5,
      agencyBillingMode: 'net',
    });
  });

  it('is the customer when the agency of record does not cover the start date', async () => {
    const advertiser = await createTestCustomer(ctx.db, { name: 'Harbor Bakery' });
    const agency = await createTestCustomer(ctx.db, { name: 'Gull Agency', kind: 'agency' });
    await agencyOfRecord(advertiser.id, agency.id, {
      commissionBp: 1500,
      mode: 'gross',
      from: `${YEAR}-01-01`,
      to: `${YEAR}-02-28`,
    });
    const contract = await create(body(advertiser.id));
    expect(contract).toMatchObject({ billToCustomerId: advertiser.id, agencyCommissionPercent: null });
  });
});

describe('an explicit bill-to', () => {
  it('may be the advertiser itself: billed to it, no agency terms', async () => {
    const { advertiser } = await represented({ advertiser: 'Pine Street Deli', agency: 'North Star Media' });
    const contract = await create(body(advertiser.id, { billToCustomerId: advertiser.id }));
    expect(contract).toMatchObject({
      billToCustomerId: advertiser.id,
      billToName: 'Pine Street Deli',
      agencyCommissionPercent: null,
      agencyBillingMode: null,
    });
  });

  it('may be the agency of record, gross terms kept', async () => {
    const advertiser = await createTestCustomer(ctx.db, { name: 'Maple Cinemas' });
    const agency = await createTestCustomer(ctx.db, { name: 'Oak Agency', kind: 'agency' });
    await agencyOfRecord(advertiser.id, agency.id, { commissionBp: 1000, mode: 'gross', from: `${YEAR}-01-01` });
    const contract = await create(body(advertiser.id, { billToCustomerId: agency.id }));
    expect(contract).toMatchObject({
      billToCustomerId: agency.id,
      agencyCommissionPercent: 10,
      agencyBillingMode: 'gross',
    });
  });

  it('that is neither the customer nor its agency of record is refused with 400 and nothing is saved', async () => {
    const { advertiser } = await represented({ advertiser: 'Willow Spa', agency: 'Birch Media' });
    const otherAgency = await createTestCustomer(ctx.db, { name: 'Elm Media', kind: 'agency' });
    const stranger = await createTestCustomer(ctx.db, { name: 'Someone Else' });
    const unknown = '5b0c7a4e-2f7d-4d59-9a77-0d3c2b1e9f10';
    for (const billToCustomerId of [otherAgency.id, stranger.id, unknown, 'not-an-id']) {
      const before = await ctx.db.select({ n: count() }).from(contracts);
      const response = await ctx.injectAs('admin', {
        method: 'POST',
        url: '/api/contracts',
        payload: body(advertiser.id, { billToCustomerId, sendToCustomer: true }),
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().fieldErrors).toEqual({
        billToCustomerId: ['Bill to must be the customer or its agency of record'],
      });
      expect(AGENCY_MESSAGES.billToInvalid).toBe('Bill to must be the customer or its agency of record');
      const after = await ctx.db.select({ n: count() }).from(contracts);
      expect(after[0].n).toBe(before[0].n);
    }
    // A customer with no agency of record cannot be billed to an agency either.
    const alone = await createTestCustomer(ctx.db, { name: 'Solo Florist' });
    const response = await ctx.injectAs('admin', {
      method: 'POST',
      url: '/api/contracts',
      payload: body(alone.id, { billToCustomerId: otherAgency.id }),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors.billToCustomerId).toEqual([
      'Bill to must be the customer or its agency of record',
    ]);
  });
});

describe('editing a draft', () => {
  it('decides the bill-to again when the start date moves out of the agency period, and when the bill-to changes', async () => {
    const advertiser = await createTestCustomer(ctx.db, { name: 'Copper Kettle' });
    const agency = await createTestCustomer(ctx.db, { name: 'Brass Agency', kind: 'agency' });
    await agencyOfRecord(advertiser.id, agency.id, { commissionBp: 2000, mode: 'net', from: `${YEAR}-02-01` });
    const draft = await create(body(advertiser.id));
    expect(draft).toMatchObject({ billToCustomerId: agency.id, agencyCommissionPercent: 20 });

    const patch = (payload: object) =>
      ctx.injectAs('admin', { method: 'PATCH', url: `/api/contracts/${draft.id}`, payload });
    const earlier = await patch(body(advertiser.id, { startDate: `${YEAR}-01-15` }));
    expect(earlier.statusCode, earlier.body).toBe(200);
    expect(earlier.json()).toMatchObject({ billToCustomerId: advertiser.id, agencyCommissionPercent: null });

    const back = await patch(body(advertiser.id, { billToCustomerId: null }));
    expect(back.json()).toMatchObject({
      billToCustomerId: agency.id,
      agencyCommissionPercent: 20,
      agencyBillingMode: 'net',
    });

    const itself = await patch(body(advertiser.id, { billToCustomerId: advertiser.id }));
    expect(itself.json()).toMatchObject({ billToCustomerId: advertiser.id, agencyBillingMode: null });

    // An edit that changes none of customer, start date or bill-to keeps what the contract has.
    const kept = await patch(body(advertiser.id, { description: 'Spring menu' }));
    expect(kept.json()).toMatchObject({ billToCustomerId: advertiser.id, description: 'Spring menu' });

    const refused = await patch(body(advertiser.id, { billToCustomerId: (await createTestCustomer(ctx.db)).id }));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fieldErrors.billToCustomerId).toEqual([AGENCY_MESSAGES.billToInvalid]);
    expect(await stored(draft.id)).toMatchObject({ billToCustomerId: advertiser.id, description: 'Spring menu' });
  });
});

describe('sending a contract billed to the agency', () => {
  it("e-mails the agency's billing contact, and the IO names both and is addressed to the agency", async () => {
    const { advertiser, agency } = await represented({ advertiser: 'Bella Notte Trattoria', agency: 'Cardinal Media' });
    await ctx.db
      .insert(contacts)
      .values({ customerId: agency.id, name: 'Rita Accounts', email: 'ap@cardinal.test', isBilling: true });
    const contract = await create(body(advertiser.id, { sendToCustomer: true, title: 'Trattoria spring' }));
    expect(contract.status).toBe('sent');
    expect(contract.billToCustomerId).toBe(agency.id);

    const mails = await ctx.db.select().from(outboxEmails).where(eq(outboxEmails.entityId, contract.id));
    const send = mails.find((m) => m.subject === 'Your contract Trattoria spring is ready for payment');
    expect(send, JSON.stringify(mails.map((m) => [m.to, m.subject]))).toBeDefined();
    expect(send!.to).toBe('ap@cardinal.test');
    expect(send!.text).toContain('Hello Rita,');
    expect(send!.text).toContain('Advertiser: Bella Notte Trattoria — Billed to: Cardinal Media');
    expect(mails.map((m) => m.to)).not.toContain(advertiser.email);

    // The IO: the link's e-mail (the signer's) is the agency's billing contact.
    const [io] = await ctx.db.select().from(insertionOrders).where(eq(insertionOrders.contractId, contract.id));
    expect(io.customerEmail).toBe('ap@cardinal.test');
    const staff = await ctx.injectAs('admin', { method: 'GET', url: `/api/contracts/${contract.id}/io` });
    const versions: ContractInsertionOrders = staff.json();
    expect(versions.versions[0].customerEmail).toBe('ap@cardinal.test');
    const pdf = await ctx.injectAs('admin', { method: 'GET', url: versions.versions[0].pdfUrl });
    expect(pdf.statusCode).toBe(200);
    const text = pdfText(pdf.rawPayload);
    expect(text).toContain('Advertiser: Bella Notte Trattoria — Billed to: Cardinal Media');
    expect(text).toContain('ap@cardinal.test');
    // The public IO page's figures name both too.
    const page = await ctx.app.inject({ method: 'GET', url: `/api/io/${io.token}` });
    expect(page.json().figures).toMatchObject({
      customerName: 'Cardinal Media',
      advertiserName: 'Bella Notte Trattoria',
      customerEmail: 'ap@cardinal.test',
    });
  });

  it("a contract billed to the advertiser itself goes to the advertiser's own address and names one customer", async () => {
    const { advertiser } = await represented({ advertiser: 'Corner Grocer', agency: 'Market Media' });
    const contract = await create(
      body(advertiser.id, { sendToCustomer: true, title: 'Grocer fall', billToCustomerId: advertiser.id }),
    );
    const mails = await ctx.db.select().from(outboxEmails).where(eq(outboxEmails.entityId, contract.id));
    const send = mails.find((m) => m.subject === 'Your contract Grocer fall is ready for payment')!;
    expect(send.to).toBe(advertiser.email);
    expect(send.text).not.toContain('Billed to');
  });
});

describe('renewing', () => {
  it('takes the bill-to from the agency of record on the renewal start', async () => {
    const advertiser = await createTestCustomer(ctx.db, { name: 'Lantern Books' });
    const agency = await createTestCustomer(ctx.db, { name: 'Beacon Agency', kind: 'agency' });
    const original = await create(body(advertiser.id, { startDate: `${YEAR}-01-05`, termMonths: 2, makeActive: true }));
    expect(original).toMatchObject({ status: 'active', billToCustomerId: advertiser.id });
    // Represented from February: the renewal (from March 5) is billed to the agency.
    await agencyOfRecord(advertiser.id, agency.id, { commissionBp: 1500, mode: 'gross', from: `${YEAR}-02-01` });
    const renewal = await ctx.injectAs('admin', { method: 'POST', url: `/api/contracts/${original.id}/renew` });
    expect(renewal.statusCode, renewal.body).toBe(201);
    expect(renewal.json()).toMatchObject({
      startDate: `${YEAR}-03-05`,
      billToCustomerId: agency.id,
      billToName: 'Beacon Agency',
      agencyCommissionPercent: 15,
      agencyBillingMode: 'gross',
    });
  });
});
