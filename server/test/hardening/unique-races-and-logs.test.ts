import { Writable } from 'node:stream';
import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import type { Database } from '../../db/client';
import { users } from '../../db/schema';
import { loggerOptions } from '../../lib/logger';
import { createSession } from '../../modules/sessions/sessions';
import { openTestDatabase, testConfig } from '../app';
import { createTestCustomer, createTestProduct } from '../catalog-factories';
import { createTestUser } from '../factories';

/**
 * Requests that race each other into a unique constraint answer 409 with a message, never 500, and the
 * failed queries are logged without their parameters (which held new password hashes). The app here logs
 * with the product's own logger options into a buffer the test reads.
 */
const PASSWORD = 'Correct-Horse-Battery-42';

let database: Database;
let app: Awaited<ReturnType<typeof buildApp>>;
let token: string;
const logLines: string[] = [];

beforeAll(async () => {
  database = await openTestDatabase();
  const config = testConfig({ LOG_LEVEL: 'trace' });
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  app = await buildApp({ config, db: database.db, logger: { ...loggerOptions(config, false), stream } });
  await app.ready();
  const admin = await createTestUser(database.db, { role: 'admin' });
  token = (await createSession(database.db, admin.id, app.sessionPolicy, {})).token;
});
afterAll(async () => {
  await app.close();
  await database.close();
});

const as = (method: 'GET' | 'POST', url: string, payload?: object) =>
  app.inject({ method, url, payload, headers: { authorization: `Bearer ${token}` } });

describe('ten concurrent creates of one user', () => {
  it('create one user; the others answer 409 with a message; the log holds no hash and no password', async () => {
    const email = `race-${Date.now()}@example.test`;
    const body = { firstName: 'Race', lastName: 'Condition', email, password: PASSWORD, role: 'sales' };
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        as('POST', '/api/users', { ...body, email: i % 2 ? email.toUpperCase() : email }),
      ),
    );
    const statuses = responses.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    for (const response of responses.filter((r) => r.statusCode === 409)) {
      expect(response.json()).toEqual({ message: 'A user with this email already exists', code: 'CONFLICT' });
    }
    const [{ n }] = await database.db.select({ n: count() }).from(users).where(sql`lower(${users.email}) = ${email}`);
    expect(n).toBe(1);

    const log = logLines.join('');
    // At least one of the losers got past the check and met the unique index: its failed insert, with a new
    // scrypt hash among the parameters, was logged (with its constraint name) ...
    expect(log).toContain('users_email_lower_key');
    // ... and nothing of the secret or the parameters is in the log.
    expect(log).not.toContain(PASSWORD);
    expect(log).not.toContain('scrypt$');
    expect(log).not.toContain('params:');
    expect(log).not.toContain(email);
  });
});

describe('two portal contracts of one customer sent at once', () => {
  it('both are sent and the client account is created once', async () => {
    const customer = await createTestCustomer(database.db);
    const product = await createTestProduct(database.db);
    const draft = async () => {
      const response = await as('POST', '/api/contracts', {
        customerId: customer.id,
        startDate: '2026-03-01',
        termMonths: 3,
        paymentMode: 'portal',
        lineItems: [{ productId: product.id, quantity: 1, unitPrice: 100, discount: 0 }],
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json().id as string;
    };
    const ids = [await draft(), await draft(), await draft()];
    const sent = await Promise.all(ids.map((id) => as('POST', `/api/contracts/${id}/send`)));
    expect(sent.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(sent.map((r) => r.json().status)).toEqual(['sent', 'sent', 'sent']);
    const accounts = await database.db
      .select({ n: count() })
      .from(users)
      .where(and(eq(users.customerId, customer.id), eq(users.role, 'client')));
    expect(accounts[0].n).toBe(1);
  });
});
