import type { Invoice } from '@shared/contracts/invoices';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { contracts, invoices } from '../../db/schema';
import { businessToday } from '../../lib/business-day';
import { buildTestApp, type TestContext } from '../../test/app';
import { createBillableContract, setContractSettings, setTaxSettings } from '../../test/billing-factories';
import { createTestProduct } from '../../test/catalog-factories';
import { createPayLinkContract } from '../../test/payment-factories';
import { pdfText } from '../../test/pdf';
import { runBilling } from '../billing/billing-run';

/**
 * GET /api/invoices/{id}/pdf as finance downloads it: the state it prints today (open, overdue, partly paid,
 * paid, void, credited), where the customer pays, its pages, and what it never prints (the contract's
 * description, the rep's own words). Expected texts are written out by hand.
 */

let ctx: TestContext;
const PUBLIC_URL = 'https://billing.example.test';

beforeAll(async () => {
  ctx = await buildTestApp({ config: { PUBLIC_URL } });
});
afterAll(() => ctx.close());
beforeEach(async () => {
  await setTaxSettings(ctx.db, { defaultTaxRate: 0, taxIncluded: false, taxLabel: 'Tax' });
  await setContractSettings(ctx.db, { pausePaymentsAfterExpiry: true, gracePeriodsEndOfDays: 7 });
});

/** A calendar day `days` after `day` (the test's own computation). */
const plus = (day: string, days: number) => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

type Made = Awaited<ReturnType<typeof createBillableContract>>;

/** The first invoice of a contract, issued by the billing run on its start date. */
async function firstInvoice(made: Made) {
  await runBilling(ctx.db, { contractId: made.contract.id, asOf: made.contract.startDate, baseUrl: PUBLIC_URL });
  const [row] = await ctx.db
    .select()
    .from(invoices)
    .where(eq(invoices.contractId, made.contract.id))
    .orderBy(asc(invoices.periodStart))
    .limit(1);
  return row;
}

/** A $100.00 portal contract starting `daysAgo` days before today (due 7 days after its start). */
const portalInvoice = async (daysAgo: number) =>
  firstInvoice(
    await createBillableContract(ctx.db, {
      startDate: plus(businessToday(), -daysAgo),
      lines: [{ unitPriceCents: 100_00 }],
    }),
  );

async function download(id: string) {
  const response = await ctx.injectAs('finance', { method: 'GET', url: `/api/invoices/${id}/pdf` });
  expect(response.statusCode, response.body).toBe(200);
  return response.rawPayload;
}

const pdfOf = async (id: string) => pdfText(await download(id));
/** Page objects of the file (its /Pages tree is not one). */
const pageCount = (bytes: Buffer) => (bytes.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length;

const post = (url: string, payload: Record<string, unknown>) =>
  ctx.injectAs('finance', { method: 'POST', url, payload });

describe('the state the PDF prints', () => {
  it('open: what is due and the client portal address; no stamp', async () => {
    const invoice = await portalInvoice(0);
    const text = await pdfOf(invoice.id);
    expect(text).toContain('Status: $100.00 due');
    expect(text).toContain(`Pay $100.00 in the client portal: ${PUBLIC_URL}/portal`);
    for (const stamp of ['OVERDUE', 'PAID', 'VOID', 'CREDITED']) expect(text).not.toContain(stamp);
  });

  it('overdue: past its due date on the business day and unpaid', async () => {
    // Started 8 days ago: due yesterday.
    const invoice = await portalInvoice(8);
    const text = await pdfOf(invoice.id);
    expect(text).toContain('Status: Overdue');
    expect(text).toContain('OVERDUE');
    expect(text).toContain('Pay $100.00 in the client portal');
  });

  it('due today is not overdue yet', async () => {
    const invoice = await portalInvoice(7);
    expect(invoice.dueDate).toBe(businessToday());
    const text = await pdfOf(invoice.id);
    expect(text).toContain('Status: $100.00 due');
    expect(text).not.toContain('Overdue');
  });

  it('partly paid: what is still due, and overdue as well once past due', async () => {
    const open = await portalInvoice(1);
    expect((await post(`/api/invoices/${open.id}/payments`, { amount: 40, method: 'check' })).statusCode).toBe(201);
    const text = await pdfOf(open.id);
    expect(text).toContain('Status: Partly paid, $60.00 due');
    expect(text).toContain('Pay $60.00 in the client portal');

    const late = await portalInvoice(20);
    expect((await post(`/api/invoices/${late.id}/payments`, { amount: 75.5, method: 'wire' })).statusCode).toBe(201);
    expect(await pdfOf(late.id)).toContain('Status: Overdue · Partly paid, $24.50 due');
  });

  it('paid: the PAID stamp and no call to pay', async () => {
    const invoice = await portalInvoice(20);
    expect((await post(`/api/invoices/${invoice.id}/payments`, { amount: 100, method: 'check' })).statusCode).toBe(201);
    const text = await pdfOf(invoice.id);
    expect(text).toContain('Status: Paid');
    expect(text).toContain('PAID');
    expect(text).not.toContain('Overdue');
    expect(text).not.toContain('client portal');
  });

  it('void: the VOID stamp and no call to pay', async () => {
    const invoice = await portalInvoice(20);
    expect((await post(`/api/invoices/${invoice.id}/void`, { reason: 'Billed twice' })).statusCode).toBe(200);
    const text = await pdfOf(invoice.id);
    expect(text).toContain('Status: Void');
    expect(text).toContain('VOID');
    expect(text).not.toContain('Overdue');
    expect(text).not.toContain('client portal');
  });

  it('credited in full by a credit note: Credited, nothing to pay', async () => {
    const invoice = await portalInvoice(20);
    const credited = await post(`/api/invoices/${invoice.id}/credit-notes`, { amount: 100, reason: 'Goodwill' });
    expect(credited.statusCode, credited.body).toBe(201);
    const text = await pdfOf(invoice.id);
    expect(text).toContain('Status: Credited');
    expect(text).toContain('CREDITED');
    expect(text).not.toContain('client portal');
  });

  it('partly credited: what is still due', async () => {
    const invoice = await portalInvoice(0);
    expect(
      (await post(`/api/invoices/${invoice.id}/credit-notes`, { amount: 30, reason: 'Late start' })).statusCode,
    ).toBe(201);
    expect(await pdfOf(invoice.id)).toContain('Status: Partly credited, $70.00 due');
  });
});

describe('where to pay', () => {
  it("prints the contract's pay link, built from PUBLIC_URL, for a pay-link contract", async () => {
    const made = await createPayLinkContract(ctx.db, {
      startDate: businessToday(),
      lines: [{ unitPriceCents: 250_00 }],
    });
    const invoice = await firstInvoice(made);
    const text = await pdfOf(invoice.id);
    expect(text).toContain(`Pay $250.00 online: ${PUBLIC_URL}/p/${made.token}`);
    expect(text).not.toContain('client portal');
  });
});

describe('what the PDF says of the lines and the contract', () => {
  it("shows each line's product and flight, the contract's title, never the contract's description", async () => {
    const product = await createTestProduct(ctx.db, {
      name: 'Holiday pre-roll 15s',
      description: 'Internal: sold below rate card, ask Rita before renewing',
      defaultPriceCents: 300_00,
    });
    const start = businessToday();
    const made = await createBillableContract(ctx.db, {
      startDate: start,
      title: 'Winter campaign',
      lines: [{ productId: product.id, unitPriceCents: 300_00 }],
    });
    await ctx.db
      .update(contracts)
      .set({ description: 'Slow payer: call Bob before sending anything' })
      .where(eq(contracts.id, made.contract.id));
    const invoice = await firstInvoice(made);
    const detail: Invoice = (
      await ctx.injectAs('finance', { method: 'GET', url: `/api/invoices/${invoice.id}` })
    ).json();
    expect(detail.lines.map((l) => l.description)).toEqual(['Holiday pre-roll 15s']);
    const text = await pdfOf(invoice.id);
    expect(text).toContain('Holiday pre-roll 15s');
    expect(text).toContain('Per Month');
    expect(text).toContain('Winter campaign');
    expect(text).not.toContain('Slow payer');
    expect(text).not.toContain('Internal: sold below');

    // Without a title, the contract's short id stands in for it (still not its description).
    await ctx.db.update(contracts).set({ title: null }).where(eq(contracts.id, made.contract.id));
    const untitled = await pdfOf(invoice.id);
    expect(untitled).toContain(`Contract #${made.contract.id.slice(-8)}`);
    expect(untitled).not.toContain('Slow payer');
  });
});

describe('pages', () => {
  it('a short invoice is one page, with no blank page after it', async () => {
    const invoice = await portalInvoice(0);
    const bytes = await download(invoice.id);
    expect(pageCount(bytes)).toBe(1);
    expect(pdfText(bytes)).not.toContain('Page 1 of');
  });

  it('a long invoice flows onto a second page that carries the rest of the lines and the totals, and no third', async () => {
    const lines = Array.from({ length: 30 }, (_, i) => ({ unitPriceCents: 10_00 + i }));
    const made = await createBillableContract(ctx.db, { startDate: businessToday(), lines });
    const invoice = await firstInvoice(made);
    const bytes = await download(invoice.id);
    expect(pageCount(bytes)).toBe(2);
    const text = pdfText(bytes);
    expect(text).toContain('Page 1 of 2');
    expect(text).toContain('Page 2 of 2');
    // 30 lines of $10.00 ... $10.29: 30 x 10.00 + (0 + ... + 29) cents = $304.35
    expect(text).toContain('$304.35');
  });
});
