import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Contract } from '@shared/contracts/contract-responses';
import { type ContractInsertionOrders, IO_MESSAGES } from '@shared/contracts/insertion-orders';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditEvents,
  contracts,
  insertionOrderEvents,
  insertionOrders,
  notifications,
  outboxEmails,
  users,
} from '../../db/schema';
import { createMailer, type Mailer } from '../../lib/mailer';
import { buildTestApp, type TestContext } from '../../test/app';
import { setTaxSettings } from '../../test/billing-factories';
import { createTestCustomer, createTestProduct } from '../../test/catalog-factories';
import { createInvoice } from '../../test/commission-factories';
import { createTestUser } from '../../test/factories';
import { card, checkoutToken, createPayLinkContract, nextAddress, publicClient } from '../../test/payment-factories';
import { pdfText } from '../../test/pdf';
import { decoded, type SmtpCatcher, startSmtp } from '../../test/smtp';
import { multipartBody } from '../../test/upload-fixtures';

/**
 * Insertion orders (product.md section 15) through the API: the send freezes version N as a stored PDF, the
 * customer's link shows, accepts or declines it, an edit supersedes it, payment waits for acceptance, and the
 * signed record reaches the customer and the rep by real SMTP with the file attached.
 */

const ORIGIN = 'https://io.example.test';
let ctx: TestContext;
let smtp: SmtpCatcher;
let mailer: Mailer;
let dataDir: string;
let customer: Awaited<ReturnType<typeof createTestCustomer>>;
let banner: Awaited<ReturnType<typeof createTestProduct>>;

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const FUTURE_START = `${new Date().getUTCFullYear() + 1}-02-01`;

beforeAll(async () => {
  smtp = await startSmtp();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'adcrm-io-'));
  mailer = createMailer({ SMTP_URL: smtp.url, MAIL_FROM: 'AdCRM <billing@adcrm.local>', DATA_DIR: dataDir });
  ctx = await buildTestApp({ config: { PUBLIC_URL: ORIGIN, DATA_DIR: dataDir }, mailer });
  await setTaxSettings(ctx.db, { defaultTaxRate: 0, taxIncluded: false, taxLabel: 'Tax' });
  customer = await createTestCustomer(ctx.db, { name: 'Harbor Lights', email: 'buyer@harbor.test' });
  banner = await createTestProduct(ctx.db, { name: 'Leaderboard Banner', adType: 'banner', defaultPriceCents: 100_00 });
});
afterAll(async () => {
  await ctx.close();
  await smtp.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const body = (overrides: Record<string, unknown> = {}) => ({
  customerId: customer.id,
  startDate: FUTURE_START,
  termMonths: 3,
  title: 'Harbor spring campaign',
  setupFee: 25,
  paymentMode: 'pay_link',
  packageId: null,
  sendToCustomer: true,
  makeActive: false,
  lineItems: [{ productId: banner.id, quantity: 2, unitPrice: 100, discount: 10 }],
  ...overrides,
});

async function createSent(overrides: Record<string, unknown> = {}): Promise<Contract> {
  const response = await ctx.injectAs('sales', { method: 'POST', url: '/api/contracts', payload: body(overrides) });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

async function versionRow(contractId: string, version: number) {
  const [row] = await ctx.db
    .select()
    .from(insertionOrders)
    .where(and(eq(insertionOrders.contractId, contractId), eq(insertionOrders.version, version)));
  return row;
}

const anon = (method: 'GET' | 'POST', url: string, payload?: object, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method, url, payload, remoteAddress: nextAddress(), headers });

const accept = (token: string, payload: object) => anon('POST', `/api/io/${token}/accept`, payload);

async function staffIo(contractId: string): Promise<ContractInsertionOrders> {
  const response = await ctx.injectAs('admin', { method: 'GET', url: `/api/contracts/${contractId}/io` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

function multipartPdf(bytes: Buffer) {
  const boundary = '----adcrmIoVerify';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="io.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('sending freezes version 1', () => {
  it('stores a real PDF whose bytes hash to the recorded SHA-256 and whose footer prints the content fingerprint', async () => {
    const contract = await createSent();
    const io = await staffIo(contract.id);
    expect(io.payable).toBe(false);
    expect(io.versions).toHaveLength(1);
    const [v1] = io.versions;
    expect(v1).toMatchObject({ version: 1, status: 'sent', customerEmail: 'buyer@harbor.test', acceptedAt: null });
    expect(v1.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(v1.contentSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(v1.events.map((e) => e.type)).toEqual(['sent']);

    const pdf = await ctx.injectAs('admin', { method: 'GET', url: v1.pdfUrl });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    // A download: framed by nobody, as every other answer.
    expect(pdf.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(pdf.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(sha256(pdf.rawPayload)).toBe(v1.sha256);
    const text = pdfText(pdf.rawPayload);
    expect(text).toContain(v1.contentSha256);
    expect(text).toContain('INSERTION ORDER');
    expect(text).toContain('Leaderboard Banner');
    expect(text).toContain('Harbor Lights');

    // The staff answers never carry the link's token.
    const row = await versionRow(contract.id, 1);
    const detail = await ctx.injectAs('admin', { method: 'GET', url: `/api/contracts/${contract.id}` });
    expect(detail.json().insertionOrder).toMatchObject({ version: 1, status: 'sent', signerName: null });
    for (const answer of [JSON.stringify(io), detail.body]) expect(answer).not.toContain(row.token);
    const audit = await ctx.db.select().from(auditEvents).where(eq(auditEvents.entityId, contract.id));
    expect(audit.map((a) => a.action)).toContain('insertion_order.sent');
    expect(JSON.stringify(audit)).not.toContain(row.token);

    // The send e-mail has the "Review and sign" link, masked in the outbox.
    const mails = await ctx.db.select().from(outboxEmails).where(eq(outboxEmails.entityId, contract.id));
    const send = mails.find((m) => m.subject.includes('ready for payment'))!;
    expect(send.text).toContain(`${ORIGIN}/io/[hidden]`);
    expect(send.text).not.toContain(row.token);
    expect(send.html).toContain('Review and sign');
    // Only the SMTP delivery carries the full link.
    await mailer.idle();
    await mailer.deliverDue(ctx.db);
    const delivered = smtp.received.filter((m) => decoded(m.raw).includes(`${ORIGIN}/io/${row.token}`));
    expect(delivered.map((m) => m.to)).toEqual([['buyer@harbor.test']]);
  });

  it('answers the public page, records the first view once, and 404s an unknown token', async () => {
    const contract = await createSent();
    const { token } = await versionRow(contract.id, 1);
    const ua = { 'user-agent': 'IoTest/1.0' };
    const first = await anon('GET', `/api/io/${token}`, undefined, ua);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({
      contractId: contract.id,
      version: 1,
      status: 'sent',
      latestVersion: 1,
      pdfUrl: `${ORIGIN}/api/io/${token}/pdf`,
      signedPdfUrl: null,
      figures: {
        customerName: 'Harbor Lights',
        termMonths: 3,
        setupFee: 25,
        lines: [{ description: 'Leaderboard Banner', quantity: 2, unitPrice: 100, discount: 10, lineTotal: 190 }],
      },
    });
    // Three periods of 190.00, the first with the 25.00 setup fee.
    expect(first.json().figures.schedule.map((s: { total: number }) => s.total)).toEqual([215, 190, 190]);
    await anon('GET', `/api/io/${token}`);
    const viewed = await ctx.db
      .select()
      .from(insertionOrderEvents)
      .where(and(eq(insertionOrderEvents.contractId, contract.id), eq(insertionOrderEvents.type, 'viewed')));
    expect(viewed).toHaveLength(1);
    expect(viewed[0].userAgent).toBe('IoTest/1.0');
    const pdf = await anon('GET', `/api/io/${token}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(sha256(pdf.rawPayload)).toBe((await versionRow(contract.id, 1)).pdfSha256);
    // Shown inline in the review step: our own pages may frame it, nobody else's.
    expect(pdf.headers['content-disposition']).toMatch(/^inline;/);
    expect(pdf.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'self'");

    expect((await anon('GET', '/api/io/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).statusCode).toBe(404);
    expect((await anon('GET', '/api/io/nope')).statusCode).toBe(404);
    expect(
      (await anon('POST', '/api/io/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/accept', { signerName: 'Al Bo', agree: true }))
        .statusCode,
    ).toBe(404);
  });
});

describe('versions', () => {
  it('an edit supersedes version 1; the next send makes version 2 and the old link answers 410 naming it', async () => {
    // A portal contract stays editable once sent (a pay-link one is amended instead: below).
    const contract = await createSent({ paymentMode: 'portal' });
    const v1 = await versionRow(contract.id, 1);
    const edit = await ctx.injectAs('sales', {
      method: 'PATCH',
      url: `/api/contracts/${contract.id}`,
      payload: body({
        paymentMode: 'portal',
        sendToCustomer: false,
        lineItems: [{ productId: banner.id, quantity: 3, unitPrice: 100, discount: 0 }],
      }),
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect((await versionRow(contract.id, 1)).status).toBe('superseded');
    // Before the next send, version 1 is still the newest: it shows as superseded.
    const before = await anon('GET', `/api/io/${v1.token}`);
    expect(before.statusCode).toBe(200);
    expect(before.json().status).toBe('superseded');
    // Superseded: not accepted.
    const refused = await accept(v1.token, { signerName: 'Ann Buyer', agree: true });
    expect(refused.statusCode).toBe(409);

    const send = await ctx.injectAs('sales', { method: 'POST', url: `/api/contracts/${contract.id}/send` });
    expect(send.statusCode, send.body).toBe(200);
    const v2 = await versionRow(contract.id, 2);
    expect(v2.status).toBe('sent');
    expect(v2.pdfSha256).not.toBe(v1.pdfSha256);
    const gone = await anon('GET', `/api/io/${v1.token}`);
    expect(gone.statusCode).toBe(410);
    expect(gone.json()).toEqual({
      message: 'This is version 1 of the insertion order; version 2 replaces it.',
      code: 'GONE',
      latestVersion: 2,
      latestUrl: `${ORIGIN}/io/${v2.token}`,
    });
    expect((await anon('GET', `/api/io/${v1.token}/pdf`)).statusCode).toBe(410);
    // The newest version's figures: 3 x 100.00.
    const current = await anon('GET', `/api/io/${v2.token}`);
    expect(current.json().figures.lines[0].lineTotal).toBe(300);

    const again = await ctx.injectAs('sales', { method: 'POST', url: `/api/contracts/${contract.id}/send` });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('Version 2 of the insertion order is already with the customer');
    expect(await ctx.db.select().from(insertionOrders).where(eq(insertionOrders.contractId, contract.id))).toHaveLength(
      2,
    );
  });
});

describe('accepting and declining', () => {
  it('refuses bad names and a missing agree with the schema messages, changing nothing', async () => {
    const contract = await createSent();
    const { token } = await versionRow(contract.id, 1);
    for (const payload of [
      { signerName: 'A', agree: true },
      { signerName: 'x'.repeat(101), agree: true },
      // Invisible characters do not make a name: zero-width spaces, a lone override, a filler, no letters.
      { signerName: '\u200b\u200b\u200b', agree: true },
      { signerName: '\u202e\u202e\u202e', agree: true },
      { signerName: 'A\u200b\u200d', agree: true },
      { signerName: '\u3164\u3164', agree: true },
      { signerName: '12', agree: true },
      { signerName: 'Ann Buyer' },
      { signerName: 'Ann Buyer', agree: false },
    ]) {
      const response = await accept(token, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      const message = 'agree' in payload && payload.agree === true ? IO_MESSAGES.signerName : IO_MESSAGES.agree;
      expect(response.json().message).toContain(message);
    }
    const row = await versionRow(contract.id, 1);
    expect(row).toMatchObject({ status: 'sent', acceptedAt: null, signerName: null });
  });

  it('accepts once (409 the second time), e-mails the signed PDF with its certificate to the customer and the rep', async () => {
    const rep = await ctx.as('sales');
    const contract = await createSent();
    const { token, pdfSha256 } = await versionRow(contract.id, 1);
    const response = await anon(
      'POST',
      `/api/io/${token}/accept`,
      { signerName: '  Ann Buyer ', agree: true },
      {
        'user-agent': 'Signer/2.0',
      },
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ status: 'accepted', signerName: 'Ann Buyer' });
    expect(response.json().signedPdfUrl).toBe(`${ORIGIN}/api/io/${token}/signed-pdf`);
    const row = await versionRow(contract.id, 1);
    expect(row).toMatchObject({
      status: 'accepted',
      signerName: 'Ann Buyer',
      signerEmail: 'buyer@harbor.test',
      signerUserAgent: 'Signer/2.0',
    });
    expect(row.signerIp).toMatch(/^10\./);

    const twice = await accept(token, { signerName: 'Ann Buyer', agree: true });
    expect(twice.statusCode).toBe(409);
    expect((await anon('POST', `/api/io/${token}/decline`, { reason: 'Changed my mind' })).statusCode).toBe(409);

    // The signed file: the IO pages and the certificate, its hash stored, downloadable by staff and the link.
    const io = await staffIo(contract.id);
    expect(io.payable).toBe(true);
    const signed = await ctx.injectAs('admin', { method: 'GET', url: io.versions[0].signedPdfUrl! });
    expect(signed.statusCode).toBe(200);
    expect(sha256(signed.rawPayload)).toBe(row.signedPdfSha256);
    const text = pdfText(signed.rawPayload);
    expect(text).toContain('SIGNING CERTIFICATE');
    expect(text).toContain(pdfSha256);
    expect(text).toContain(row.contentSha256);
    expect(text).toContain('Signer/2.0');
    expect(text).toContain('INSERTION ORDER');
    const publicSigned = await anon('GET', `/api/io/${token}/signed-pdf`);
    expect(sha256(publicSigned.rawPayload)).toBe(row.signedPdfSha256);

    const detail = await ctx.injectAs('admin', { method: 'GET', url: `/api/contracts/${contract.id}` });
    expect(detail.json().insertionOrder).toMatchObject({ version: 1, status: 'accepted', signerName: 'Ann Buyer' });

    await mailer.idle();
    await mailer.deliverDue(ctx.db);
    const [repRow] = await ctx.db.select().from(users).where(eq(users.id, rep.id));
    const signedMails = smtp.received.filter((m) =>
      decoded(m.raw).includes('Signed insertion order: Harbor spring campaign'),
    );
    const recipients = signedMails.flatMap((m) => m.to).sort();
    expect(recipients).toEqual(['buyer@harbor.test', repRow.email].sort());
    for (const mail of signedMails) {
      expect(mail.raw).toContain('Content-Type: application/pdf');
      expect(mail.raw).toContain(`insertion-order-${contract.id.slice(-8)}-v1-signed.pdf`);
      const base64 = /Content-Transfer-Encoding: base64\r?\n(?:[^\r\n]+\r?\n)*?\r?\n([A-Za-z0-9+/=\r\n]+)/.exec(
        mail.raw.slice(mail.raw.indexOf('Content-Type: application/pdf')),
      )![1];
      expect(sha256(Buffer.from(base64.replace(/\s/g, ''), 'base64'))).toBe(row.signedPdfSha256);
    }
    const audit = await ctx.db.select().from(auditEvents).where(eq(auditEvents.entityId, contract.id));
    expect(audit.map((a) => a.action)).toContain('insertion_order.accepted');
    expect(JSON.stringify(audit)).not.toContain(token);
  });

  it('declines with the reason; a declined version cannot be accepted, and the next send makes version 2', async () => {
    const contract = await createSent();
    const { token } = await versionRow(contract.id, 1);
    expect((await anon('POST', `/api/io/${token}/decline`, { reason: '' })).statusCode).toBe(400);
    const declined = await anon('POST', `/api/io/${token}/decline`, { reason: 'Budget moved to Q3' });
    expect(declined.statusCode, declined.body).toBe(200);
    expect(declined.json()).toMatchObject({ status: 'declined', declineReason: 'Budget moved to Q3' });
    const refused = await accept(token, { signerName: 'Ann Buyer', agree: true });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('This insertion order was declined, so it can no longer be accepted.');
    expect((await versionRow(contract.id, 1)).acceptedAt).toBeNull();
    const resend = await ctx.injectAs('sales', { method: 'POST', url: `/api/contracts/${contract.id}/send` });
    expect(resend.statusCode, resend.body).toBe(200);
    expect((await versionRow(contract.id, 2)).status).toBe('sent');
  });

  it('records and prints the name as it reads: invisible and direction-changing characters removed', async () => {
    const contract = await createSent();
    const { token } = await versionRow(contract.id, 1);
    // U+202E shows "eoD enaJ" as "Jane Doe"; the zero-width space hides inside the first name.
    const response = await accept(token, { signerName: '\u202eeoD\u200b enaJ', agree: true });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().signerName).toBe('eoD enaJ');
    expect((await versionRow(contract.id, 1)).signerName).toBe('eoD enaJ');
    const io = await staffIo(contract.id);
    const signed = await ctx.injectAs('admin', { method: 'GET', url: io.versions[0].signedPdfUrl! });
    const text = pdfText(signed.rawPayload);
    expect(text).toContain('eoD enaJ');
    expect(text).not.toContain('\u202e');
  });

  it('20 accepts sent at once: exactly one is accepted', async () => {
    const contract = await createSent();
    const { token } = await versionRow(contract.id, 1);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => accept(token, { signerName: `Signer ${i}`, agree: true })),
    );
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(19);
    const events = await ctx.db
      .select()
      .from(insertionOrderEvents)
      .where(and(eq(insertionOrderEvents.contractId, contract.id), eq(insertionOrderEvents.type, 'accepted')));
    expect(events).toHaveLength(1);
  });
});

describe('the payment gate', () => {
  it('refuses a pay-link checkout until the newest version is accepted, then pays', async () => {
    const contract = await createSent();
    const [row] = await ctx.db.select().from(contracts).where(eq(contracts.id, contract.id));
    const client = publicClient(ctx.app);
    const v1 = await versionRow(contract.id, 1);
    const page = await client.getPayLink(row.payLinkToken!);
    expect(page.json().insertionOrder).toEqual({ token: v1.token, version: 1, status: 'sent' });
    const refused = await client.openCheckout(row.payLinkToken!);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('Accept the insertion order before paying');

    expect((await accept(v1.token, { signerName: 'Ann Buyer', agree: true })).statusCode).toBe(200);
    const opened = await client.openCheckout(row.payLinkToken!);
    expect(opened.statusCode, opened.body).toBe(200);
    const paid = await client.pay(checkoutToken(opened.json().checkoutUrl), card());
    expect(paid.statusCode, paid.body).toBe(200);
    const [after] = await ctx.db.select().from(contracts).where(eq(contracts.id, contract.id));
    expect(after.status).toBe('active');
  });

  it('refuses paying an open checkout once an amendment superseded the accepted version', async () => {
    const contract = await createSent();
    const [row] = await ctx.db.select().from(contracts).where(eq(contracts.id, contract.id));
    const client = publicClient(ctx.app);
    const v1 = await versionRow(contract.id, 1);
    expect((await accept(v1.token, { signerName: 'Ann Buyer', agree: true })).statusCode).toBe(200);
    const opened = await client.openCheckout(row.payLinkToken!);
    expect(opened.statusCode, opened.body).toBe(200);
    // Its pay link exists, so it is no longer edited but amended: a line added.
    const amend = await ctx.injectAs('sales', {
      method: 'POST',
      url: `/api/contracts/${contract.id}/lines`,
      payload: { productId: banner.id, quantity: 1, unitPrice: 40, discount: 0, flightStart: FUTURE_START },
    });
    expect(amend.statusCode, amend.body).toBe(200);
    expect((await versionRow(contract.id, 1)).status).toBe('superseded');
    // An accepted version keeps its signature.
    expect((await versionRow(contract.id, 1)).signerName).toBe('Ann Buyer');
    const paid = await client.pay(checkoutToken(opened.json().checkoutUrl), card());
    expect(paid.statusCode).toBe(409);
    expect(paid.json().message).toContain('Accept the insertion order before paying');
    const [after] = await ctx.db.select().from(contracts).where(eq(contracts.id, contract.id));
    expect(after.status).toBe('sent');
  });

  it('a sent contract with no version at all (sent before insertion orders) pays as before', async () => {
    const { token } = await createPayLinkContract(ctx.db, {
      status: 'sent',
      startDate: FUTURE_START,
      lines: [{ quantity: 1, unitPriceCents: 50_00, discountCents: 0, seasonalPriceCents: null }],
      packagePriceCents: 0,
      setupFeeCents: 0,
    });
    const client = publicClient(ctx.app);
    expect((await client.getPayLink(token)).json().insertionOrder).toBeNull();
    expect((await client.openCheckout(token)).statusCode).toBe(200);
  });
});

describe('verifying a file', () => {
  it('matches version 1 as sent and as signed, and nothing for an unrelated PDF', async () => {
    const contract = await createSent();
    const other = await createSent();
    const { token } = await versionRow(contract.id, 1);
    expect((await accept(token, { signerName: 'Ann Buyer', agree: true })).statusCode).toBe(200);
    const io = await staffIo(contract.id);
    const sent = (await ctx.injectAs('admin', { method: 'GET', url: io.versions[0].pdfUrl })).rawPayload;
    const signed = (await ctx.injectAs('admin', { method: 'GET', url: io.versions[0].signedPdfUrl! })).rawPayload;
    const otherIo = await staffIo(other.id);
    const unrelated = (await ctx.injectAs('admin', { method: 'GET', url: otherIo.versions[0].pdfUrl })).rawPayload;
    const verify = async (bytes: Buffer) => {
      const response = await ctx.injectAs('admin', {
        method: 'POST',
        url: `/api/contracts/${contract.id}/io/verify`,
        ...multipartPdf(bytes),
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    };
    expect(await verify(sent)).toEqual({ sha256: sha256(sent), match: { version: 1, kind: 'sent' } });
    expect(await verify(signed)).toEqual({ sha256: sha256(signed), match: { version: 1, kind: 'signed' } });
    expect(await verify(unrelated)).toEqual({ sha256: sha256(unrelated), match: null });
    const notPdf = await ctx.injectAs('admin', {
      method: 'POST',
      url: `/api/contracts/${contract.id}/io/verify`,
      ...multipartPdf(Buffer.from('not a pdf at all')),
    });
    expect(notPdf.statusCode).toBe(400);
    expect(notPdf.json().message).toBe('Choose a PDF file to check.');
    // A body that only claims to be multipart is the sender's mistake, answered 400.
    const malformed = await ctx.injectAs('admin', {
      method: 'POST',
      url: `/api/contracts/${contract.id}/io/verify`,
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      payload: 'a=1&b=2',
    });
    expect(malformed.statusCode, malformed.body).toBe(400);
    expect(malformed.json().message).toBe('Send the PDF as multipart/form-data.');
    // Another sales rep may not see this contract: 404, as for every contract they may not see.
    const otherRep = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales' }));
    const outsider = await ctx.injectAs(otherRep, {
      method: 'POST',
      url: `/api/contracts/${contract.id}/io/verify`,
      ...multipartPdf(sent),
    });
    expect(outsider.statusCode).toBe(404);
  });

  it('refuses an upload to the check that is not one PDF, in its own words, and closes the connection', async () => {
    const contract = await createSent();
    const url = `/api/contracts/${contract.id}/io/verify`;
    const file = (content: Buffer) => ({ name: 'file', filename: 'io.pdf', type: 'application/pdf', content });
    const cases: [string, { payload: Buffer | string; headers: Record<string, string> }, number, string][] = [
      [
        'JSON',
        { payload: '{}', headers: { 'content-type': 'application/json' } },
        415,
        'Send the PDF as multipart/form-data.',
      ],
      ['two files', multipartBody([file(Buffer.from('%PDF-1')), file(Buffer.from('%PDF-2'))]), 400, 'Send one PDF.'],
      ['an empty file', multipartBody([file(Buffer.alloc(0))]), 400, 'Choose a PDF to check.'],
      ['no file', multipartBody([{ name: 'note', value: 'x' }]), 400, 'Choose a PDF to check.'],
    ];
    for (const [name, body, status, message] of cases) {
      const response = await ctx.injectAs('admin', { method: 'POST', url, ...body });
      expect(response.statusCode, name).toBe(status);
      expect(response.json().message, name).toBe(message);
      expect(response.headers.connection, name).toBe('close');
      if (message === 'Choose a PDF to check.') expect(response.json().fieldErrors, name).toEqual({ file: [message] });
    }
  });

  it('orders the events of a version oldest first on the staff answer', async () => {
    const contract = await createSent();
    const { token } = await versionRow(contract.id, 1);
    await anon('GET', `/api/io/${token}`);
    await accept(token, { signerName: 'Ann Buyer', agree: true });
    const io = await staffIo(contract.id);
    expect(io.versions[0].events.map((e) => e.type)).toEqual(['sent', 'viewed', 'accepted']);
    const rows = await ctx.db
      .select()
      .from(insertionOrderEvents)
      .where(eq(insertionOrderEvents.contractId, contract.id))
      .orderBy(asc(insertionOrderEvents.at));
    expect(rows).toHaveLength(3);
  });
});

describe("the customer's portal and the rep's notices", () => {
  it('shows the IO step on the client portal and refuses its Pay Now until accepted', async () => {
    const portalCustomer = await createTestCustomer(ctx.db, { name: 'Dockside Cafe', email: 'owner@dockside.test' });
    const contract = await createSent({ customerId: portalCustomer.id, paymentMode: 'portal' });
    const [account] = await ctx.db.select().from(users).where(eq(users.customerId, portalCustomer.id));
    const client = await ctx.signIn({ ...account, password: '' });
    const { token } = await versionRow(contract.id, 1);
    const list = await ctx.injectAs(client, { method: 'GET', url: '/api/client/contracts' });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json()[0]).toMatchObject({ id: contract.id, insertionOrder: { token, version: 1, status: 'sent' } });
    const detail = await ctx.injectAs(client, { method: 'GET', url: `/api/client/contracts/${contract.id}` });
    expect(detail.json().insertionOrder).toEqual({ token, version: 1, status: 'sent' });

    const invoice = await createInvoice(ctx.db, contract.id, { subtotalCents: 100_00 });
    const payNow = () => ctx.injectAs(client, { method: 'POST', url: `/api/invoices/${invoice.id}/checkout` });
    const refused = await payNow();
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('Accept the insertion order before paying');
    expect((await accept(token, { signerName: 'Dock Owner', agree: true })).statusCode).toBe(200);
    const opened = await payNow();
    expect(opened.statusCode, opened.body).toBe(200);
    const after = await ctx.injectAs(client, { method: 'GET', url: `/api/client/contracts/${contract.id}` });
    expect(after.json().insertionOrder).toEqual({ token, version: 1, status: 'accepted' });
  });

  it('tells the rep in-app of an acceptance, and in-app and by e-mail of a decline', async () => {
    const rep = await ctx.as('sales');
    const signedContract = await createSent({ title: 'Signed notice' });
    const declinedContract = await createSent({ title: 'Declined notice' });
    await accept((await versionRow(signedContract.id, 1)).token, { signerName: 'Ann Buyer', agree: true });
    await anon('POST', `/api/io/${(await versionRow(declinedContract.id, 1)).token}/decline`, {
      reason: 'Too expensive',
    });
    const mine = await ctx.db.select().from(notifications).where(eq(notifications.userId, rep.id));
    const byType = (type: string, contractId: string) =>
      mine.filter((n) => n.type === type && n.link === `/contracts/${contractId}`);
    expect(byType('io_accepted', signedContract.id).map((n) => n.title)).toEqual([
      'Insertion order signed: Signed notice',
    ]);
    expect(byType('io_declined', declinedContract.id).map((n) => n.body)).toEqual([
      'Harbor Lights declined version 1 of the insertion order: Too expensive',
    ]);
    const mails = await ctx.db.select().from(outboxEmails).where(eq(outboxEmails.to, rep.email));
    expect(mails.map((m) => m.subject)).toContain('Insertion order declined: Declined notice');
    // The notices carry no link's token.
    for (const token of [
      (await versionRow(signedContract.id, 1)).token,
      (await versionRow(declinedContract.id, 1)).token,
    ]) {
      expect(JSON.stringify(mine)).not.toContain(token);
    }
  });

  it('a resend of a sent contract e-mails the link of the version still with the customer', async () => {
    const contract = await createSent({ title: 'Resent IO' });
    const { token } = await versionRow(contract.id, 1);
    const resent = await ctx.injectAs('sales', { method: 'POST', url: `/api/contracts/${contract.id}/resend` });
    expect(resent.statusCode, resent.body).toBe(200);
    expect(await ctx.db.select().from(insertionOrders).where(eq(insertionOrders.contractId, contract.id))).toHaveLength(
      1,
    );
    await mailer.idle();
    await mailer.deliverDue(ctx.db);
    const withLink = smtp.received.filter((m) => decoded(m.raw).includes(`${ORIGIN}/io/${token}`));
    expect(withLink).toHaveLength(2);
  });
});

describe('limits of the public routes', () => {
  it('answers 429 with Retry-After after 20 answers a minute from one address; another address goes on', async () => {
    const contract = await createSent();
    const { token } = await versionRow(contract.id, 1);
    const from = (remoteAddress: string) =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/io/${token}/decline`,
        payload: { reason: '' },
        remoteAddress,
      });
    const address = nextAddress();
    for (let i = 0; i < 20; i++) expect((await from(address)).statusCode).toBe(400);
    const limited = await from(address);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await from(nextAddress())).statusCode).toBe(400);
  });
});

describe('races', () => {
  it('sends of a changed contract at once make one new version; the others answer 409', async () => {
    const contract = await createSent({ paymentMode: 'portal', title: 'Raced send' });
    const edit = await ctx.injectAs('sales', {
      method: 'PATCH',
      url: `/api/contracts/${contract.id}`,
      payload: body({ paymentMode: 'portal', title: 'Raced send', sendToCustomer: false, setupFee: 40 }),
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const sends = await Promise.all(
      Array.from({ length: 6 }, () =>
        ctx.injectAs('sales', { method: 'POST', url: `/api/contracts/${contract.id}/send` }),
      ),
    );
    expect(sends.map((s) => s.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    const versions = await ctx.db
      .select()
      .from(insertionOrders)
      .where(eq(insertionOrders.contractId, contract.id))
      .orderBy(asc(insertionOrders.version));
    expect(versions.map((v) => [v.version, v.status])).toEqual([
      [1, 'superseded'],
      [2, 'sent'],
    ]);
  });

  it('first views at once record one viewed event', async () => {
    const contract = await createSent({ title: 'Raced view' });
    const { token } = await versionRow(contract.id, 1);
    const views = await Promise.all(Array.from({ length: 10 }, () => anon('GET', `/api/io/${token}`)));
    expect(views.every((v) => v.statusCode === 200)).toBe(true);
    const viewed = await ctx.db
      .select()
      .from(insertionOrderEvents)
      .where(and(eq(insertionOrderEvents.contractId, contract.id), eq(insertionOrderEvents.type, 'viewed')));
    expect(viewed).toHaveLength(1);
  });
});
