import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { createJobRunner } from '../../lib/jobs';
import { createMailer } from '../../lib/mailer';
import { purgeExpiredSessions } from '../../modules/sessions/sessions';
import { openTestDatabase } from '../app';

type Line = { level: 'warn' | 'error'; obj: Record<string, unknown>; msg: string };

function capturingLog() {
  const lines: Line[] = [];
  return {
    lines,
    warn: (obj: Record<string, unknown>, msg: string) => lines.push({ level: 'warn', obj, msg }),
    error: (obj: Record<string, unknown>, msg: string) => lines.push({ level: 'error', obj, msg }),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('background jobs', () => {
  it('log a failing job, even one that throws before returning a promise, and keep running it', async () => {
    const log = capturingLog();
    const runner = createJobRunner(log as never);
    let calls = 0;
    runner.every(20, (() => {
      calls++;
      throw new Error('synchronous failure');
    }) as never);
    await sleep(90);
    runner.stop();
    expect(calls).toBeGreaterThanOrEqual(3);
    expect(log.lines.every((l) => l.level === 'error' && l.msg === 'background job failed')).toBe(true);
    expect(log.lines[0].obj.err).toMatchObject({ type: 'Error', message: 'synchronous failure' });
  });

  it('never log query parameters of a failed query', async () => {
    const log = capturingLog();
    const runner = createJobRunner(log as never);
    const hash = 'scrypt$16384$8$1$c2FsdA$S3CR3TKEYMATERIAL';
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "users_email_lower_key"'), {
      code: '23505',
      constraint: 'users_email_lower_key',
      detail: 'Key (lower(email))=(someone@example.test) already exists.',
    });
    runner.every(1_000, async () => {
      throw new DrizzleQueryError(
        'insert into "users" ("email", "password_hash") values ($1, $2)',
        ['someone@example.test', hash],
        cause,
      );
    });
    await sleep(20);
    runner.stop();
    const logged = JSON.stringify(log.lines);
    expect(logged).toContain('users_email_lower_key');
    expect(logged).toContain('insert into \\"users\\"');
    expect(logged).not.toContain(hash);
    expect(logged).not.toContain('scrypt$');
    expect(logged).not.toContain('someone@example.test');
  });

  it('do not overlap: a run still going when the next is due is not doubled', async () => {
    const runner = createJobRunner(capturingLog() as never);
    let concurrent = 0;
    let most = 0;
    runner.every(10, async () => {
      concurrent++;
      most = Math.max(most, concurrent);
      await sleep(45);
      concurrent--;
    });
    await sleep(120);
    runner.stop();
    expect(most).toBe(1);
  });

  it('outbox delivery and session purge on a closed database (PGlite closed, pool ended) are warnings, not crashes', async () => {
    const database = await openTestDatabase();
    await database.close();
    const log = capturingLog();
    const runner = createJobRunner(log as never);
    const mailer = createMailer({ SMTP_URL: 'smtp://127.0.0.1:9', MAIL_FROM: 'AdCRM <billing@adcrm.local>' });
    runner.every(1_000, () => mailer.deliverDue(database.db));
    runner.every(1_000, () => purgeExpiredSessions(database.db, { idleMinutes: 60, maxDays: 30 }));
    await sleep(50);
    runner.stop();
    expect(log.lines.map((l) => [l.level, l.msg])).toEqual([
      ['warn', 'background job skipped: database unavailable'],
      ['warn', 'background job skipped: database unavailable'],
    ]);
  });
});
