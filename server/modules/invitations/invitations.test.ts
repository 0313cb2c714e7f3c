import fs from 'node:fs';
import path from 'node:path';
import { PASSWORD_LINK_MESSAGES } from '@shared/contracts/invitations';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../../db/client';
import { auditEvents, outboxEmails, passwordTokens, sessions, users } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { createTestCustomer, createTestProduct } from '../../test/catalog-factories';
import { createTestUser, TEST_PASSWORD } from '../../test/factories';
import { asDelivered } from '../../test/outbox';
import { SET_PASSWORD_LIMIT } from './invitations.routes';

const PUBLIC_URL = 'https://crm.example.test';
/** Every password any test in this file chooses: none may ever appear in an e-mail, the audit trail or a log. */
const CHOSEN_PASSWORDS = new Set<string>([TEST_PASSWORD]);

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp({ config: { PUBLIC_URL } });
});
afterAll(() => ctx.close());

const invite = (customerId: string, role: Parameters<TestContext['injectAs']>[0] = 'sales') =>
  ctx.injectAs(role, { method: 'POST', url: `/api/customers/${customerId}/invite` });

const setPassword = (token: string | null, password: string, confirmPassword = password) => {
  CHOSEN_PASSWORDS.add(password);
  return ctx.app.inject({
    method: 'POST',
    url: '/api/auth/set-password',
    payload: { token, password, confirmPassword },
  });
};

const login = (email: string, password: string) =>
  ctx.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });

/** The newest e-mail to this address, from the outbox, as its recipient receives it. */
async function lastMailTo(email: string) {
  const rows = await ctx.db
    .select()
    .from(outboxEmails)
    .where(eq(outboxEmails.to, email))
    .orderBy(sql`${outboxEmails.createdAt} desc`);
  expect(rows.length, `an e-mail to ${email}`).toBeGreaterThan(0);
  return asDelivered(rows[0]);
}

/** The token of the set-password link in an e-mail's text (null when it has none). */
function linkToken(text: string): string | null {
  const match = new RegExp(`${PUBLIC_URL}/set-password\\?token=([A-Za-z0-9_-]+)`).exec(text);
  return match?.[1] ?? null;
}

describe('portal invitation: POST /api/customers/{id}/invite', () => {
  it('creates the client account without a usable password and e-mails a single-use set-password link', async () => {
    const customer = await createTestCustomer(ctx.db, { name: 'Aurora Films', contactPerson: 'Mia Aurora Lind' });
    const response = await invite(customer.id);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ email: customer.email, accountCreated: true, link: 'set-password' });
    expect(body.message).toBe(`A set-password link was sent to ${customer.email}`);

    const [account] = await ctx.db.select().from(users).where(eq(users.customerId, customer.id));
    expect(account).toMatchObject({
      id: body.userId,
      role: 'client',
      email: customer.email,
      firstName: 'Mia',
      lastName: 'Aurora Lind',
      isActive: true,
      passwordSetAt: null,
    });

    const mail = await lastMailTo(customer.email);
    expect(mail.subject).toBe('Your AdCRM client portal invitation');
    const token = linkToken(mail.text);
    expect(token, 'the e-mail holds a link on the public origin').toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 bits
    expect(mail.html).toContain(`${PUBLIC_URL}/set-password?token=${token}`);
    expect(mail.text).toContain('expires in 72 hours');

    // Only the token's SHA-256 is stored, with a 72-hour expiry.
    const [stored] = await ctx.db.select().from(passwordTokens).where(eq(passwordTokens.userId, account.id));
    expect(stored.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.tokenHash).not.toContain(token!);
    expect(stored).toMatchObject({ purpose: 'invite', usedAt: null });
    const hours = (stored.expiresAt.getTime() - stored.createdAt.getTime()) / 3_600_000;
    expect(hours).toBeGreaterThan(71.9);
    expect(hours).toBeLessThan(72.1);

    // Nobody can sign in before a password is chosen.
    expect((await login(customer.email, '')).statusCode).toBe(400);
    expect((await login(customer.email, 'anything')).statusCode).toBe(401);

    const audit = await ctx.db
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(eq(auditEvents.entityId, customer.id));
    expect(audit.map((a) => a.action)).toEqual(['customer.portal_invited']);
  });

  it('sets the password from the link once, signs nobody in, and the account then signs in', async () => {
    const customer = await createTestCustomer(ctx.db);
    await invite(customer.id, 'admin');
    const token = linkToken((await lastMailTo(customer.email)).text)!;

    const response = await setPassword(token, 'portal-pass-1');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ message: PASSWORD_LINK_MESSAGES.done, email: customer.email });
    expect(response.cookies).toHaveLength(0);
    expect(response.json().token).toBeUndefined();

    const signIn = await login(customer.email, 'portal-pass-1');
    expect(signIn.statusCode).toBe(200);
    expect(signIn.json().user).toMatchObject({ role: 'client', customerId: customer.id });

    const again = await setPassword(token, 'portal-pass-2');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ message: PASSWORD_LINK_MESSAGES.used, code: 'BAD_REQUEST' });
    expect((await login(customer.email, 'portal-pass-2')).statusCode).toBe(401);
    expect((await login(customer.email, 'portal-pass-1')).statusCode).toBe(200);
  });

  it('refuses an expired link, and an unknown or malformed one, with a clear 400', async () => {
    const customer = await createTestCustomer(ctx.db);
    await invite(customer.id);
    const token = linkToken((await lastMailTo(customer.email)).text)!;
    const [account] = await ctx.db.select().from(users).where(eq(users.customerId, customer.id));
    await ctx.db.execute(
      sql`update password_tokens set expires_at = now() - interval '1 minute' where user_id = ${account.id}`,
    );
    const expired = await setPassword(token, 'too-late-1');
    expect(expired.statusCode).toBe(400);
    expect(expired.json().message).toBe(PASSWORD_LINK_MESSAGES.expired);

    for (const unknown of ['A'.repeat(43), 'not a token!', '']) {
      const response = await setPassword(unknown, 'whatever-1');
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(PASSWORD_LINK_MESSAGES.invalid);
    }
    const missing = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/set-password',
      payload: { password: 'whatever-1', confirmPassword: 'whatever-1' },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe(PASSWORD_LINK_MESSAGES.invalid);
    const [after] = await ctx.db.select().from(users).where(eq(users.id, account.id));
    expect(after.passwordSetAt).toBeNull();
  });

  it.each([
    ['short', 'short', 'Password must be at least 6 characters'],
    ['long enough', '', 'Please confirm your password'],
    ['long enough', 'different', "Passwords don't match"],
  ])('applies the password form rules: %j / %j', async (password, confirmPassword, message) => {
    const customer = await createTestCustomer(ctx.db);
    await invite(customer.id);
    const token = linkToken((await lastMailTo(customer.email)).text)!;
    const response = await setPassword(token, password, confirmPassword);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
    // The link is not spent by a refused attempt.
    expect((await setPassword(token, 'finally-ok')).statusCode).toBe(200);
  });

  it('a second invitation before the password is set sends a new link; after it, a sign-in link', async () => {
    const customer = await createTestCustomer(ctx.db);
    const first = await invite(customer.id);
    const firstToken = linkToken((await lastMailTo(customer.email)).text)!;
    const second = await invite(customer.id);
    expect(second.json()).toMatchObject({ accountCreated: false, link: 'set-password', userId: first.json().userId });
    const secondToken = linkToken((await lastMailTo(customer.email)).text)!;
    expect(secondToken).not.toBe(firstToken);
    expect(await ctx.db.select().from(users).where(eq(users.customerId, customer.id))).toHaveLength(1);

    // Setting the password with one link spends the other too.
    expect((await setPassword(secondToken, 'chosen-pass')).statusCode).toBe(200);
    expect((await setPassword(firstToken, 'other-pass')).json().message).toBe(PASSWORD_LINK_MESSAGES.used);

    const third = await invite(customer.id);
    expect(third.json()).toMatchObject({ accountCreated: false, link: 'sign-in' });
    expect(third.json().message).toBe(`A link to the client portal was sent to ${customer.email}`);
    const mail = await lastMailTo(customer.email);
    expect(linkToken(mail.text)).toBeNull();
    expect(mail.text).toContain(`Client portal: ${PUBLIC_URL}/portal`);
    expect(mail.text).toContain(`Sign in with your client portal account (${customer.email})`);
  });

  it('answers 404 for an unknown customer and 409 when the e-mail belongs to a staff account', async () => {
    const unknown = await invite('00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Customer not found');

    const staff = await createTestUser(ctx.db, { role: 'finance' });
    const clash = await createTestCustomer(ctx.db, { email: staff.email.toUpperCase() });
    const response = await invite(clash.id);
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toMatch(/already belongs to another account/);
    expect(await ctx.db.select().from(users).where(eq(users.customerId, clash.id))).toHaveLength(0);
  });

  it('refuses to invite to a deactivated account', async () => {
    const customer = await createTestCustomer(ctx.db);
    await createTestUser(ctx.db, { role: 'client', customerId: customer.id, isActive: false });
    const response = await invite(customer.id);
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toMatch(/deactivated/);
  });

  it('creates one account when invitations and portal contract sends for a customer run at once', async () => {
    const customer = await createTestCustomer(ctx.db, { contactPerson: 'Rae Parallel' });
    const product = await createTestProduct(ctx.db);
    const drafts = await Promise.all(
      [1, 2, 3].map(async () => {
        const created = await ctx.injectAs('admin', {
          method: 'POST',
          url: '/api/contracts',
          payload: {
            customerId: customer.id,
            startDate: '2026-03-01',
            paymentMode: 'portal',
            sendToCustomer: false,
            lineItems: [{ productId: product.id, quantity: 1, unitPrice: 100, discount: 0 }],
          },
        });
        return created.json().id as string;
      }),
    );
    const responses = await Promise.all([
      ...drafts.map((id) => ctx.injectAs('admin', { method: 'POST', url: `/api/contracts/${id}/send` })),
      invite(customer.id),
      invite(customer.id, 'admin'),
    ]);
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    const accounts = await ctx.db.select().from(users).where(eq(users.customerId, customer.id));
    expect(accounts).toHaveLength(1);
    const created = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'user.created'), eq(auditEvents.entityId, accounts[0].id)));
    expect(created).toHaveLength(1);
    // Every message carries a link of its own, and each one works until one of them is used.
    const mails = (await ctx.db.select().from(outboxEmails).where(eq(outboxEmails.to, customer.email))).map(
      asDelivered,
    );
    expect(mails).toHaveLength(5);
    expect(new Set(mails.map((m) => linkToken(m.text))).size).toBe(5);
  });
});

describe('the public set-password route', () => {
  it('is limited per client address: attempts past the limit answer 429 with Retry-After', async () => {
    const attempt = () =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/auth/set-password',
        remoteAddress: '10.20.30.40',
        payload: { token: 'B'.repeat(43), password: 'whatever-1', confirmPassword: 'whatever-1' },
      });
    for (let i = 0; i < SET_PASSWORD_LIMIT.max; i++) expect((await attempt()).statusCode).toBe(400);
    const refused = await attempt();
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not affected.
    expect((await setPassword('B'.repeat(43), 'whatever-1')).statusCode).toBe(400);
  });
});

describe('password reset: POST /api/users/{id}/send-password-reset', () => {
  it('e-mails a reset link; using it replaces the password and ends every session of the user', async () => {
    const user = await createTestUser(ctx.db, { role: 'sales' });
    const session = await ctx.signIn(user);
    const response = await ctx.injectAs('admin', { method: 'POST', url: `/api/users/${user.id}/send-password-reset` });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ userId: user.id, email: user.email, link: 'set-password' });

    const mail = await lastMailTo(user.email);
    expect(mail.subject).toBe('Reset your AdCRM password');
    const token = linkToken(mail.text)!;
    expect(token).toBeTruthy();
    // Sending the link changes nothing yet: the old password and session still work.
    const me = () =>
      ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${session.token}` } });
    expect((await me()).statusCode).toBe(200);

    expect((await setPassword(token, 'brand-new-1')).statusCode).toBe(200);
    expect((await me()).statusCode).toBe(401);
    expect(await ctx.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
    expect((await login(user.email, TEST_PASSWORD)).statusCode).toBe(401);
    expect((await login(user.email, 'brand-new-1')).statusCode).toBe(200);
    const [stored] = await ctx.db.select().from(passwordTokens).where(eq(passwordTokens.userId, user.id));
    expect(stored.purpose).toBe('reset');
    expect(stored.usedAt).toBeInstanceOf(Date);
  });

  it('lets only a super admin reset a super admin, and refuses deactivated accounts and unknown users', async () => {
    const superAdmin = await createTestUser(ctx.db, { role: 'super_admin' });
    const byAdmin = await ctx.injectAs('admin', {
      method: 'POST',
      url: `/api/users/${superAdmin.id}/send-password-reset`,
    });
    expect(byAdmin.statusCode).toBe(403);
    expect(byAdmin.json().message).toBe('Only a super admin can send a password reset to a super admin account');
    const bySuper = await ctx.injectAs('super_admin', {
      method: 'POST',
      url: `/api/users/${superAdmin.id}/send-password-reset`,
    });
    expect(bySuper.statusCode).toBe(200);

    const inactive = await createTestUser(ctx.db, { role: 'finance', isActive: false });
    const refused = await ctx.injectAs('admin', {
      method: 'POST',
      url: `/api/users/${inactive.id}/send-password-reset`,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('This account is deactivated. Reactivate it before sending a password reset.');

    const unknown = await ctx.injectAs('admin', {
      method: 'POST',
      url: '/api/users/00000000-0000-4000-8000-000000000000/send-password-reset',
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('refuses a link of an account deactivated after it was sent, and keeps the link unspent', async () => {
    const user = await createTestUser(ctx.db, { role: 'finance' });
    await ctx.injectAs('admin', { method: 'POST', url: `/api/users/${user.id}/send-password-reset` });
    const token = linkToken((await lastMailTo(user.email)).text)!;
    await ctx.db.update(users).set({ isActive: false }).where(eq(users.id, user.id));
    const response = await setPassword(token, 'not-allowed');
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe(PASSWORD_LINK_MESSAGES.deactivated);
    const [stored] = await ctx.db.select().from(passwordTokens).where(eq(passwordTokens.userId, user.id));
    expect(stored.usedAt).toBeNull();
  });
});

describe('stored temporary passwords', () => {
  it('the scrub migration rewrites old invitation e-mails and retires the passwords they exposed', async () => {
    const exposedPassword = 'Xk3_temporary9Q';
    CHOSEN_PASSWORDS.add(exposedPassword);
    const customer = await createTestCustomer(ctx.db);
    const oldAccount = await createTestUser(ctx.db, { role: 'client', customerId: customer.id, email: customer.email });
    await ctx.db.insert(auditEvents).values({
      actorId: null,
      action: 'user.created',
      entity: 'user',
      entityId: oldAccount.id,
      after: { id: oldAccount.id, reason: 'portal invitation for contract 123' },
    });
    const changedSince = await createTestUser(ctx.db, { role: 'client' });
    await ctx.db.insert(auditEvents).values({
      actorId: null,
      action: 'user.created',
      entity: 'user',
      entityId: changedSince.id,
      after: { reason: 'portal invitation for contract 456' },
    });
    await ctx.db
      .update(users)
      .set({ updatedAt: sql`${users.createdAt} + interval '1 day'` })
      .where(eq(users.id, changedSince.id));
    await ctx.signIn(oldAccount);
    const old = [
      'We have created a client portal account for you:',
      `Sign-in e-mail: ${customer.email}`,
      `Temporary password: ${exposedPassword}`,
      'Please change the password in Settings after your first sign-in.',
    ];
    const [row] = await ctx.db
      .insert(outboxEmails)
      .values({
        to: customer.email,
        subject: 'Your contract #12345678 is ready in the client portal',
        text: `Hello,\n\n${old.join('\n')}\n\nClient portal: ${PUBLIC_URL}/portal`,
        html: `<p>${old.join('<br>')}</p>`,
        status: 'sent',
      })
      .returning();

    const file = path.join(MIGRATIONS_DIR, '0007_scrub-temporary-passwords.sql');
    for (const statement of fs.readFileSync(file, 'utf8').split('--> statement-breakpoint')) {
      await ctx.db.execute(sql.raw(statement));
    }

    const [scrubbed] = await ctx.db.select().from(outboxEmails).where(eq(outboxEmails.id, row.id));
    expect(scrubbed.text).not.toContain(exposedPassword);
    expect(scrubbed.html).not.toContain(exposedPassword);
    expect(scrubbed.text).toContain('Temporary password: (removed; ask for a set-password link)');
    expect(scrubbed.html).toContain(
      'Temporary password: (removed; ask for a set-password link)<br>Please change the password',
    );
    expect(scrubbed.text).toContain(`Sign-in e-mail: ${customer.email}\n`);

    // The exposed password no longer signs in; the account gets a set-password link with the next invitation.
    expect((await login(oldAccount.email, TEST_PASSWORD)).statusCode).toBe(401);
    expect(await ctx.db.select().from(sessions).where(eq(sessions.userId, oldAccount.id))).toHaveLength(0);
    const next = await invite(customer.id);
    expect(next.json()).toMatchObject({ userId: oldAccount.id, link: 'set-password' });
    // An account whose password was changed since keeps it.
    expect((await login(changedSince.email, TEST_PASSWORD)).statusCode).toBe(200);
  });
});

describe('no password is ever kept', () => {
  it('no outbox row, audit event or token row holds a chosen password or a set-password token', async () => {
    const outbox = (await ctx.db.select().from(outboxEmails)).map(asDelivered);
    expect(outbox.length).toBeGreaterThan(10);
    const audit = await ctx.db.select().from(auditEvents);
    const tokens = await ctx.db.select().from(passwordTokens);
    const stored = [
      ...outbox.map((m) => `${m.subject}\n${m.text}\n${m.html ?? ''}`),
      ...audit.map((a) => JSON.stringify(a)),
      ...tokens.map((t) => JSON.stringify(t)),
    ].join('\n');
    for (const password of CHOSEN_PASSWORDS) expect(stored).not.toContain(password);
    expect(stored).not.toMatch(/password_?hash|scrypt\$/i);
    // A token appears only in the e-mail to its owner, never in the audit trail or the token table.
    const sentTokens = outbox.map((m) => linkToken(m.text)).filter((t): t is string => Boolean(t));
    expect(sentTokens.length).toBeGreaterThan(5);
    const elsewhere = [...audit.map((a) => JSON.stringify(a)), ...tokens.map((t) => JSON.stringify(t))].join('\n');
    for (const token of sentTokens) expect(elsewhere).not.toContain(token);
    for (const mail of outbox) expect(`${mail.text}${mail.html}`).not.toMatch(/Temporary password: (?!\(removed)/);
  });
});
