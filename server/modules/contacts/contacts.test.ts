import type { Contact } from '@shared/contracts/contacts';
import { and, asc, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, contacts, invoices, outboxEmails } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { createBillableContract, setTaxSettings } from '../../test/billing-factories';
import { createTestCustomer } from '../../test/catalog-factories';
import { onlyOn } from '../../test/engine';
import { runBilling } from '../billing/billing-run';

/**
 * A customer's contacts over the API (product.md section 19): one primary and one billing contact at most, each
 * flag taken from the previous holder in the same transaction, a race refused with 409; and the billing contact
 * receiving the customer's invoices and receipts, greeted by name (the customer's e-mail when it has none).
 */
const ORIGIN = 'https://crm.example.test';
let ctx: TestContext;
let customerId: string;
let otherCustomerId: string;

beforeAll(async () => {
  ctx = await buildTestApp({ config: { PUBLIC_URL: ORIGIN } });
  await setTaxSettings(ctx.db, { defaultTaxRate: 0, taxIncluded: false, taxLabel: 'Tax' });
  customerId = (
    await createTestCustomer(ctx.db, {
      name: 'Bella Notte Trattoria',
      email: 'owner@bellanotte.test',
      contactPerson: 'Marco Bianchi',
    })
  ).id;
  otherCustomerId = (await createTestCustomer(ctx.db, { name: 'Harbor Lights Marina' })).id;
});
afterAll(() => ctx.close());

type Who = Parameters<TestContext['injectAs']>[0];
const url = (customer: string, contact?: string) =>
  `/api/customers/${customer}/contacts${contact ? `/${contact}` : ''}`;

async function add(fields: Record<string, unknown>, customer = customerId, who: Who = 'sales'): Promise<Contact> {
  const response = await ctx.injectAs(who, { method: 'POST', url: url(customer), payload: fields });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}
const patch = (contact: string, payload: object, customer = customerId, who: Who = 'sales') =>
  ctx.injectAs(who, { method: 'PATCH', url: url(customer, contact), payload });
async function list(customer = customerId, who: Who = 'finance'): Promise<Contact[]> {
  const response = await ctx.injectAs(who, { method: 'GET', url: url(customer) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}
const flagsOf = async (customer = customerId) =>
  (await list(customer)).map((c) => [c.name, c.isPrimary, c.isBilling] as const);
const auditOf = async (contactId: string) =>
  (
    await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entity, 'contact'), eq(auditEvents.entityId, contactId)))
      .orderBy(asc(auditEvents.id))
  ).map((event) => [event.action, event.before, event.after] as const);

describe('contacts', () => {
  it('are added, listed primary first then billing then by name, changed and deleted, each audited', async () => {
    const customer = (await createTestCustomer(ctx.db, { name: 'Snowfall Cinemas' })).id;
    const zoe = await add({ name: 'Zoe Adler', role: 'CMO', email: '', phone: ' 555-0100 ' }, customer);
    expect(zoe).toMatchObject({
      customerId: customer,
      name: 'Zoe Adler',
      role: 'CMO',
      email: null,
      phone: '555-0100',
      notes: null,
      isPrimary: false,
      isBilling: false,
    });
    const ben = await add({ name: 'Ben Ortiz', email: 'ap@snowfall.test', isBilling: true }, customer);
    const amy = await add({ name: 'Amy Chen', isPrimary: true }, customer);
    await add({ name: 'Carl Diaz' }, customer);
    expect(await flagsOf(customer)).toEqual([
      ['Amy Chen', true, false],
      ['Ben Ortiz', false, true],
      ['Carl Diaz', false, false],
      ['Zoe Adler', false, false],
    ]);
    const page = await ctx.injectAs('sales', { method: 'GET', url: `${url(customer)}?limit=2&q=r` });
    expect(page.headers['x-total-count']).toBe('3');
    expect((page.json() as Contact[]).map((c) => c.name)).toEqual(['Ben Ortiz', 'Carl Diaz']);

    const changed = await patch(zoe.id, { role: null, notes: 'Prefers phone' }, customer);
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ role: null, notes: 'Prefers phone', phone: '555-0100' });
    const removed = await ctx.injectAs('sales_manager', { method: 'DELETE', url: url(customer, zoe.id) });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toEqual({ message: 'Contact deleted' });
    expect((await list(customer)).map((c) => c.name)).toEqual(['Amy Chen', 'Ben Ortiz', 'Carl Diaz']);

    expect((await auditOf(zoe.id)).map(([action]) => action)).toEqual([
      'contact.created',
      'contact.updated',
      'contact.deleted',
    ]);
    expect((await auditOf(amy.id))[0][2]).toMatchObject({ name: 'Amy Chen', isPrimary: true });
    expect(ben.isBilling).toBe(true);
    const audit = await ctx.injectAs('admin', { method: 'GET', url: `/api/audit?entity=contact&entityId=${zoe.id}` });
    expect((audit.json() as { summary: string }[]).map((e) => e.summary)).toEqual([
      'Contact "Zoe Adler" deleted from "Snowfall Cinemas"',
      'Contact "Zoe Adler" updated: Role, Notes',
      'Contact "Zoe Adler" added to "Snowfall Cinemas"',
    ]);
  });

  it('making one primary or billing takes the flag from the previous one, in the same change', async () => {
    const customer = (await createTestCustomer(ctx.db, { name: 'Frost Fair' })).id;
    const first = await add(
      { name: 'First Person', email: 'first@frost.test', isPrimary: true, isBilling: true },
      customer,
    );
    const second = await add({ name: 'Second Person', email: 'second@frost.test', isPrimary: true }, customer);
    expect(await flagsOf(customer)).toEqual([
      ['Second Person', true, false],
      ['First Person', false, true],
    ]);
    const billing = await patch(second.id, { isBilling: true }, customer);
    expect(billing.statusCode, billing.body).toBe(200);
    expect(billing.json()).toMatchObject({ isPrimary: true, isBilling: true });
    expect(await flagsOf(customer)).toEqual([
      ['Second Person', true, true],
      ['First Person', false, false],
    ]);
    // The one that lost a flag has an event for each, saying what it lost.
    const lost = await auditOf(first.id);
    expect(
      lost.map(([action, before, after]) => [
        action,
        before && (before as Contact).isPrimary,
        after && (after as Contact).isPrimary,
        after && (after as Contact).isBilling,
      ]),
    ).toEqual([
      ['contact.created', null, true, true],
      ['contact.updated', true, false, true],
      ['contact.updated', false, false, false],
    ]);
    // Unsetting leaves the customer without one.
    expect((await patch(second.id, { isPrimary: false }, customer)).json()).toMatchObject({ isPrimary: false });
    expect(await flagsOf(customer)).toEqual([
      ['Second Person', false, true],
      ['First Person', false, false],
    ]);
  });

  it('refuses a billing contact without an e-mail address, and a name left blank, naming the field', async () => {
    const noEmail = await ctx.injectAs('sales', {
      method: 'POST',
      url: url(customerId),
      payload: { name: 'Paula Payables', isBilling: true },
    });
    expect(noEmail.statusCode).toBe(400);
    expect(noEmail.json().fieldErrors).toEqual({ email: ['A billing contact needs an e-mail address'] });
    const blank = await ctx.injectAs('sales', {
      method: 'POST',
      url: url(customerId),
      payload: { name: '  ', email: 'not-an-address' },
    });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().fieldErrors).toEqual({ name: ['Name is required'], email: ['Valid email is required'] });

    const contact = await add({ name: 'Paula Payables', email: 'paula@example.test' }, otherCustomerId);
    const cleared = await patch(contact.id, { isBilling: true, email: '' }, otherCustomerId);
    expect(cleared.statusCode).toBe(400);
    expect(cleared.json().fieldErrors).toEqual({ email: ['A billing contact needs an e-mail address'] });
    expect((await patch(contact.id, { isBilling: true }, otherCustomerId)).statusCode).toBe(200);
    const clearedLater = await patch(contact.id, { email: null }, otherCustomerId);
    expect(clearedLater.statusCode).toBe(400);
    expect((await list(otherCustomerId))[0]).toMatchObject({ email: 'paula@example.test', isBilling: true });
  });

  it("answers 404 for an unknown customer and for another customer's contact; finance reads, a client reads nothing", async () => {
    const contact = await add({ name: 'Someone Else' }, otherCustomerId);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await ctx.injectAs('sales', { method: 'GET', url: url(unknown) })).statusCode).toBe(404);
    expect(
      (await ctx.injectAs('sales', { method: 'POST', url: url(unknown), payload: { name: 'X' } })).statusCode,
    ).toBe(404);
    const wrong = await patch(contact.id, { name: 'Stolen' }, customerId);
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json().message).toBe('Contact not found');
    expect((await ctx.injectAs('sales', { method: 'DELETE', url: url(customerId, contact.id) })).statusCode).toBe(404);
    expect((await list(otherCustomerId)).map((c) => c.name)).toContain('Someone Else');
    expect(
      (await ctx.injectAs('finance', { method: 'POST', url: url(customerId), payload: { name: 'X' } })).statusCode,
    ).toBe(403);
    expect((await ctx.injectAs('client', { method: 'GET', url: url(customerId) })).statusCode).toBe(403);
  });

  it('leaves one primary contact when two are made primary at once, and never answers 500', async () => {
    const customer = (await createTestCustomer(ctx.db, { name: 'Parallel Pictures' })).id;
    const [a, b] = [await add({ name: 'Ann Able' }, customer), await add({ name: 'Bob Baker' }, customer)];
    const answers = await Promise.all([
      patch(a.id, { isPrimary: true }, customer),
      patch(b.id, { isPrimary: true }, customer),
    ]);
    for (const answer of answers) expect([200, 409], answer.body).toContain(answer.statusCode);
    expect(answers.some((answer) => answer.statusCode === 200)).toBe(true);
    expect((await list(customer)).filter((c) => c.isPrimary)).toHaveLength(1);
  });
});

onlyOn('postgres', 'two transactions really overlap there, on two connections')(
  'two contacts made primary at the same moment',
  () => {
    it('commits one and refuses the other with 409 and a message; the customer keeps one primary', async () => {
      const customer = (await createTestCustomer(ctx.db, { name: 'Racing Radio' })).id;
      const old = await add({ name: 'Old Primary', isPrimary: true }, customer);
      const [a, b] = [await add({ name: 'Ann Able' }, customer), await add({ name: 'Bob Baker' }, customer)];
      // A second connection holds the old primary: both changes wait at their UPDATE of the others, then run at once.
      const holder = new pg.Client({ connectionString: await databaseUrl() });
      await holder.connect();
      try {
        await holder.query('begin');
        await holder.query('select id from contacts where id = $1 for update', [old.id]);
        const racing = Promise.all([
          patch(a.id, { isPrimary: true }, customer),
          patch(b.id, { isPrimary: true }, customer),
        ]);
        await waitForLockWaiters(holder, 2);
        await holder.query('commit');
        const answers = await racing;
        expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
        const refused = answers.find((answer) => answer.statusCode === 409)!;
        expect(refused.json()).toEqual({
          code: 'CONFLICT',
          message: "Another change to this customer's contacts was saved at the same moment. Reload and try again.",
        });
      } finally {
        await holder.end();
      }
      const primaries = (await list(customer)).filter((c) => c.isPrimary).map((c) => c.name);
      expect(primaries).toHaveLength(1);
      expect(['Ann Able', 'Bob Baker']).toContain(primaries[0]);
    });
  },
);

/** The URL of this file's own database (PostgreSQL): the server's current_database() on the test server. */
async function databaseUrl(): Promise<string> {
  const result = (await ctx.db.execute(sql`select current_database() as name`)) as unknown as {
    rows: { name: string }[];
  };
  const { name } = result.rows[0];
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

async function waitForLockWaiters(holder: pg.Client, count: number): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const { rows } = await holder.query(
      "select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()",
    );
    if (rows[0].n >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`fewer than ${count} transactions waited for the lock`);
}

describe('where invoices and receipts go', () => {
  /** A $250.00 monthly contract of the customer, its first invoice issued (and e-mailed) by the billing run. */
  async function billedInvoice(customer: string) {
    const { contract } = await createBillableContract(ctx.db, {
      customerId: customer,
      startDate: '2026-03-01',
      title: 'Spring Menu',
      lines: [{ unitPriceCents: 250_00 }],
    });
    await runBilling(ctx.db, { contractId: contract.id, asOf: '2026-03-01', baseUrl: ORIGIN });
    const [invoice] = await ctx.db.select().from(invoices).where(eq(invoices.contractId, contract.id));
    return invoice;
  }
  const mailsOf = (invoiceId: string) =>
    ctx.db
      .select()
      .from(outboxEmails)
      .where(
        and(
          eq(outboxEmails.entity, 'invoice'),
          eq(outboxEmails.entityId, invoiceId),
          // The customer's e-mails, not the notices' copies to staff (their test accounts' addresses).
          sql`${outboxEmails.to} not like '%@example.test'`,
        ),
      )
      .orderBy(asc(outboxEmails.createdAt), asc(outboxEmails.id));
  const pay = (invoiceId: string) =>
    ctx.injectAs('finance', {
      method: 'POST',
      url: `/api/invoices/${invoiceId}/payments`,
      payload: { amount: 250, method: 'check', reference: 'CHK 12' },
    });

  it("go to the customer's e-mail, greeting its contact person, while it has no billing contact", async () => {
    const invoice = await billedInvoice(customerId);
    expect((await pay(invoice.id)).statusCode).toBe(201);
    const mails = await mailsOf(invoice.id);
    expect(mails.map((mail) => [mail.to, mail.subject.split(' ')[0], mail.text.split('\n')[0]])).toEqual([
      ['owner@bellanotte.test', 'Invoice', 'Hello Marco,'],
      ['owner@bellanotte.test', 'Receipt', 'Hello Marco,'],
    ]);
  });

  it('go to the billing contact, greeted by its first name; a resend says where it went', async () => {
    const customer = (
      await createTestCustomer(ctx.db, {
        name: 'Lantern Books',
        email: 'hello@lantern.test',
        contactPerson: 'Marco Bianchi',
      })
    ).id;
    await add({ name: 'Giulia Russo', role: 'Accounts payable', email: 'ap@lantern.test', isBilling: true }, customer);
    await add({ name: 'Pat Primary', email: 'pat@lantern.test', isPrimary: true }, customer);
    const invoice = await billedInvoice(customer);
    const resent = await ctx.injectAs('finance', { method: 'POST', url: `/api/invoices/${invoice.id}/resend` });
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json().message).toBe(`Invoice ${invoice.number} was e-mailed again to ap@lantern.test.`);
    expect((await pay(invoice.id)).statusCode).toBe(201);

    const mails = await mailsOf(invoice.id);
    expect(mails.map((mail) => [mail.to, mail.subject.split(' ')[0], mail.text.split('\n')[0]])).toEqual([
      ['ap@lantern.test', 'Invoice', 'Hello Giulia,'],
      ['ap@lantern.test', 'Invoice', 'Hello Giulia,'],
      ['ap@lantern.test', 'Receipt', 'Hello Giulia,'],
    ]);
    expect(mails[2].html).toContain('<p>Hello Giulia,</p>');

    // The billing contact removed: the customer's own e-mail again.
    const [billing] = await ctx.db
      .select()
      .from(contacts)
      .where(and(eq(contacts.customerId, customer), eq(contacts.isBilling, true)));
    expect((await patch(billing.id, { isBilling: false }, customer)).statusCode).toBe(200);
    const again = await ctx.injectAs('finance', { method: 'POST', url: `/api/invoices/${invoice.id}/resend` });
    expect(again.statusCode).toBe(409);
    const next = await billedInvoice(customer);
    const [issued] = await mailsOf(next.id);
    expect([issued.to, issued.text.split('\n')[0]]).toEqual(['hello@lantern.test', 'Hello Marco,']);
  });
});
