import type { Contract } from '@shared/contracts/contract-responses';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxEmails, users } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { createTestCustomer, createTestProduct } from '../../test/catalog-factories';
import { decoded, startSmtp } from '../../test/smtp';

const PUBLIC_URL = 'https://crm.example.test';

describe('contract e-mails through SMTP', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let ctx: TestContext;
  let productId: string;

  beforeAll(async () => {
    smtp = await startSmtp();
    ctx = await buildTestApp({ config: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, PUBLIC_URL } });
    productId = (await createTestProduct(ctx.db, { defaultPriceCents: 300_00 })).id;
  });
  afterAll(async () => {
    await ctx.app.mailer.idle();
    await ctx.close();
    await smtp.close();
  });

  const deliver = async () => {
    await ctx.app.mailer.idle();
    await ctx.app.mailer.deliverDue(ctx.db);
  };

  it('creating with sendToCustomer e-mails the pay link, and the outbox row is marked sent', async () => {
    const customer = await createTestCustomer(ctx.db, { name: 'Snowfall Cinemas' });
    const response = await ctx.injectAs('sales', {
      method: 'POST',
      url: '/api/contracts',
      payload: {
        customerId: customer.id,
        startDate: '2026-10-01',
        termMonths: 6,
        description: 'Holiday pre-roll',
        setupFee: 50,
        paymentMode: 'pay_link',
        packageId: null,
        sendToCustomer: true,
        makeActive: false,
        lineItems: [{ productId, quantity: 1, unitPrice: 300, discount: 0 }],
      },
    });
    expect(response.statusCode).toBe(201);
    const contract: Contract = response.json();
    expect(contract.status).toBe('sent');
    await deliver();

    const message = smtp.received.find((m) => m.to.includes(customer.email));
    expect(message, 'the SMTP server received the e-mail').toBeDefined();
    const text = decoded(message!.raw);
    expect(message!.from).toBe('billing@adcrm.local');
    expect(text).toContain(`Subject: Your contract #${contract.id.slice(-8)} is ready for payment`);
    expect(text).toContain(`${PUBLIC_URL}/p/${contract.payLinkToken}`);
    // What it bills, from the billing engine: $300.00 a month from October 1 for 6 months, a $50.00 setup fee.
    expect(text).toContain('First invoice: $350.00 on Oct 1, 2026 (due Oct 8, 2026)');
    expect(text).toContain('Monthly amount: $300.00 / month');
    expect(text).toContain('Setup fee (one-time): $50.00 once, on the invoice of Oct 1, 2026');
    expect(text).toContain('Contract value: $1,850.00 over 6 months, before tax');
    expect(text).toContain('Content-Type: text/html');

    const [row] = await ctx.db.select().from(outboxEmails).where(eq(outboxEmails.entityId, contract.id));
    expect(row).toMatchObject({ status: 'sent', attempts: 1, to: customer.email, lastError: null });
    expect(row.sentAt).toBeInstanceOf(Date);
  });

  it('Resend e-mails a sent contract again with the same pay link, and only a sent one', async () => {
    const customer = await createTestCustomer(ctx.db, { name: 'Tinsel Radio' });
    const body = (sendToCustomer: boolean) => ({
      customerId: customer.id,
      startDate: '2026-12-01',
      paymentMode: 'pay_link',
      sendToCustomer,
      lineItems: [{ productId, quantity: 1, unitPrice: 300, discount: 0 }],
    });
    const sent: Contract = (
      await ctx.injectAs('sales', { method: 'POST', url: '/api/contracts', payload: body(true) })
    ).json();
    const draft: Contract = (
      await ctx.injectAs('sales', { method: 'POST', url: '/api/contracts', payload: body(false) })
    ).json();
    await deliver();
    const copies = () => smtp.received.filter((m) => m.to.includes(customer.email));
    expect(copies()).toHaveLength(1);

    const again = await ctx.injectAs('sales', { method: 'POST', url: `/api/contracts/${sent.id}/resend` });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ id: sent.id, status: 'sent', payLinkToken: sent.payLinkToken });
    await deliver();
    expect(copies()).toHaveLength(2);
    const [first, second] = copies().map((m) => decoded(m.raw));
    expect(second).toContain(`${PUBLIC_URL}/p/${sent.payLinkToken}`);
    expect(second).toContain('First invoice: $300.00 on Dec 1, 2026 (due Dec 8, 2026)');
    expect(first).toContain(`${PUBLIC_URL}/p/${sent.payLinkToken}`);

    // Only a sent contract: a draft is sent with Send to Customer; nobody else's; not finance.
    const refused = await ctx.injectAs('sales', { method: 'POST', url: `/api/contracts/${draft.id}/resend` });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      'Cannot resend this contract: it is draft. Only sent contracts can be sent again.',
    );
    const byFinance = await ctx.injectAs('finance', { method: 'POST', url: `/api/contracts/${sent.id}/resend` });
    expect(byFinance.statusCode).toBe(403);
    const unknown = await ctx.injectAs('admin', {
      method: 'POST',
      url: '/api/contracts/00000000-0000-4000-8000-000000000000/resend',
    });
    expect(unknown.statusCode).toBe(404);
    await deliver();
    expect(copies()).toHaveLength(2);
  });

  it('Send to Customer in portal mode e-mails a set-password link that works once, and never a password', async () => {
    const customer = await createTestCustomer(ctx.db, { name: 'Frost & Co', contactPerson: 'Dana Frost' });
    const created = await ctx.injectAs('admin', {
      method: 'POST',
      url: '/api/contracts',
      payload: {
        customerId: customer.id,
        startDate: '2026-11-15',
        paymentMode: 'portal',
        sendToCustomer: false,
        lineItems: [{ productId, quantity: 2, unitPrice: 120, discount: 40 }],
      },
    });
    expect(created.json().status).toBe('draft');
    const sent = await ctx.injectAs('admin', { method: 'POST', url: `/api/contracts/${created.json().id}/send` });
    expect(sent.statusCode).toBe(200);
    expect(sent.json().status).toBe('sent');
    await deliver();

    const message = smtp.received.find((m) => m.to.includes(customer.email));
    expect(message).toBeDefined();
    const text = decoded(message!.raw);
    expect(text).toContain('Subject: Your contract');
    expect(text).toContain(`${PUBLIC_URL}/portal`);
    // The customer's contact person, by first name (product.md section 17).
    expect(text).toContain('Hello Dana,');
    expect(text).not.toContain('Hello Frost');
    expect(text).not.toMatch(/temporary password/i);
    const link = new RegExp(`Set your password: (${PUBLIC_URL}/set-password\\?token=[A-Za-z0-9_-]+)`).exec(text)?.[1];
    expect(link, 'the e-mail carries a set-password link on the public origin').toBeTruthy();

    const [account] = await ctx.db.select().from(users).where(eq(users.customerId, customer.id));
    expect(account).toMatchObject({ role: 'client', firstName: 'Dana', lastName: 'Frost', passwordSetAt: null });
    const token = new URL(link!).searchParams.get('token');
    const set = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/set-password',
      payload: { token, password: 'frosty-pass', confirmPassword: 'frosty-pass' },
    });
    expect(set.statusCode, set.body).toBe(200);
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: customer.email, password: 'frosty-pass' },
    });
    expect(login.statusCode).toBe(200);
    expect(login.json().user).toMatchObject({ role: 'client', customerId: customer.id });
    const again = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/set-password',
      payload: { token, password: 'another-pass', confirmPassword: 'another-pass' },
    });
    expect(again.statusCode).toBe(400);
  });
});

describe('contract e-mails without SMTP', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp();
  });
  afterAll(() => ctx.close());

  it('keeps the message queued in the outbox, listed by GET /api/outbox', async () => {
    const customer = await createTestCustomer(ctx.db);
    const product = await createTestProduct(ctx.db);
    const response = await ctx.injectAs('sales_manager', {
      method: 'POST',
      url: '/api/contracts',
      payload: {
        customerId: customer.id,
        startDate: '2026-01-01',
        paymentMode: 'pay_link',
        sendToCustomer: true,
        lineItems: [{ productId: product.id, quantity: 1, unitPrice: 10, discount: 0 }],
      },
    });
    expect(response.statusCode).toBe(201);
    const contract: Contract = response.json();
    expect(await ctx.app.mailer.deliverDue(ctx.db)).toBe(0);

    const outbox = await ctx.injectAs('admin', { method: 'GET', url: '/api/outbox' });
    expect(outbox.statusCode).toBe(200);
    const listed = outbox.json().find((m: { entityId: string }) => m.entityId === contract.id);
    expect(listed).toMatchObject({ to: customer.email, status: 'queued', attempts: 0, entity: 'contract' });
    // No PUBLIC_URL configured: the link uses the server's own listen address (PORT 3000), never the Host header.
    // Staff read it with its token hidden: only the e-mail's recipient gets the link that pays.
    expect(listed.text).toContain('Pay securely: http://localhost:3000/p/[hidden]');
    expect(JSON.stringify(outbox.json())).not.toContain(contract.payLinkToken);
    const [stored] = await ctx.db.select().from(outboxEmails).where(eq(outboxEmails.entityId, contract.id));
    expect(stored.deliveryText).toContain(`Pay securely: http://localhost:3000/p/${contract.payLinkToken}`);
  });
});
