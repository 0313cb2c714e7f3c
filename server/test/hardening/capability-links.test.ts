import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { type Database, MIGRATIONS_DIR } from '../../db/client';
import { auditEvents, checkoutSessions, contracts, insertionOrders, outboxEmails } from '../../db/schema';
import { loggerOptions } from '../../lib/logger';
import { createSession } from '../../modules/sessions/sessions';
import { openTestDatabase, testConfig } from '../app';
import { createTestCustomer, createTestProduct } from '../catalog-factories';
import { createTestUser, TEST_PASSWORD, type TestUser } from '../factories';
import { checkoutToken, nextAddress } from '../payment-factories';
import { decoded, type SmtpCatcher, startSmtp } from '../smtp';

/**
 * A link that grants something (set a password, pay a contract, pay a checkout) is readable by the person it
 * was sent to only (product.md section 2, docs/decisions/020-capability-links.md). The attack this holds off:
 * the super admin sends themselves a password reset; an admin reads the outbox, copies the set-password link
 * and sets the super admin's password. Here every token-looking value an admin can read (outbox, audit
 * trail, notifications) is tried on every route a token opens, and none works; the links as delivered by
 * SMTP do work (so the probe could succeed), and no log line holds one.
 */
const PUBLIC_URL = 'https://crm.example.test';
const TAKEOVER_PASSWORD = 'taken-over-42';

let smtp: SmtpCatcher;
let database: Database;
let app: Awaited<ReturnType<typeof buildApp>>;
const logLines: string[] = [];
const tokens = new Map<string, string>();
let superAdmin: TestUser;
let admin: TestUser;

async function bearer(user: TestUser): Promise<string> {
  let token = tokens.get(user.id);
  if (!token) {
    token = (await createSession(database.db, user.id, app.sessionPolicy, {})).token;
    tokens.set(user.id, token);
  }
  return token;
}

async function as(user: TestUser, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) {
  const response = await app.inject({
    method,
    url,
    payload,
    headers: { authorization: `Bearer ${await bearer(user)}` },
  });
  return response;
}

const anonymous = (method: 'GET' | 'POST', url: string, payload?: object) =>
  app.inject({ method, url, payload, remoteAddress: nextAddress() });

const login = (email: string, password: string) =>
  app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress: nextAddress() });

/** Every e-mail reaches SMTP before the test reads what was delivered. */
async function deliverAll() {
  await app.mailer.idle();
  await app.mailer.deliverDue(database.db);
}

/** The links of one kind in the delivered e-mails to an address. */
function deliveredLinks(to: string, pattern: RegExp): string[] {
  return smtp.received
    .filter((m) => m.to.includes(to))
    .flatMap((m) => [...decoded(m.raw).matchAll(pattern)].map((match) => match[1]));
}

beforeAll(async () => {
  smtp = await startSmtp();
  database = await openTestDatabase();
  const config = testConfig({ LOG_LEVEL: 'info', PUBLIC_URL, SMTP_URL: smtp.url });
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  app = await buildApp({ config, db: database.db, logger: { ...loggerOptions(config, false), stream } });
  await app.ready();
  superAdmin = await createTestUser(database.db, { role: 'super_admin', email: 'owner@example.test' });
  admin = await createTestUser(database.db, { role: 'admin' });
});
afterAll(async () => {
  await app.mailer.idle();
  await app.close();
  await database.close();
  await smtp.close();
});

describe('links that grant something, as an admin sees the product', () => {
  let payLinkToken: string;
  let checkoutUrl: string;
  let clientEmail: string;
  /** The pay link of a draft that was edited and then deleted: the audit trail keeps both changes. */
  let draftPayLinkToken: string;

  it('sends one of each kind: a password reset, an invitation, a pay link, a portal invitation and an invoice', async () => {
    // The super admin sends themselves a password reset (the first step of the attack).
    const reset = await as(superAdmin, 'POST', `/api/users/${superAdmin.id}/send-password-reset`);
    expect(reset.statusCode, reset.body).toBe(200);

    // An invitation to the client portal, with a set-password link for the new account.
    const invited = await createTestCustomer(database.db, { email: 'invited@example.test' });
    clientEmail = invited.email;
    expect((await as(admin, 'POST', `/api/customers/${invited.id}/invite`)).statusCode).toBe(200);

    // A pay_link contract sent to its customer, then activated: its first invoice e-mail carries the pay link too.
    const product = await createTestProduct(database.db, { defaultPriceCents: 250_00 });
    const payer = await createTestCustomer(database.db, { email: 'payer@example.test' });
    const created = await as(admin, 'POST', '/api/contracts', {
      customerId: payer.id,
      startDate: new Date().toISOString().slice(0, 10),
      paymentMode: 'pay_link',
      sendToCustomer: true,
      lineItems: [{ productId: product.id, quantity: 1, unitPrice: 250, discount: 0 }],
    });
    expect(created.statusCode, created.body).toBe(201);
    payLinkToken = created.json().payLinkToken;
    expect(payLinkToken).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect((await as(admin, 'POST', `/api/contracts/${created.json().id}/activate`)).statusCode).toBe(200);

    // A portal contract sent to a customer without an account: the contract e-mail holds a set-password link.
    const portalCustomer = await createTestCustomer(database.db, { email: 'portal@example.test' });
    const portal = await as(admin, 'POST', '/api/contracts', {
      customerId: portalCustomer.id,
      startDate: new Date().toISOString().slice(0, 10),
      paymentMode: 'portal',
      sendToCustomer: true,
      lineItems: [{ productId: product.id, quantity: 1, unitPrice: 250, discount: 0 }],
    });
    expect(portal.json().status).toBe('sent');

    // A draft's pay link, created by staff, then the draft edited and deleted: both changes are audited.
    const draftBody = {
      customerId: payer.id,
      startDate: new Date().toISOString().slice(0, 10),
      paymentMode: 'pay_link',
      sendToCustomer: false,
      lineItems: [{ productId: product.id, quantity: 2, unitPrice: 250, discount: 0 }],
    };
    const draftId = (await as(admin, 'POST', '/api/contracts', draftBody)).json().id;
    const generated = await as(admin, 'POST', `/api/contracts/${draftId}/generate-payment-link`);
    expect(generated.statusCode, generated.body).toBe(200);
    draftPayLinkToken = generated.json().paymentUrl.split('/p/')[1];
    const edited = await as(admin, 'PATCH', `/api/contracts/${draftId}`, { ...draftBody, description: 'Edited' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await as(admin, 'DELETE', `/api/contracts/${draftId}`)).statusCode).toBe(200);

    // The customer opens a checkout from the pay link (its URL goes to the payer only).
    const opened = await anonymous('POST', `/api/pay/${payLinkToken}/checkout`);
    expect(opened.statusCode, opened.body).toBe(200);
    checkoutUrl = opened.json().checkoutUrl;
  });

  it('shows every such link in the outbox with its token hidden', async () => {
    const outbox = await as(admin, 'GET', '/api/outbox?limit=100');
    expect(outbox.statusCode).toBe(200);
    const messages = outbox.json() as { to: string; subject: string; text: string; html: string | null }[];
    const reset = messages.find((m) => m.to === superAdmin.email);
    expect(reset?.subject).toBe('Reset your AdCRM password');
    expect(reset?.text).toContain(`Choose a new password: ${PUBLIC_URL}/set-password?token=[hidden]`);
    expect(reset?.html).toContain(`href="${PUBLIC_URL}/set-password?token=[hidden]"`);
    const invitation = messages.find((m) => m.to === clientEmail);
    expect(invitation?.text).toContain(`Set your password: ${PUBLIC_URL}/set-password?token=[hidden]`);
    const payLinks = messages.filter((m) => m.to === 'payer@example.test');
    expect(payLinks.map((m) => m.subject)).toEqual([
      expect.stringMatching(/^Invoice INV-\d{4}-\d{6}: \$250\.00 due /),
      expect.stringMatching(/is ready for payment$/),
    ]);
    for (const mail of payLinks) expect(mail.text).toContain(`Pay securely: ${PUBLIC_URL}/p/[hidden]`);
    // The insertion order's "Review and sign" link (product.md section 15) is masked the same way.
    const sent = payLinks.find((m) => m.subject.endsWith('is ready for payment'));
    expect(sent?.text).toContain(`Review and sign the insertion order first: ${PUBLIC_URL}/io/[hidden]`);
    expect(sent?.html).toContain(`href="${PUBLIC_URL}/io/[hidden]"`);
    for (const { token } of await database.db.select({ token: insertionOrders.token }).from(insertionOrders)) {
      expect(outbox.body).not.toContain(token);
    }
    const portal = messages.find((m) => m.to === 'portal@example.test');
    expect(portal?.text).toContain(`Set your password: ${PUBLIC_URL}/set-password?token=[hidden]`);
    expect(outbox.body).not.toContain(payLinkToken);
    expect(outbox.body).not.toContain(checkoutToken(checkoutUrl));
  });

  it('no token-looking value an admin can read opens anything: set-password, pay link or checkout', async () => {
    const readable = await Promise.all(
      ['/api/outbox?limit=100', '/api/audit?limit=100', '/api/notifications'].map(async (url) => {
        const response = await as(admin, 'GET', url);
        expect(response.statusCode, url).toBe(200);
        return response.body;
      }),
    );
    const candidates = [...new Set(readable.join('\n').match(/[A-Za-z0-9_-]{16,}/g) ?? [])];
    expect(candidates.length).toBeGreaterThan(10);
    for (const value of candidates) {
      const set = await anonymous('POST', '/api/auth/set-password', {
        token: value,
        password: TAKEOVER_PASSWORD,
        confirmPassword: TAKEOVER_PASSWORD,
      });
      expect(set.statusCode, `set-password with ${value}: ${set.body}`).toBe(400);
      const pay = await anonymous('GET', `/api/pay/${encodeURIComponent(value)}`);
      expect(pay.statusCode, `pay link ${value}`).toBe(404);
      const checkout = await anonymous('GET', `/api/checkout/${encodeURIComponent(value)}`);
      expect(checkout.statusCode, `checkout ${value}`).toBe(404);
      const io = await anonymous('GET', `/api/io/${encodeURIComponent(value)}`);
      expect(io.statusCode, `insertion order ${value}`).toBe(404);
    }
    // The super admin's account is untouched: their own password still signs in, the attacker's does not.
    expect((await login(superAdmin.email, TEST_PASSWORD)).statusCode).toBe(200);
    expect((await login(superAdmin.email, TAKEOVER_PASSWORD)).statusCode).toBe(401);
  });

  it('the links as delivered by SMTP work for their recipients, and the outbox then keeps no full copy', async () => {
    await deliverAll();
    const [resetLink] = deliveredLinks(superAdmin.email, /Choose a new password: (\S+)/g);
    expect(resetLink).toMatch(new RegExp(`^${PUBLIC_URL}/set-password\\?token=[A-Za-z0-9_-]{43}$`));
    const set = await anonymous('POST', '/api/auth/set-password', {
      token: new URL(resetLink).searchParams.get('token'),
      password: 'owner-chosen-1',
      confirmPassword: 'owner-chosen-1',
    });
    expect(set.statusCode, set.body).toBe(200);
    expect((await login(superAdmin.email, 'owner-chosen-1')).statusCode).toBe(200);

    const payLinks = deliveredLinks('payer@example.test', /Pay securely: (\S+)/g);
    expect(payLinks).toEqual([`${PUBLIC_URL}/p/${payLinkToken}`, `${PUBLIC_URL}/p/${payLinkToken}`]);
    expect((await anonymous('GET', `/api/pay/${payLinkToken}`)).statusCode).toBe(200);
    expect((await anonymous('GET', `/api/checkout/${checkoutToken(checkoutUrl)}`)).statusCode).toBe(200);
    const ioLinks = deliveredLinks('payer@example.test', /Review and sign the insertion order first: (\S+)/g);
    expect(ioLinks).toHaveLength(1);
    expect(ioLinks[0]).toMatch(new RegExp(`^${PUBLIC_URL}/io/[A-Za-z0-9_-]{32}$`));
    expect((await anonymous('GET', `/api/io/${ioLinks[0].split('/io/')[1]}`)).statusCode).toBe(200);

    const rows = await database.db.select().from(outboxEmails);
    expect(rows.length).toBeGreaterThan(4);
    for (const row of rows) {
      expect(row.status).toBe('sent');
      expect(row.deliveryText).toBeNull();
      expect(row.deliveryHtml).toBeNull();
    }
  });

  it('the audit trail and the log hold no token of any kind', async () => {
    const checkouts = await database.db.select({ token: checkoutSessions.token }).from(checkoutSessions);
    const payLinks = await database.db
      .select({ token: contracts.payLinkToken })
      .from(contracts)
      .where(sql`${contracts.payLinkToken} is not null`);
    const setPasswordTokens = smtp.received.flatMap((m) =>
      [...decoded(m.raw).matchAll(/set-password\?token=([A-Za-z0-9_-]+)/g)].map((match) => match[1]),
    );
    const ioTokens = await database.db.select({ token: insertionOrders.token }).from(insertionOrders);
    expect(ioTokens.length).toBe(2);
    const secrets = [
      ...ioTokens.map((io) => io.token),
      draftPayLinkToken,
      ...checkouts.map((c) => c.token),
      ...payLinks.map((c) => c.token as string),
      ...setPasswordTokens,
      ...tokens.values(),
    ];
    expect(checkouts.length).toBe(1);
    expect(payLinks.length).toBe(1);
    expect(setPasswordTokens.length).toBeGreaterThanOrEqual(3);

    const trail = JSON.stringify(await database.db.select().from(auditEvents));
    const log = logLines.join('');
    expect(log).toContain('/api/pay/[token]');
    for (const secret of secrets) {
      expect(trail, 'audit trail').not.toContain(secret);
      expect(log, 'log').not.toContain(secret);
    }
  });
});

describe('messages stored before links were masked', () => {
  it('the migration hides their tokens, keeping a full copy only for messages not yet delivered', async () => {
    const link = (token: string) => `${PUBLIC_URL}/set-password?token=${token}`;
    const [queued, sent] = await database.db
      .insert(outboxEmails)
      .values([
        {
          to: 'old-queued@example.test',
          subject: 'Reset your AdCRM password',
          text: `Choose a new password: ${link('QueuedTokenAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')}`,
          html: `<a href="${PUBLIC_URL}/p/QueuedPayLinkBBBBBBBBBBBBBBBBBBBB">Pay</a>`,
          status: 'queued',
        },
        {
          to: 'old-sent@example.test',
          subject: 'Invoice',
          text: `Pay securely: ${PUBLIC_URL}/p/SentPayLinkCCCCCCCCCCCCCCCCCCCCCC and ${PUBLIC_URL}/checkout/SentCheckoutDDDDDDDDDDDDDDDDDD`,
          status: 'sent',
        },
      ])
      .returning();
    const [event] = await database.db
      .insert(auditEvents)
      .values({
        actorId: null,
        action: 'contract.updated',
        entity: 'contract',
        entityId: queued.id,
        before: { status: 'draft', payLinkToken: 'AuditedTokenEEEEEEEEEEEEEEEEEEEE' },
        after: { status: 'sent', payLinkToken: 'AuditedTokenFFFFFFFFFFFFFFFFFFFF' },
      })
      .returning();

    const file = path.join(MIGRATIONS_DIR, '0013_capability-links.sql');
    const statements = fs.readFileSync(file, 'utf8').split('--> statement-breakpoint');
    // The columns exist already on this database; the data statements are what is checked here.
    for (const statement of statements.filter((s) => !/ALTER TABLE/i.test(s))) {
      await database.db.execute(sql.raw(statement));
    }

    const [queuedNow] = await database.db.select().from(outboxEmails).where(eq(outboxEmails.id, queued.id));
    expect(queuedNow.text).toBe(`Choose a new password: ${link('[hidden]')}`);
    expect(queuedNow.html).toBe(`<a href="${PUBLIC_URL}/p/[hidden]">Pay</a>`);
    expect(queuedNow.deliveryText).toBe(
      `Choose a new password: ${link('QueuedTokenAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')}`,
    );
    expect(queuedNow.deliveryHtml).toBe(`<a href="${PUBLIC_URL}/p/QueuedPayLinkBBBBBBBBBBBBBBBBBBBB">Pay</a>`);
    const [sentNow] = await database.db.select().from(outboxEmails).where(eq(outboxEmails.id, sent.id));
    expect(sentNow.text).toBe(`Pay securely: ${PUBLIC_URL}/p/[hidden] and ${PUBLIC_URL}/checkout/[hidden]`);
    expect(sentNow.deliveryText).toBeNull();
    const [eventNow] = await database.db.select().from(auditEvents).where(eq(auditEvents.id, event.id));
    expect(eventNow.before).toEqual({ status: 'draft' });
    expect(eventNow.after).toEqual({ status: 'sent' });
  });
});
