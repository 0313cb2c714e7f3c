import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoices, outboxEmails } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { createBillableContract } from '../../test/billing-factories';
import { createTestCustomer } from '../../test/catalog-factories';
import { decoded, startSmtp } from '../../test/smtp';
import { runBilling } from '../billing/billing-run';

const PUBLIC_URL = 'https://crm.example.test';

describe('billing e-mails through SMTP', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let ctx: TestContext;

  beforeAll(async () => {
    smtp = await startSmtp();
    ctx = await buildTestApp({ config: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, PUBLIC_URL } });
  });
  afterAll(async () => {
    await ctx.app.mailer.idle();
    await ctx.close();
    await smtp.close();
  });

  const deliver = async () => {
    await ctx.app.mailer.idle();
    while ((await ctx.app.mailer.deliverDue(ctx.db)) > 0) {}
  };
  const mailsTo = (email: string) => smtp.received.filter((m) => m.to.includes(email)).map((m) => decoded(m.raw));

  it('e-mails each new invoice with the pay link, and a receipt for each payment with what is still due', async () => {
    const customer = await createTestCustomer(ctx.db, { name: 'Snowfall Cinemas' });
    const { contract } = await createBillableContract(ctx.db, {
      startDate: '2025-12-01',
      customerId: customer.id,
      paymentMode: 'pay_link',
      title: 'Snowfall holiday pre-roll',
      lines: [{ unitPriceCents: 300_00 }],
    });
    await runBilling(ctx.db, { contractId: contract.id, asOf: '2025-12-01', baseUrl: ctx.app.config.PUBLIC_URL });
    await deliver();
    const [invoice] = await ctx.db.select().from(invoices).where(eq(invoices.contractId, contract.id));
    const issued = mailsTo(customer.email).find((m) => m.includes(`Subject: Invoice ${invoice.number}:`))!;
    expect(issued).toContain(`Subject: Invoice ${invoice.number}: $300.00 due Dec 8, 2025`);
    expect(issued).toContain('For: Snowfall holiday pre-roll');
    expect(issued).toMatch(new RegExp(`Pay securely: ${PUBLIC_URL}/p/[A-Za-z0-9_-]{40,}`));

    // No payment yet: nothing to resend.
    const none = await ctx.injectAs('admin', { method: 'POST', url: `/api/contracts/${contract.id}/resend-receipt` });
    expect(none.statusCode).toBe(409);
    expect(none.json().message).toBe('No payment to send a receipt for');

    const partial = await ctx.injectAs('finance', {
      method: 'POST',
      url: `/api/invoices/${invoice.id}/payments`,
      payload: { amount: 120, method: 'check', reference: 'Check #778', paidAt: '2025-12-05' },
    });
    expect(partial.statusCode).toBe(201);
    await deliver();
    const receipt = mailsTo(customer.email).find((m) => m.includes('Subject: Receipt'))!;
    expect(receipt).toContain(`Subject: Receipt for invoice ${invoice.number}: $120.00 received`);
    for (const line of [
      `Invoice: ${invoice.number}`,
      'Amount paid: $120.00',
      'Payment method: Check',
      'Payment date: Dec 5, 2025',
      'Reference: Check #778',
      'Invoice total: $300.00',
      'Still due: $180.00',
    ]) {
      expect(receipt, line).toContain(line);
    }

    await ctx.injectAs('finance', {
      method: 'POST',
      url: `/api/invoices/${invoice.id}/payments`,
      payload: { amount: 180, method: 'wire', paidAt: '2025-12-06' },
    });
    await deliver();
    const final = mailsTo(customer.email).find((m) => m.includes('$180.00 received'))!;
    expect(final).toContain('The invoice is paid in full.');
    expect(final).toContain('Still due: $0.00');
    expect(final).toContain('Payment method: Wire transfer');

    // Resend Receipt: the latest payment's receipt again.
    const before = mailsTo(customer.email).length;
    const resent = await ctx.injectAs('admin', { method: 'POST', url: `/api/contracts/${contract.id}/resend-receipt` });
    expect(resent.statusCode).toBe(200);
    expect(resent.json().message).toContain(`$180.00 on invoice ${invoice.number}`);
    await deliver();
    const after = mailsTo(customer.email);
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1)).toContain('Here is a copy of your receipt.');
    expect(after.at(-1)).toContain(`Subject: Receipt for invoice ${invoice.number}: $180.00 received`);

    const rows = await ctx.db
      .select()
      .from(outboxEmails)
      .where(eq(outboxEmails.entityId, invoice.id))
      .orderBy(asc(outboxEmails.createdAt));
    expect(rows.every((r) => r.status === 'sent')).toBe(true);
  });

  it('in portal mode the invoice e-mail points at the client portal, and a void is announced', async () => {
    const customer = await createTestCustomer(ctx.db);
    const { contract } = await createBillableContract(ctx.db, {
      startDate: '2026-01-10',
      customerId: customer.id,
      paymentMode: 'portal',
      lines: [{ unitPriceCents: 75_00 }],
    });
    await runBilling(ctx.db, { contractId: contract.id, asOf: '2026-01-10', baseUrl: PUBLIC_URL });
    const [invoice] = await ctx.db.select().from(invoices).where(eq(invoices.contractId, contract.id));
    await ctx.injectAs('finance', {
      method: 'POST',
      url: `/api/invoices/${invoice.id}/void`,
      payload: { reason: 'Duplicate' },
    });
    await deliver();
    const mails = mailsTo(customer.email);
    const issued = mails.find((m) => m.includes(`Subject: Invoice ${invoice.number}: $75.00 due`))!;
    const voided = mails.find((m) => m.includes(`Subject: Invoice ${invoice.number} voided`))!;
    expect(issued).toContain(`Pay in the client portal: ${PUBLIC_URL}/portal`);
    expect(issued).not.toContain('/p/');
    expect(voided).toContain(`Subject: Invoice ${invoice.number} voided`);
    expect(voided).toContain('Nothing is due on it any more.');
  });
});
