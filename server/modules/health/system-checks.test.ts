import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingRuns, outboxEmails } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { billingHealth, outboxHealth } from './system-checks';

const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000);
const SMTP_URL = 'smtp://mailer:s3cretpass@127.0.0.1:2525';

describe('billing line', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp();
  });
  afterAll(() => ctx.close());

  it('is stale without a run, ok after a run today or yesterday, failing when the latest run failed', async () => {
    expect(await billingHealth({ db: ctx.db })).toBe('stale');
    await ctx.db.insert(billingRuns).values({ asOf: '2024-01-01', status: 'succeeded', startedAt: ago(3 * 24 * 60) });
    expect(await billingHealth({ db: ctx.db })).toBe('stale');
    const now = new Date();
    const startOfYesterday = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - 1, 0, 0, 1));
    await ctx.db.insert(billingRuns).values({ asOf: '2024-01-02', status: 'succeeded', startedAt: startOfYesterday });
    expect(await billingHealth({ db: ctx.db })).toBe('ok');
    await ctx.db.insert(billingRuns).values({ asOf: '2024-01-03', status: 'failed', startedAt: ago(1), error: 'boom' });
    expect(await billingHealth({ db: ctx.db })).toBe('failing');
    await ctx.db.insert(billingRuns).values({ asOf: '2024-01-03', status: 'succeeded', startedAt: new Date() });
    expect(await billingHealth({ db: ctx.db })).toBe('ok');
  });
});

describe('outbox line', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp();
  });
  afterAll(() => ctx.close());
  const smtp = { smtpEnabled: true };
  const mail = (values: Partial<typeof outboxEmails.$inferInsert>) => ({
    to: 'someone@example.test',
    subject: 'Hello',
    text: 'Hi',
    ...values,
  });

  it('is stuck when a queued message waited over 30 minutes, failing after a failure in the last day', async () => {
    await ctx.db
      .insert(outboxEmails)
      .values([
        mail({ status: 'queued', nextAttemptAt: ago(10) }),
        mail({ status: 'failed', nextAttemptAt: ago(3 * 24 * 60), attempts: 8 }),
        mail({ status: 'sent', nextAttemptAt: ago(5 * 24 * 60) }),
      ]);
    expect(await outboxHealth({ db: ctx.db, mailer: smtp })).toBe('ok');
    const [failed] = await ctx.db
      .insert(outboxEmails)
      .values(mail({ status: 'failed', nextAttemptAt: ago(120), attempts: 8 }))
      .returning();
    expect(await outboxHealth({ db: ctx.db, mailer: smtp })).toBe('failing');
    await ctx.db.insert(outboxEmails).values(mail({ status: 'queued', nextAttemptAt: ago(31) }));
    expect(await outboxHealth({ db: ctx.db, mailer: smtp })).toBe('stuck');
    // Without SMTP, messages wait on purpose (the Outbox screen shows them): nothing is wrong.
    expect(await outboxHealth({ db: ctx.db, mailer: { smtpEnabled: false } })).toBe('ok');
    expect(failed.status).toBe('failed');
  });
});

describe('GET /api/health', () => {
  it('reads all well when the database answers, the outbox moves and billing is current, with no secrets', async () => {
    const ctx = await buildTestApp({ config: { SMTP_URL } });
    try {
      await ctx.db.insert(billingRuns).values({ asOf: '2024-01-01', status: 'succeeded' });
      const response = await ctx.app.inject({ method: 'GET', url: '/api/health' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: 'ok', database: 'ok', outbox: 'ok', billing: 'ok', jobs: 'ok' });
      expect(response.body).not.toMatch(/s3cretpass|smtp:|postgres:|127\.0\.0\.1/);
    } finally {
      await ctx.close();
    }
  });

  it('says what is wrong while staying 200 when only the outbox or billing is behind', async () => {
    const ctx = await buildTestApp({ config: { SMTP_URL } });
    try {
      await ctx.db
        .insert(outboxEmails)
        .values({ to: 'a@example.test', subject: 's', text: 't', nextAttemptAt: ago(45) });
      const response = await ctx.app.inject({ method: 'GET', url: '/api/health' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        status: 'degraded',
        database: 'ok',
        outbox: 'stuck',
        billing: 'stale',
        jobs: 'ok',
      });
    } finally {
      await ctx.close();
    }
  });
});
