import { randomUUID } from 'node:crypto';
import { AGENCY_MESSAGES, type AgencyOfRecord } from '@shared/contracts/agencies';
import type { Customer } from '@shared/contracts/customers';
import type { Role } from '@shared/roles';
import { and, eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, customerAgencies, customers } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { createBillableContract } from '../../test/billing-factories';
import { daysFromToday, today } from '../../test/dates';
import { onlyOn } from '../../test/engine';
import { createTestUser, type TestUser } from '../../test/factories';

/**
 * Agencies (product.md section 20) over the API: a customer's kind (fixed once a contract names it), an agency's
 * default commission, an advertiser's agency of record (PUT/DELETE /api/customers/{id}/agency), an agency's
 * advertisers, each refusal with its message and nothing saved, a rep's scope, and two overlapping PUTs at once.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(() => ctx.close());

type Who = Role | (TestUser & { token: string });
const json = { 'content-type': 'application/json' };
const send = (who: Who, method: InjectOptions['method'], url: string, payload?: object) =>
  ctx.injectAs(who, payload ? { method, url, payload, headers: json } : { method, url });

async function newCustomer(fields: Record<string, unknown> = {}, who: Who = 'admin'): Promise<Customer> {
  const tag = randomUUID().slice(0, 8);
  const response = await send(who, 'POST', '/api/customers', {
    name: `Customer ${tag}`,
    email: `c-${tag}@example.test`,
    ...fields,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}
const newAgency = (fields: Record<string, unknown> = {}) => newCustomer({ kind: 'agency', ...fields });

const setAgency = (who: Who, advertiserId: string, body: object) =>
  send(who, 'PUT', `/api/customers/${advertiserId}/agency`, body);

const periodsIn = (advertiserId: string) =>
  ctx.db.select().from(customerAgencies).where(eq(customerAgencies.advertiserId, advertiserId));
const customerRow = async (id: string) => (await ctx.db.select().from(customers).where(eq(customers.id, id)))[0];
const auditOf = (id: string, action: string) =>
  ctx.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.entityId, id), eq(auditEvents.action, action)));

describe('a customer’s kind and an agency’s commission', () => {
  it('makes an advertiser by default, an agency with 15% unless given, and stores basis points', async () => {
    const advertiser = await newCustomer();
    expect(advertiser).toMatchObject({ kind: 'advertiser', agencyCommissionPercent: null, agencyOfRecord: null });
    const agency = await newAgency();
    expect(agency).toMatchObject({ kind: 'agency', agencyCommissionPercent: 15, agencyOfRecord: null });
    expect((await customerRow(agency.id)).agencyCommissionBp).toBe(1500);
    const own = await newAgency({ agencyCommissionPercent: '12.5' });
    expect(own.agencyCommissionPercent).toBe(12.5);
    expect((await customerRow(own.id)).agencyCommissionBp).toBe(1250);
  });

  it.each([
    [{ kind: 'agency', agencyCommissionPercent: 101 }, 'agencyCommissionPercent', AGENCY_MESSAGES.commissionInvalid],
    [{ kind: 'agency', agencyCommissionPercent: -1 }, 'agencyCommissionPercent', AGENCY_MESSAGES.commissionInvalid],
    [{ kind: 'agency', agencyCommissionPercent: 1.005 }, 'agencyCommissionPercent', AGENCY_MESSAGES.commissionInvalid],
    [{ agencyCommissionPercent: 10 }, 'agencyCommissionPercent', AGENCY_MESSAGES.commissionAgencyOnly],
    [{ kind: 'publisher' }, 'kind', AGENCY_MESSAGES.kindInvalid],
  ])('refuses %j with 400 on %s and saves nothing', async (fields, field, message) => {
    const name = `Refused ${randomUUID().slice(0, 8)}`;
    const response = await send('admin', 'POST', '/api/customers', { name, email: 'x@example.test', ...fields });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toEqual({ [field]: [message] });
    expect(await ctx.db.select().from(customers).where(eq(customers.name, name))).toEqual([]);
  });

  it('refuses an agency commission on an advertiser in an update, and changes nothing', async () => {
    const advertiser = await newCustomer();
    const response = await send('admin', 'PATCH', `/api/customers/${advertiser.id}`, {
      name: 'Renamed',
      agencyCommissionPercent: 20,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toEqual({ agencyCommissionPercent: [AGENCY_MESSAGES.commissionAgencyOnly] });
    expect((await customerRow(advertiser.id)).name).toBe(advertiser.name);
  });

  it('changes the kind while no contract names the customer; the commission follows', async () => {
    const customer = await newCustomer();
    const toAgency = await send('admin', 'PATCH', `/api/customers/${customer.id}`, { kind: 'agency' });
    expect(toAgency.statusCode).toBe(200);
    expect(toAgency.json()).toMatchObject({ kind: 'agency', agencyCommissionPercent: 15 });
    const back = await send('admin', 'PATCH', `/api/customers/${customer.id}`, { kind: 'advertiser' });
    expect(back.json()).toMatchObject({ kind: 'advertiser', agencyCommissionPercent: null });
    expect((await customerRow(customer.id)).agencyCommissionBp).toBeNull();
    const [audit] = await auditOf(customer.id, 'customer.updated');
    expect(audit.after).toMatchObject({ kind: 'agency' });
  });

  it('refuses to change the kind of a customer a contract names (as customer or bill-to) with 409, nothing changed', async () => {
    const advertiser = await newCustomer();
    await createBillableContract(ctx.db, { customerId: advertiser.id, startDate: today() });
    const refused = await send('admin', 'PATCH', `/api/customers/${advertiser.id}`, {
      kind: 'agency',
      name: 'Renamed',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(AGENCY_MESSAGES.kindFixed);
    expect(await customerRow(advertiser.id)).toMatchObject({ kind: 'advertiser', name: advertiser.name });

    const agency = await newAgency();
    const other = await newCustomer();
    await createBillableContract(ctx.db, {
      customerId: other.id,
      billToCustomerId: agency.id,
      agencyCommissionBp: 1500,
      agencyBillingMode: 'net',
      startDate: today(),
    });
    const billTo = await send('admin', 'PATCH', `/api/customers/${agency.id}`, { kind: 'advertiser' });
    expect(billTo.statusCode).toBe(409);
    expect(billTo.json().message).toBe(AGENCY_MESSAGES.kindFixed);
    expect(await customerRow(agency.id)).toMatchObject({ kind: 'agency', agencyCommissionBp: 1500 });
    // The same kind again, and other fields, are still fine.
    const same = await send('admin', 'PATCH', `/api/customers/${agency.id}`, { kind: 'agency', city: 'Austin' });
    expect(same.statusCode).toBe(200);
  });

  it('lists only agencies with ?kind=agency', async () => {
    const tag = randomUUID().slice(0, 8);
    const agency = await newAgency({ name: `Kindly ${tag} Agency` });
    await newCustomer({ name: `Kindly ${tag} Advertiser` });
    const response = await send('sales', 'GET', `/api/customers?kind=agency&q=${tag}`);
    expect(response.statusCode).toBe(200);
    expect(response.json().map((c: Customer) => c.id)).toEqual([agency.id]);
    expect((await send('sales', 'GET', '/api/customers?kind=other')).statusCode).toBe(400);
  });
});

describe('PUT /api/customers/{id}/agency', () => {
  it('sets the agency of record with the agency’s own commission; the customer shows it, the agency its advertiser', async () => {
    const agency = await newAgency({ name: `Cardinal Media ${randomUUID().slice(0, 6)}`, agencyCommissionPercent: 12 });
    const advertiser = await newCustomer();
    const response = await setAgency('sales_manager', advertiser.id, {
      agencyId: agency.id,
      billingMode: 'net',
      from: daysFromToday(-10),
    });
    expect(response.statusCode, response.body).toBe(200);
    const expected: AgencyOfRecord = {
      id: expect.any(String),
      advertiserId: advertiser.id,
      advertiserName: advertiser.name,
      agencyId: agency.id,
      agencyName: agency.name,
      commissionPercent: 12,
      billingMode: 'net',
      from: daysFromToday(-10),
      to: null,
    };
    expect(response.json()).toEqual([expected]);
    expect((await send('finance', 'GET', `/api/customers/${advertiser.id}`)).json().agencyOfRecord).toEqual(expected);
    const listed = (await send('sales', 'GET', `/api/customers?q=${encodeURIComponent(advertiser.name)}`)).json();
    expect(listed[0].agencyOfRecord).toEqual(expected);
    expect((await send('finance', 'GET', `/api/agencies/${agency.id}/advertisers`)).json()).toEqual([expected]);
    const [audit] = await auditOf(advertiser.id, 'customer.agency_set');
    expect(audit.after).toMatchObject({ agencyId: agency.id, commissionBp: 1200, billingMode: 'net' });
  });

  it('changes that agency’s overlapping period instead of adding one; a given commission wins', async () => {
    const agency = await newAgency();
    const advertiser = await newCustomer();
    await setAgency('admin', advertiser.id, { agencyId: agency.id, billingMode: 'net', from: daysFromToday(-30) });
    const changed = await setAgency('admin', advertiser.id, {
      agencyId: agency.id,
      billingMode: 'gross',
      commissionPercent: 10,
      from: daysFromToday(-30),
      to: daysFromToday(30),
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject([{ commissionPercent: 10, billingMode: 'gross', to: daysFromToday(30) }]);
    expect(await periodsIn(advertiser.id)).toHaveLength(1);
    expect(await auditOf(advertiser.id, 'customer.agency_updated')).toHaveLength(1);
  });

  it('keeps periods of different agencies apart, newest first', async () => {
    const [first, second] = [await newAgency(), await newAgency()];
    const advertiser = await newCustomer();
    await setAgency('admin', advertiser.id, {
      agencyId: first.id,
      billingMode: 'net',
      from: daysFromToday(-60),
      to: daysFromToday(-1),
    });
    const response = await setAgency('admin', advertiser.id, {
      agencyId: second.id,
      billingMode: 'gross',
      from: today(),
    });
    expect(response.json().map((p: AgencyOfRecord) => p.agencyId)).toEqual([second.id, first.id]);
    expect((await send('admin', 'GET', `/api/customers/${advertiser.id}`)).json().agencyOfRecord.agencyId).toBe(
      second.id,
    );
  });

  it('refuses each bad input with its status and message, and saves nothing', async () => {
    const agency = await newAgency();
    const advertiser = await newCustomer();
    const notAgency = await newCustomer();
    await setAgency('admin', advertiser.id, {
      agencyId: agency.id,
      billingMode: 'net',
      from: daysFromToday(-5),
      to: daysFromToday(5),
    });
    const ok = { agencyId: agency.id, billingMode: 'net', from: daysFromToday(20) };
    const cases: [id: string, body: object, status: number, message: string, field?: string][] = [
      [advertiser.id, { ...ok, commissionPercent: 100.5 }, 400, AGENCY_MESSAGES.commissionInvalid, 'commissionPercent'],
      [advertiser.id, { ...ok, commissionPercent: -2 }, 400, AGENCY_MESSAGES.commissionInvalid, 'commissionPercent'],
      [advertiser.id, { ...ok, billingMode: 'half' }, 400, AGENCY_MESSAGES.modeInvalid, 'billingMode'],
      [advertiser.id, { ...ok, to: daysFromToday(19) }, 400, AGENCY_MESSAGES.toBeforeFrom, 'to'],
      [advertiser.id, { ...ok, agencyId: 'nope' }, 400, AGENCY_MESSAGES.agencyRequired, 'agencyId'],
      [advertiser.id, { ...ok, agencyId: notAgency.id }, 400, AGENCY_MESSAGES.notAnAgency, 'agencyId'],
      [advertiser.id, { ...ok, agencyId: advertiser.id }, 400, AGENCY_MESSAGES.notSelf, 'agencyId'],
      [agency.id, { ...ok, agencyId: (await newAgency()).id }, 400, AGENCY_MESSAGES.advertiserOnly],
      [advertiser.id, { ...ok, agencyId: (await newAgency()).id, from: today() }, 409, AGENCY_MESSAGES.overlap],
      [randomUUID(), ok, 404, 'Customer not found'],
    ];
    for (const [id, body, status, message, field] of cases) {
      const response = await setAgency('admin', id, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(status);
      expect(response.json().message, JSON.stringify(body)).toBe(message);
      if (field) expect(response.json().fieldErrors).toEqual({ [field]: [message] });
    }
    expect(await periodsIn(advertiser.id)).toMatchObject([{ agencyId: agency.id, toDate: daysFromToday(5) }]);
    expect(await periodsIn(agency.id)).toEqual([]);
  });

  it('refuses to make an agency of a represented advertiser, or an advertiser of a representing agency', async () => {
    const agency = await newAgency();
    const advertiser = await newCustomer();
    await setAgency('admin', advertiser.id, { agencyId: agency.id, billingMode: 'net', from: today() });
    const a = await send('admin', 'PATCH', `/api/customers/${advertiser.id}`, { kind: 'agency' });
    expect([a.statusCode, a.json().message]).toEqual([409, AGENCY_MESSAGES.kindRepresented]);
    const b = await send('admin', 'PATCH', `/api/customers/${agency.id}`, { kind: 'advertiser' });
    expect([b.statusCode, b.json().message]).toEqual([409, AGENCY_MESSAGES.kindRepresents]);
  });
});

describe('DELETE /api/customers/{id}/agency', () => {
  it('ends the period covering today yesterday, keeping its history; 404 once none is left', async () => {
    const agency = await newAgency();
    const advertiser = await newCustomer();
    await setAgency('admin', advertiser.id, { agencyId: agency.id, billingMode: 'net', from: daysFromToday(-10) });
    const removed = await send('admin', 'DELETE', `/api/customers/${advertiser.id}/agency`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject([{ agencyId: agency.id, to: daysFromToday(-1) }]);
    expect((await send('admin', 'GET', `/api/customers/${advertiser.id}`)).json().agencyOfRecord).toBeNull();
    const [audit] = await auditOf(advertiser.id, 'customer.agency_removed');
    expect(audit.before).toMatchObject({ toDate: null });
    expect(audit.after).toMatchObject({ toDate: daysFromToday(-1) });
    const again = await send('admin', 'DELETE', `/api/customers/${advertiser.id}/agency`);
    expect([again.statusCode, again.json().message]).toEqual([404, AGENCY_MESSAGES.noneToRemove]);
  });

  it('deletes a given agency’s period to come', async () => {
    const agency = await newAgency();
    const advertiser = await newCustomer();
    await setAgency('admin', advertiser.id, { agencyId: agency.id, billingMode: 'gross', from: daysFromToday(7) });
    const wrong = await send('admin', 'DELETE', `/api/customers/${advertiser.id}/agency?agencyId=${randomUUID()}`);
    expect(wrong.statusCode).toBe(404);
    const removed = await send('admin', 'DELETE', `/api/customers/${advertiser.id}/agency?agencyId=${agency.id}`);
    expect([removed.statusCode, removed.json()]).toEqual([200, []]);
    expect(await periodsIn(advertiser.id)).toEqual([]);
  });
});

describe('who may set and read agencies of record', () => {
  it('lets a rep act on their own customers only: another rep’s customer is 404, and nothing saved', async () => {
    const rep = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales' }));
    const otherRep = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales' }));
    const agency = await newAgency();
    const mine = await newCustomer({}, rep);
    const sold = await newCustomer();
    await createBillableContract(ctx.db, { customerId: sold.id, salesRepId: rep.id, startDate: today() });
    const theirs = await newCustomer({}, otherRep);
    const body = { agencyId: agency.id, billingMode: 'net', from: today() };

    expect((await setAgency(rep, mine.id, body)).statusCode).toBe(200);
    expect((await setAgency(rep, sold.id, body)).statusCode).toBe(200);
    const refused = await setAgency(rep, theirs.id, body);
    expect([refused.statusCode, refused.json().message]).toEqual([404, 'Customer not found']);
    expect(await periodsIn(theirs.id)).toEqual([]);
    expect((await send(rep, 'DELETE', `/api/customers/${theirs.id}/agency`)).statusCode).toBe(404);
    expect((await send(rep, 'GET', `/api/customers/${theirs.id}/agency`)).statusCode).toBe(404);
    // The agency is not the rep's own customer: its page of advertisers is not theirs either.
    expect((await send(rep, 'GET', `/api/agencies/${agency.id}/advertisers`)).statusCode).toBe(404);
    expect((await send('finance', 'PUT', `/api/customers/${mine.id}/agency`, body)).statusCode).toBe(403);
  });

  it('answers GET /api/agencies/{id}/advertisers with 404 for a customer that is no agency', async () => {
    const advertiser = await newCustomer();
    const response = await send('admin', 'GET', `/api/agencies/${advertiser.id}/advertisers`);
    expect([response.statusCode, response.json().message]).toEqual([404, 'Agency not found']);
  });

  it('shows an agency’s client user its own agency’s advertisers, never another agency’s', async () => {
    const agency = await newAgency();
    const other = await newAgency();
    const advertiser = await newCustomer();
    await setAgency('admin', advertiser.id, { agencyId: agency.id, billingMode: 'net', from: today() });
    const client = await ctx.signIn(await createTestUser(ctx.db, { role: 'client', customerId: agency.id }));
    const own = await send(client, 'GET', `/api/agencies/${agency.id}/advertisers`);
    expect(own.json().map((p: AgencyOfRecord) => p.advertiserId)).toEqual([advertiser.id]);
    expect((await send(client, 'GET', `/api/agencies/${other.id}/advertisers`)).statusCode).toBe(404);
  });
});

onlyOn('postgres', 'two transactions really overlap there, on two connections')(
  'two overlapping agencies of record set at the same moment',
  () => {
    it('commits one and refuses the other with 409 and the overlap message; one period is kept', async () => {
      const [first, second] = [await newAgency(), await newAgency()];
      const advertiser = await newCustomer();
      const manager = await ctx.as('sales_manager');
      const [a, b] = await Promise.all([
        setAgency(manager, advertiser.id, { agencyId: first.id, billingMode: 'net', from: today() }),
        setAgency('admin', advertiser.id, { agencyId: second.id, billingMode: 'gross', from: daysFromToday(3) }),
      ]);
      expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
      const refused = a.statusCode === 409 ? a : b;
      expect(refused.json().message).toBe(AGENCY_MESSAGES.overlap);
      expect(await periodsIn(advertiser.id)).toHaveLength(1);
    });
  },
);
