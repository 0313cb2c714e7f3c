import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditNotes, insertionOrders, invoices, outboxEmails } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { createBillableContract, setTaxSettings } from '../../test/billing-factories';
import { createTestCustomer, createTestProduct } from '../../test/catalog-factories';
import { nextAddress } from '../../test/payment-factories';
import { flatText, pdfText } from '../../test/pdf';
import { multipartBody } from '../../test/upload-fixtures';
import { runBilling } from '../billing/billing-run';
import { runDunning } from '../dunning/dunning.service';

/**
 * The company profile on the documents and e-mails customers get (product.md section 17), and documents that
 * speak to people: ad types and metrics by their labels, days as "Jun 15, 2026", money as "$1,480.00", no tax
 * line at a rate of 0, the customer's contact person greeted by first name. Every expected text is written out
 * by hand; the dates follow from the contracts' start dates (an invoice is due 7 days after its period starts).
 */

const ORIGIN = 'https://crm.northwind.test';
let ctx: TestContext;
let dataDir: string;
let customer: Awaited<ReturnType<typeof createTestCustomer>>;
let preRoll: Awaited<ReturnType<typeof createTestProduct>>;
let special: Awaited<ReturnType<typeof createTestProduct>>;

const PROFILE = {
  legalName: 'Northwind Media LLC',
  address: {
    street: '400 Harbor Way, Suite 12',
    city: 'Portland',
    state: 'OR',
    zip: '97204',
    country: 'United States',
  },
  phone: '+1 503 555 0142',
  billingEmail: 'billing@northwind.test',
  website: 'https://northwind.test',
  taxId: '93-4417785',
  paymentInstructions: 'Wire: First Harbor Bank, account 004417785, routing 123000848',
  invoiceFooter: 'Thank you for advertising with Northwind.',
};

/** The foot of every customer e-mail, in its plain-text part. */
const TEXT_FOOTER = [
  'Thank you,',
  'Northwind Media LLC',
  '',
  '-- ',
  'Northwind Media LLC',
  '400 Harbor Way, Suite 12',
  'Portland, OR 97204',
  'United States',
  '+1 503 555 0142 · billing@northwind.test · https://northwind.test',
  'Tax ID: 93-4417785',
].join('\n');

/** A 60 x 20 PNG (8-bit RGB), built here. */
function logoPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(60, 0);
  ihdr.writeUInt32BE(20, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(60 * 3, 0x40)]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: 20 }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'adcrm-documents-'));
  ctx = await buildTestApp({ config: { PUBLIC_URL: ORIGIN, DATA_DIR: dataDir } });
  await setTaxSettings(ctx.db, { defaultTaxRate: 0, taxIncluded: false, taxLabel: 'Tax' });
  const saved = await ctx.injectAs('admin', { method: 'PUT', url: '/api/settings/company', payload: PROFILE });
  expect(saved.statusCode, saved.body).toBe(200);
  const logo = multipartBody([{ name: 'file', filename: 'logo.png', type: 'image/png', content: logoPng() }]);
  const uploaded = await ctx.injectAs('admin', { method: 'PUT', url: '/api/settings/company/logo', ...logo });
  expect(uploaded.statusCode, uploaded.body).toBe(200);
  customer = await createTestCustomer(ctx.db, {
    name: 'Bella Notte Trattoria',
    email: 'giulia@bellanotte.test',
    contactPerson: 'Giulia Russo',
    company: null,
    address: '18 Mulberry Street',
    city: 'New York',
    state: 'NY',
    zipCode: '10013',
    country: 'United States',
  });
  preRoll = await createTestProduct(ctx.db, {
    name: 'Holiday Pre-roll',
    adType: 'pre_roll',
    priceMetric: 'cpm',
    defaultPriceCents: 12_00,
  });
  special = await createTestProduct(ctx.db, {
    name: 'Movie Night Special',
    adType: 'ctn_special',
    priceMetric: 'flat',
    defaultPriceCents: 280_00,
  });
});
afterAll(async () => {
  await ctx.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const mailsAbout = (entityId: string) =>
  ctx.db.select().from(outboxEmails).where(eq(outboxEmails.entityId, entityId)).orderBy(asc(outboxEmails.createdAt));

async function download(url: string) {
  const response = await ctx.injectAs('finance', { method: 'GET', url });
  expect(response.statusCode, response.body).toBe(200);
  return response.rawPayload;
}

/** Whether a PDF embeds an image (the logo). */
const hasImage = (pdf: Buffer) => /\/Subtype \/Image/.test(pdf.toString('latin1'));

describe('an invoice, its e-mails and its credit note', () => {
  // 100 thousand impressions at $12.00 per 1,000 = $1,200.00, and $280.00 once: $1,480.00, no tax (0%).
  let invoiceId: string;
  let number: string;

  beforeAll(async () => {
    const { contract } = await createBillableContract(ctx.db, {
      startDate: '2026-06-15',
      paymentMode: 'pay_link',
      customerId: customer.id,
      title: 'Summer specials',
      lines: [
        { productId: preRoll.id, quantity: 100, unitPriceCents: 12_00, priceMetric: 'cpm' },
        { productId: special.id, quantity: 1, unitPriceCents: 280_00, priceMetric: 'flat' },
      ],
    });
    await runBilling(ctx.db, { contractId: contract.id, asOf: '2026-06-15', baseUrl: ORIGIN });
    const [invoice] = await ctx.db.select().from(invoices).where(eq(invoices.contractId, contract.id));
    invoiceId = invoice.id;
    number = invoice.number;
  });

  it('e-mails the invoice to Giulia with its days in words, no tax line and the company at its foot', async () => {
    const [mail] = await mailsAbout(invoiceId);
    expect(mail.subject).toBe(`Invoice ${number}: $1,480.00 due Jun 22, 2026`);
    for (const line of [
      'Hello Giulia,',
      `Your invoice ${number} is ready. $1,480.00 is due by Jun 22, 2026.`,
      'Period: Jun 15, 2026 to Jul 14, 2026',
      'Amount due: $1,480.00',
      'Due date: Jun 22, 2026',
      'Other ways to pay:\nWire: First Harbor Bank, account 004417785, routing 123000848',
      TEXT_FOOTER,
    ]) {
      expect(mail.text, line).toContain(line);
    }
    expect(mail.text).not.toContain('Hello Bella Notte Trattoria');
    expect(mail.text).not.toMatch(/Tax \(0%|Tax: Tax|Tax 0%/);
    expect(mail.html).toContain('<p>Hello Giulia,</p>');
    expect(mail.html).toContain('400 Harbor Way, Suite 12<br>Portland, OR 97204<br>United States');
    expect(mail.html).toContain('Tax ID: 93-4417785');
  });

  it('prints the company, the labels and the days on the invoice PDF, without a tax line', async () => {
    const pdf = await download(`/api/invoices/${invoiceId}/pdf`);
    expect(hasImage(pdf), 'the logo').toBe(true);
    // Wrapped lines read as one.
    const text = flatText(pdfText(pdf));
    for (const expected of [
      'Northwind Media LLC',
      '400 Harbor Way, Suite 12',
      'Portland, OR 97204',
      '+1 503 555 0142 · billing@northwind.test',
      'https://northwind.test',
      'Tax ID: 93-4417785',
      'BILL TO',
      'Bella Notte Trattoria',
      '18 Mulberry Street',
      'New York, NY 10013',
      'Jun 15, 2026 to Jul 14, 2026',
      'Jun 22, 2026',
      'CPM, per 1000 impressions · Jun 15, 2026 – Jul 14, 2026 · 100,000 impressions booked',
      'Flat Rate, billed once · from Jun 15, 2026',
      '$1,200.00',
      '$280.00',
      '$1,480.00',
      'PAYMENT INSTRUCTIONS',
      'Wire: First Harbor Bank, account 004417785, routing 123000848',
      'Thank you for advertising with Northwind.',
      `Northwind Media LLC - Invoice ${number}`,
    ]) {
      expect(text, expected).toContain(expected);
    }
    expect(text).not.toContain('Tax (0%)');
    // No day written as 2026-06-22 anywhere (the pay link's random token aside).
    expect(text.replace(/https:\/\/\S+/g, '')).not.toMatch(/\d{4}-\d{2}-\d{2}/);
  });

  it('reminds Giulia when it is overdue, with the day it was due in words', async () => {
    await runDunning({ db: ctx.db, mailer: ctx.app.mailer, baseUrl: ORIGIN }, { asOf: '2026-06-25' });
    const reminder = (await mailsAbout(invoiceId)).find((m) => m.subject.startsWith('Reminder'))!;
    expect(reminder.subject).toBe(`Reminder: invoice ${number} is overdue`);
    for (const line of [
      'Hello Giulia,',
      `A friendly reminder: invoice ${number} was due on Jun 22, 2026 and $1,480.00 is still unpaid.`,
      'Was due: Jun 22, 2026 (3 days ago)',
      'Other ways to pay:',
      TEXT_FOOTER,
    ]) {
      expect(reminder.text, line).toContain(line);
    }
  });

  it('sends Giulia the receipt, and the credit note with its PDF, both from the company', async () => {
    const paid = await ctx.injectAs('finance', {
      method: 'POST',
      url: `/api/invoices/${invoiceId}/payments`,
      payload: { amount: 1000, method: 'wire', paidAt: '2026-06-26' },
    });
    expect(paid.statusCode, paid.body).toBe(201);
    const receipt = (await mailsAbout(invoiceId)).find((m) => m.subject.startsWith('Receipt'))!;
    expect(receipt.subject).toBe(`Receipt for invoice ${number}: $1,000.00 received`);
    for (const line of [
      'Hello Giulia,',
      'Payment date: Jun 26, 2026',
      'Period: Jun 15, 2026 to Jul 14, 2026',
      'Still due: $480.00',
      TEXT_FOOTER,
    ]) {
      expect(receipt.text, line).toContain(line);
    }

    const credited = await ctx.injectAs('finance', {
      method: 'POST',
      url: `/api/invoices/${invoiceId}/credit-notes`,
      payload: { amount: 80, reason: 'Two spots missed' },
    });
    expect(credited.statusCode, credited.body).toBe(201);
    const [note] = await ctx.db.select().from(creditNotes).where(eq(creditNotes.invoiceId, invoiceId));
    const [creditMail] = await mailsAbout(note.id);
    expect(creditMail.text).toContain('Hello Giulia,');
    expect(creditMail.text).toContain(`We have issued credit note ${note.number} of $80.00 on invoice ${number}.`);
    expect(creditMail.text).toContain(TEXT_FOOTER);

    const pdf = await download(`/api/credit-notes/${note.id}/pdf`);
    expect(hasImage(pdf), 'the logo').toBe(true);
    const text = pdfText(pdf);
    for (const expected of [
      'Northwind Media LLC',
      '400 Harbor Way, Suite 12',
      'Portland, OR 97204',
      'Tax ID: 93-4417785',
      `Credits invoice ${number}`,
      'Billing period Jun 15, 2026 to Jul 14, 2026, invoice total $1,480.00',
      'Credit amount',
      '$80.00',
      'Thank you for advertising with Northwind.',
    ]) {
      expect(text, expected).toContain(expected);
    }
    expect(text).not.toContain('Tax (0%');
    // Nothing is due on a credit note.
    expect(text).not.toContain('PAYMENT INSTRUCTIONS');
  });
});

describe('an insertion order', () => {
  it('prints the ad types and metrics by their labels and the profile of the day it was sent', async () => {
    const created = await ctx.injectAs('sales', {
      method: 'POST',
      url: '/api/contracts',
      payload: {
        customerId: customer.id,
        startDate: '2030-12-15',
        termMonths: 3,
        title: 'Holiday season',
        setupFee: 0,
        paymentMode: 'pay_link',
        packageId: null,
        sendToCustomer: true,
        makeActive: false,
        lineItems: [
          { productId: preRoll.id, quantity: 100, unitPrice: 12, discount: 0 },
          { productId: special.id, quantity: 1, unitPrice: 280, discount: 0 },
        ],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const contractId: string = created.json().id;

    // The e-mail that sends it.
    const [sent] = await mailsAbout(contractId);
    for (const line of [
      'Hello Giulia,',
      'Start date: Dec 15, 2030',
      'Term: 3 months (until Mar 15, 2031)',
      'First invoice: $1,480.00 on Dec 15, 2030 (due Dec 22, 2030)',
      TEXT_FOOTER,
    ]) {
      expect(sent.text, line).toContain(line);
    }

    const original = await download(`/api/contracts/${contractId}/io/1/pdf`);
    expect(hasImage(original), 'the logo').toBe(true);
    const text = flatText(pdfText(original));
    for (const expected of [
      'INSERTION ORDER',
      'Northwind Media LLC',
      '400 Harbor Way, Suite 12',
      'Portland, OR 97204',
      'Tax ID: 93-4417785',
      'Start date',
      'Dec 15, 2030',
      '3 months (until Mar 15, 2031)',
      'Pre-roll Video Ad · CPM, per 1000 impressions · Flight: Dec 15, 2030 to the end of the contract',
      'CTN Seasonal Movie Special · Flat Rate · Flight: Dec 15, 2030 to the end of the contract',
      '$1,480.00',
      'Dec 15, 2030 to Jan 14, 2031',
      'Dec 22, 2030',
      'Thank you for advertising with Northwind.',
    ]) {
      expect(text, expected).toContain(expected);
    }
    for (const unwanted of ['pre_roll', 'ctn_special', 'Tax 0%', 'PAYMENT INSTRUCTIONS']) {
      expect(text, unwanted).not.toContain(unwanted);
    }

    // The company moves: the IO sent before keeps its profile, in its pages and in the signed record.
    const moved = { ...PROFILE, address: { ...PROFILE.address, street: '1 Riverside Drive' } };
    expect(
      (await ctx.injectAs('admin', { method: 'PUT', url: '/api/settings/company', payload: moved })).statusCode,
    ).toBe(200);
    const [io] = await ctx.db
      .select({ token: insertionOrders.token })
      .from(insertionOrders)
      .where(and(eq(insertionOrders.contractId, contractId), eq(insertionOrders.version, 1)));
    const accepted = await ctx.app.inject({
      method: 'POST',
      url: `/api/io/${io.token}/accept`,
      payload: { signerName: 'Giulia Russo', agree: true },
      remoteAddress: nextAddress(),
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(Buffer.compare(await download(`/api/contracts/${contractId}/io/1/pdf`), original)).toBe(0);
    const signed = flatText(pdfText(await download(`/api/contracts/${contractId}/io/1/signed-pdf`)));
    expect(signed).toContain('SIGNING CERTIFICATE');
    expect(signed.match(/400 Harbor Way, Suite 12/g)).toHaveLength(2); // the IO's page and the certificate's
    expect(signed).not.toContain('1 Riverside Drive');
    expect(signed).toMatch(/Accepted at [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{2}:\d{2}:\d{2} UTC/);

    // A document made now prints today's profile.
    const [invoiceRow] = await ctx.db.select({ id: invoices.id }).from(invoices).limit(1);
    expect(pdfText(await download(`/api/invoices/${invoiceRow.id}/pdf`))).toContain('1 Riverside Drive');
  });
});
