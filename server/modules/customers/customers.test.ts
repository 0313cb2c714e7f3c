import { randomUUID } from 'node:crypto';
import type { Customer } from '@shared/contracts/customers';
import type { Role } from '@shared/roles';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, contracts, customers } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { createTestUser } from '../../test/factories';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(() => ctx.close());

const json = { 'content-type': 'application/json' };
const create = (role: Role, payload: unknown) =>
  ctx.injectAs(role, { method: 'POST', url: '/api/customers', payload: payload as object, headers: json });

/** A customer stored through the API (as admin); `tag` makes it findable by search. */
async function newCustomer(fields: Record<string, unknown> = {}): Promise<Customer> {
  const tag = randomUUID().slice(0, 8);
  const response = await create('admin', { name: `Customer ${tag}`, email: `c-${tag}@example.test`, ...fields });
  expect(response.statusCode).toBe(201);
  return response.json();
}

async function addContracts(customerId: string, statuses: string[]): Promise<void> {
  await ctx.db
    .insert(contracts)
    .values(statuses.map((status) => ({ customerId, status, startDate: '2026-01-01', paymentMode: 'portal' })));
}

const customerCount = async () => (await ctx.db.select({ n: count() }).from(customers))[0].n;

const auditOf = (entityId: string) =>
  ctx.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.entity, 'customer'), eq(auditEvents.entityId, entityId)));

describe('POST /api/customers', () => {
  it('creates a customer with every field, writes an audit event, and answers 201 with the record', async () => {
    const sales = await ctx.as('sales');
    const payload = {
      name: '  Holly Jolly Decor ',
      email: 'orders@hollyjolly.test',
      company: 'Holly Jolly Decor LLC',
      phone: '(555) 010-2000',
      address: '12 Evergreen Way',
      city: 'Frostburg',
      state: 'MD',
      zipCode: '21532',
      country: 'USA',
      contactPerson: 'Holly Berry',
      website: 'https://hollyjolly.test',
      industry: 'Retail',
      notes: 'Prefers calls after 10am',
    };
    const response = await ctx.injectAs(sales, { method: 'POST', url: '/api/customers', payload });
    expect(response.statusCode).toBe(201);
    const body: Customer = response.json();
    expect(body).toEqual({
      ...payload,
      name: 'Holly Jolly Decor',
      id: expect.any(String),
      contractCount: 0,
      activeContractCount: 0,
      creditBalance: 0,
      kind: 'advertiser',
      agencyCommissionPercent: null,
      agencyOfRecord: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const [audit] = await auditOf(body.id);
    expect(audit).toMatchObject({ action: 'customer.created', actorId: sales.id, before: null });
    expect(audit.after).toMatchObject({ name: 'Holly Jolly Decor', email: payload.email });
  });

  it('stores absent and empty optional fields as null', async () => {
    const response = await create('sales_manager', { name: 'Tiny Diner', email: 'tiny@diner.test', company: '' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ company: null, phone: null, notes: null, website: null });
  });

  it.each([
    ['no name', { email: 'a@b.test' }, 'Name is required'],
    ['an empty name', { name: '', email: 'a@b.test' }, 'Name is required'],
    ['a blank name', { name: '   ', email: 'a@b.test' }, 'Name is required'],
    ['a name that is not text', { name: 42, email: 'a@b.test' }, 'Name is required'],
    ['a null name', { name: null, email: 'a@b.test' }, 'Name is required'],
    ['an oversized name', { name: 'x'.repeat(201), email: 'a@b.test' }, 'Name cannot be longer than 200 characters'],
    ['a NUL character', { name: 'Bad\u0000Name', email: 'a@b.test' }, 'Name contains an invalid character'],
    ['no email', { name: 'Acme' }, 'Valid email is required'],
    ['an invalid email', { name: 'Acme', email: 'not-an-email' }, 'Valid email is required'],
    ['an email that is not text', { name: 'Acme', email: ['a@b.test'] }, 'Valid email is required'],
    ['an oversized email', { name: 'Acme', email: `${'a'.repeat(250)}@b.test` }, 'Valid email is required'],
    ['a company that is not text', { name: 'Acme', email: 'a@b.test', company: 7 }, 'Company must be text'],
    [
      'an oversized phone',
      { name: 'Acme', email: 'a@b.test', phone: '1'.repeat(51) },
      'Phone cannot be longer than 50 characters',
    ],
    [
      'oversized notes',
      { name: 'Acme', email: 'a@b.test', notes: 'n'.repeat(5001) },
      'Notes cannot be longer than 5000 characters',
    ],
    [
      'an oversized ZIP code',
      { name: 'Acme', email: 'a@b.test', zipCode: '9'.repeat(21) },
      'ZIP code cannot be longer than 20 characters',
    ],
    [
      'a NUL in an optional field',
      { name: 'Acme', email: 'a@b.test', city: '\u0000' },
      'City contains an invalid character',
    ],
  ])('refuses %s with 400 and stores nothing', async (_case, payload, message) => {
    const before = await customerCount();
    const response = await create('admin', payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
    expect(response.json().code).toBe('VALIDATION');
    expect(await customerCount()).toBe(before);
  });

  it.each([
    ['an array', []],
    ['a string', 'Acme'],
  ])('refuses a body that is %s with 400', async (_case, payload) => {
    const response = await ctx.injectAs('admin', {
      method: 'POST',
      url: '/api/customers',
      payload: JSON.stringify(payload),
      headers: json,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBeTruthy();
  });

  it('reports every invalid field at once', async () => {
    const response = await create('admin', { name: '', email: 'nope' });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toEqual({ name: ['Name is required'], email: ['Valid email is required'] });
  });

  it.each(['finance', 'client'] as const)('refuses %s with 403', async (role) => {
    const response = await create(role, { name: 'Acme', email: 'a@b.test' });
    expect(response.statusCode).toBe(403);
  });
});

describe('GET /api/customers', () => {
  it('searches name, e-mail and company, case-insensitively', async () => {
    const tag = randomUUID().slice(0, 8);
    const byName = await newCustomer({ name: `Candy Cane ${tag} Shop` });
    const byEmail = await newCustomer({ email: `north-${tag}@pole.test` });
    const byCompany = await newCustomer({ company: `Evergreen ${tag.toUpperCase()} Farms` });
    await newCustomer();
    const response = await ctx.injectAs('sales', { method: 'GET', url: `/api/customers?q=${tag.toUpperCase()}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-total-count']).toBe('3');
    const ids = response.json().map((c: Customer) => c.id);
    expect(ids.sort()).toEqual([byName.id, byEmail.id, byCompany.id].sort());
  });

  it('treats LIKE wildcards in the search text literally', async () => {
    const tag = randomUUID().slice(0, 8);
    const literal = await newCustomer({ name: `100%_${tag}` });
    await newCustomer({ name: `100xx${tag}` });
    const response = await ctx.injectAs('sales', {
      method: 'GET',
      url: `/api/customers?q=${encodeURIComponent(`0%_${tag}`)}`,
    });
    expect(response.json().map((c: Customer) => c.id)).toEqual([literal.id]);
  });

  it('pages with limit and offset, ordered by name, with the total in X-Total-Count', async () => {
    const tag = randomUUID().slice(0, 8);
    for (const letter of ['C', 'A', 'E', 'B', 'D']) await newCustomer({ name: `${letter} Page ${tag}` });
    const page = await ctx.injectAs('finance', { method: 'GET', url: `/api/customers?q=${tag}&limit=2&offset=2` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['x-total-count']).toBe('5');
    expect(page.json().map((c: Customer) => c.name)).toEqual([`C Page ${tag}`, `D Page ${tag}`]);
  });

  it('gives each row its contract count and active contract count', async () => {
    const tag = randomUUID().slice(0, 8);
    const busy = await newCustomer({ name: `Busy ${tag}` });
    const idle = await newCustomer({ name: `Idle ${tag}` });
    await addContracts(busy.id, ['active', 'active', 'draft', 'canceled']);
    const response = await ctx.injectAs('sales', { method: 'GET', url: `/api/customers?q=${tag}` });
    const rows: Customer[] = response.json();
    expect(rows.find((c) => c.id === busy.id)).toMatchObject({ contractCount: 4, activeContractCount: 2 });
    expect(rows.find((c) => c.id === idle.id)).toMatchObject({ contractCount: 0, activeContractCount: 0 });
    const single = await ctx.injectAs('sales', { method: 'GET', url: `/api/customers/${busy.id}` });
    expect(single.json()).toMatchObject({ contractCount: 4, activeContractCount: 2 });
  });

  it.each([
    ['limit=0', 'limit must be at least 1'],
    ['limit=501', 'limit cannot exceed 500'],
    ['limit=abc', 'limit must be a number'],
    ['offset=-1', 'offset cannot be negative'],
    [`q=${'x'.repeat(201)}`, 'Search text is too long'],
  ])('refuses %s with 400', async (query, message) => {
    const response = await ctx.injectAs('sales', { method: 'GET', url: `/api/customers?${query}` });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
  });

  it('does not fail on a NUL character in the search text', async () => {
    const response = await ctx.injectAs('sales', { method: 'GET', url: '/api/customers?q=a%00b' });
    expect(response.statusCode).toBe(200);
  });
});

describe('GET /api/customers/:id', () => {
  it('answers the customer, 404 for an unknown or malformed id', async () => {
    const customer = await newCustomer({ city: 'Snowville' });
    const found = await ctx.injectAs('finance', { method: 'GET', url: `/api/customers/${customer.id}` });
    expect(found.statusCode).toBe(200);
    expect(found.json()).toEqual(customer);
    const unknown = await ctx.injectAs('finance', { method: 'GET', url: `/api/customers/${randomUUID()}` });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Customer not found');
    expect((await ctx.injectAs('finance', { method: 'GET', url: '/api/customers/123' })).statusCode).toBe(404);
  });
});

describe('client accounts', () => {
  it('see only the customer their account is linked to, without internal notes', async () => {
    const own = await newCustomer({ notes: 'Internal: slow payer' });
    const other = await newCustomer();
    const client = await ctx.signIn(await createTestUser(ctx.db, { role: 'client', customerId: own.id }));

    const list = await ctx.injectAs(client, { method: 'GET', url: '/api/customers' });
    expect(list.statusCode).toBe(200);
    expect(list.headers['x-total-count']).toBe('1');
    expect(list.json().map((c: Customer) => c.id)).toEqual([own.id]);
    expect(list.json()[0].notes).toBeNull();

    const mine = await ctx.injectAs(client, { method: 'GET', url: `/api/customers/${own.id}` });
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toMatchObject({ id: own.id, name: own.name, notes: null });

    const theirs = await ctx.injectAs(client, { method: 'GET', url: `/api/customers/${other.id}` });
    expect(theirs.statusCode).toBe(404);
    expect(JSON.stringify(theirs.json())).not.toContain(other.name);

    const searched = await ctx.injectAs(client, {
      method: 'GET',
      url: `/api/customers?q=${encodeURIComponent(other.name)}`,
    });
    expect(searched.json()).toEqual([]);
  });

  it('see nothing when their account is linked to no customer', async () => {
    await newCustomer();
    const response = await ctx.injectAs('client', { method: 'GET', url: '/api/customers' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([]);
    expect(response.headers['x-total-count']).toBe('0');
  });

  it('cannot change or delete their customer', async () => {
    const own = await newCustomer();
    const client = await ctx.signIn(await createTestUser(ctx.db, { role: 'client', customerId: own.id }));
    const patch = await ctx.injectAs(client, {
      method: 'PATCH',
      url: `/api/customers/${own.id}`,
      payload: { name: 'Hacked' },
    });
    expect(patch.statusCode).toBe(403);
    expect((await ctx.injectAs(client, { method: 'DELETE', url: `/api/customers/${own.id}` })).statusCode).toBe(403);
  });
});

describe('PATCH /api/customers/:id', () => {
  it('changes only the given fields, clears with "" or null, and audits before and after', async () => {
    const customer = await newCustomer({ phone: '555-0100', city: 'Yule', company: 'Old Co' });
    const sales = await ctx.as('sales');
    const response = await ctx.injectAs(sales, {
      method: 'PATCH',
      url: `/api/customers/${customer.id}`,
      payload: { phone: '555-0199', city: '', company: null },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      name: customer.name,
      email: customer.email,
      phone: '555-0199',
      city: null,
      company: null,
    });
    const audit = (await auditOf(customer.id)).find((a) => a.action === 'customer.updated');
    expect(audit).toMatchObject({ actorId: sales.id });
    expect(audit?.before).toMatchObject({ phone: '555-0100', city: 'Yule' });
    expect(audit?.after).toMatchObject({ phone: '555-0199', city: null });
  });

  it('answers the unchanged customer for an empty body', async () => {
    const customer = await newCustomer();
    const response = await ctx.injectAs('admin', {
      method: 'PATCH',
      url: `/api/customers/${customer.id}`,
      payload: {},
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(customer);
  });

  it.each([
    [{ name: '' }, 'Name is required'],
    [{ email: 'broken' }, 'Valid email is required'],
    [{ website: 'w'.repeat(501) }, 'Website cannot be longer than 500 characters'],
    [{ industry: false }, 'Industry must be text'],
  ])('refuses %j with 400 and changes nothing', async (payload, message) => {
    const customer = await newCustomer();
    const response = await ctx.injectAs('admin', { method: 'PATCH', url: `/api/customers/${customer.id}`, payload });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
    const after = await ctx.injectAs('admin', { method: 'GET', url: `/api/customers/${customer.id}` });
    expect(after.json()).toEqual(customer);
  });

  it('answers 404 for an unknown customer', async () => {
    const response = await ctx.injectAs('admin', {
      method: 'PATCH',
      url: `/api/customers/${randomUUID()}`,
      payload: { name: 'Nobody' },
    });
    expect(response.statusCode).toBe(404);
  });

  it('is refused to finance', async () => {
    const customer = await newCustomer();
    const response = await ctx.injectAs('finance', {
      method: 'PATCH',
      url: `/api/customers/${customer.id}`,
      payload: { name: 'Changed' },
    });
    expect(response.statusCode).toBe(403);
  });
});

describe('DELETE /api/customers/:id', () => {
  it('deletes a customer without contracts and audits it', async () => {
    const customer = await newCustomer();
    const admin = await ctx.as('admin');
    const response = await ctx.injectAs(admin, { method: 'DELETE', url: `/api/customers/${customer.id}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Customer deleted' });
    expect((await ctx.injectAs('admin', { method: 'GET', url: `/api/customers/${customer.id}` })).statusCode).toBe(404);
    const audit = (await auditOf(customer.id)).find((a) => a.action === 'customer.deleted');
    expect(audit).toMatchObject({ actorId: admin.id, after: null });
    expect(audit?.before).toMatchObject({ id: customer.id, name: customer.name });
  });

  it('refuses with 409 while contracts exist, and keeps the customer', async () => {
    const customer = await newCustomer();
    await addContracts(customer.id, ['draft', 'canceled', 'completed']);
    const response = await ctx.injectAs('super_admin', { method: 'DELETE', url: `/api/customers/${customer.id}` });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe('This customer has 3 contracts and cannot be deleted');
    expect((await ctx.injectAs('admin', { method: 'GET', url: `/api/customers/${customer.id}` })).statusCode).toBe(200);
    expect((await auditOf(customer.id)).map((a) => a.action)).toEqual(['customer.created']);

    const single = await newCustomer();
    await addContracts(single.id, ['active']);
    const one = await ctx.injectAs('admin', { method: 'DELETE', url: `/api/customers/${single.id}` });
    expect(one.json().message).toBe('This customer has 1 contract and cannot be deleted');
  });

  it.each(['sales_manager', 'sales', 'finance'] as const)('is refused to %s', async (role) => {
    const customer = await newCustomer();
    const response = await ctx.injectAs(role, { method: 'DELETE', url: `/api/customers/${customer.id}` });
    expect(response.statusCode).toBe(403);
  });

  it('answers 404 for an unknown customer', async () => {
    const response = await ctx.injectAs('admin', { method: 'DELETE', url: `/api/customers/${randomUUID()}` });
    expect(response.statusCode).toBe(404);
  });
});
