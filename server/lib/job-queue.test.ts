import { DrizzleQueryError } from 'drizzle-orm/errors';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { jobsHealth } from '../modules/health/system-checks';
import { purgeExpiredSessions } from '../modules/sessions/sessions';
import { openTestDatabase } from '../test/app';
import { createJobQueue, type JobQueue, type ScheduledJob } from './job-queue';

/**
 * The job queue (pg-boss on the app's own database): schedules in the business time zone, runs at start, once
 * across instances, never two runs of one job at a time, retries with backoff and failures on System Health.
 * Timings are shortened (polling every half second, retries after one second); the queue is the real one.
 */

type Line = { level: 'info' | 'warn' | 'error'; obj: Record<string, unknown>; msg: string };

function capturingLog() {
  const lines: Line[] = [];
  const at = (level: Line['level']) => (obj: Record<string, unknown>, msg: string) => lines.push({ level, obj, msg });
  return { lines, info: at('info'), warn: at('warn'), error: at('error') };
}

const FAST = { pollingSeconds: 0.5, cronCheckSeconds: 1, retryLimit: 2, retryDelaySeconds: 1 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => Promise<boolean> | boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(100);
  }
}

const opened: { database: Database; queues: JobQueue[] }[] = [];
afterEach(async () => {
  for (const { database, queues } of opened.splice(0)) {
    for (const queue of queues) await queue.stop(2_000);
    await database.close();
  }
});

/**
 * A database and `instances` job queues on it, as that many app instances would have. `cronChecks[i]` counts how
 * often instance i has checked the cron schedules (pg-boss's claim of the check, an UPDATE of `cron_on`).
 */
async function instances(count: number, timeZone = 'UTC', log = capturingLog(), leaseSeconds?: number) {
  const database = await openTestDatabase();
  const cronChecks = Array.from({ length: count }, () => 0);
  // cut[i]: instance i has lost the database, as a killed process would (every statement it sends fails).
  const cut = Array.from({ length: count }, () => false);
  const queues = cronChecks.map((_, i) =>
    createJobQueue({
      sql: (text, values) => {
        if (cut[i]) return Promise.reject(new Error('instance stopped'));
        if (/SET cron_on = now\(\)/.test(text)) cronChecks[i]++;
        return database.sql(text, values);
      },
      oneAtATime: database.oneAtATime,
      timeZone,
      log: log as never,
      leaseSeconds,
      timing: FAST,
    }),
  );
  opened.push({ database, queues });
  return { database, queues, log, cronChecks, cut };
}

async function rows<T>(database: Database, text: string, values?: unknown[]): Promise<T[]> {
  return (await database.sql(text, values)).rows as T[];
}

/** The states of every run of a job in the queue, oldest first. */
async function runStates(database: Database, name: string): Promise<string[]> {
  const found = await rows<{ state: string }>(
    database,
    `select state from pgboss.job where name = $1 order by created_on, id`,
    [name],
  );
  return found.map((row) => row.state);
}

/** The minute of the database's clock (minutes since 1970), the clock pg-boss keys each cron tick by. */
async function databaseMinute(database: Database): Promise<number> {
  const [row] = await rows<{ minute: number }>(database, `select floor(extract(epoch from now()) / 60)::int as minute`);
  return row.minute;
}

describe('the job queue', () => {
  it('keeps each schedule in the business time zone and runs every job once when an instance starts', async () => {
    const { database, queues, cronChecks } = await instances(1, 'America/New_York');
    let runs = 0;
    const job: ScheduledJob = {
      name: 'morning-notices',
      cron: '0 8 * * *',
      atStart: true,
      run: async () => {
        runs++;
      },
    };
    await queues[0].start([job]);
    await until(() => runs === 1);
    expect(await rows(database, `select name, cron, timezone from pgboss.schedule`)).toEqual([
      { name: 'morning-notices', cron: '0 8 * * *', timezone: 'America/New_York' },
    ]);
    // The start's run is done, and the instance has checked its schedule twice more without queueing another.
    await until(async () => (await runStates(database, 'morning-notices')).every((state) => state === 'completed'));
    const checked = cronChecks[0];
    await until(() => cronChecks[0] >= checked + 2);
    expect(await runStates(database, 'morning-notices')).toEqual(['completed']);
    expect(runs).toBe(1);
  });

  it('puts one run in the queue per cron tick, however many instances check the schedule', {
    timeout: 240_000,
  }, async () => {
    const { database, queues, cronChecks, log } = await instances(3);
    let runs = 0;
    const job: ScheduledJob = {
      name: 'every-minute',
      cron: '* * * * *',
      run: async () => {
        runs++;
      },
    };
    // pg-boss keys a tick by the database's clock (cron_on and the tick's singleton minute are both now() in
    // SQL), so the test reads that clock rather than moving the process's one: three instances checking the
    // schedule every second give exactly one run per minute they checked in. Usually that is one minute; when
    // the checks cross into the next minute, it has its own tick and the test waits for its run too.
    const firstMinute = await databaseMinute(database);
    for (const queue of queues) await queue.start([job]);
    let minutes = 1;
    for (;;) {
      // A tick becomes a run through pg-boss's own send-it queue: on a busy machine that can take a while.
      await until(() => runs >= minutes, 90_000).catch((error: Error) => {
        throw new Error(`${error.message}: ${runs} run(s) for ${minutes} minute(s); ${JSON.stringify(log.lines)}`);
      });
      // Every instance checks the schedule three more times after the runs so far.
      const checked = [...cronChecks];
      await until(() => cronChecks.every((n, i) => n >= checked[i] + 3));
      const counted = runs;
      const spanned = (await databaseMinute(database)) - firstMinute + 1;
      if (spanned === minutes) {
        expect(counted, `runs in ${minutes} minute(s) of checks by three instances`).toBe(minutes);
        break;
      }
      minutes = spanned;
    }
  });

  it('never runs one job twice at once, on one instance or several; a run asked for meanwhile waits', async () => {
    const { database, queues } = await instances(2);
    let running = 0;
    let most = 0;
    let runs = 0;
    const job: ScheduledJob = {
      name: 'slow-run',
      cron: '0 0 1 1 *',
      run: async () => {
        running++;
        most = Math.max(most, running);
        await sleep(1_200);
        running--;
        runs++;
      },
    };
    for (const queue of queues) await queue.start([job]);
    await queues[0].runNow('slow-run');
    await until(() => running === 1);
    // While one run goes on, three more asks from both instances make one waiting run, not three.
    await queues[1].runNow('slow-run');
    await queues[0].runNow('slow-run');
    await queues[1].runNow('slow-run');
    // Both runs are done and nothing waits: the queue holds exactly those two, completed.
    await until(async () => {
      const states = await runStates(database, 'slow-run');
      return states.length >= 2 && states.every((state) => state === 'completed');
    });
    expect(await runStates(database, 'slow-run')).toEqual(['completed', 'completed']);
    expect(runs).toBe(2);
    expect(most).toBe(1);
  });

  it('hands the run of an instance that died to another one once its lease has ended', async () => {
    const { database, queues, cut } = await instances(2, 'UTC', capturingLog(), 2);
    const ranOn: number[] = [];
    const job = (instance: number): ScheduledJob => ({
      name: 'orphaned-run',
      cron: '0 0 1 1 *',
      expireInSeconds: 60 * 60,
      run: async () => {
        ranOn.push(instance);
        // The first run never ends: its instance dies during it.
        if (ranOn.length === 1) await new Promise(() => {});
      },
    });
    await queues[0].start([job(0)]);
    await queues[0].runNow('orphaned-run');
    await until(() => ranOn.length === 1);
    cut[0] = true;
    await queues[1].start([job(1)]);
    // Its hour-long longest run does not hold the job: the lease of 2 s does, and nobody renews it now.
    await until(() => ranOn.length === 2);
    expect(ranOn).toEqual([0, 1]);
    await until(async () => (await runStates(database, 'orphaned-run')).includes('completed'));
    const [run] = await rows<{ retry_count: number }>(
      database,
      `select retry_count from pgboss.job where name = 'orphaned-run'`,
    );
    expect(run.retry_count).toBe(1);
    // The first instance's stop finds its database again (its run never ends: stop gives up waiting for it).
    cut[0] = false;
  });

  it('keeps renewing the lease of a run that lasts longer than it, so a live run is never handed on', async () => {
    const { database, queues } = await instances(2, 'UTC', capturingLog(), 2);
    let runs = 0;
    const job: ScheduledJob = {
      name: 'long-run',
      cron: '0 0 1 1 *',
      run: async () => {
        runs++;
        await sleep(5_000);
      },
    };
    for (const queue of queues) await queue.start([job]);
    await queues[0].runNow('long-run');
    await until(async () => (await runStates(database, 'long-run')).includes('completed'), 30_000);
    // Five seconds against a lease of two: without renewal the maintenance would have expired it and the other
    // instance would have run it again.
    expect(runs).toBe(1);
    expect(await runStates(database, 'long-run')).toEqual(['completed']);
    const [run] = await rows<{ retry_count: number }>(
      database,
      `select retry_count from pgboss.job where name = 'long-run'`,
    );
    expect(run.retry_count).toBe(0);
  });

  it('retries a failing run with backoff, then keeps it failed for System Health, logging no query parameters', async () => {
    const { database, queues, log } = await instances(1);
    const hash = 'scrypt$16384$8$1$c2FsdA$S3CR3TKEYMATERIAL';
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "users_email_lower_key"'), {
      code: '23505',
      constraint: 'users_email_lower_key',
    });
    const attempts: number[] = [];
    const job: ScheduledJob = {
      name: 'failing-run',
      cron: '0 0 1 1 *',
      atStart: true,
      run: async () => {
        attempts.push(Date.now());
        throw new DrizzleQueryError(
          'insert into "users" ("email", "password_hash") values ($1, $2)',
          ['someone@example.test', hash],
          cause,
        );
      },
    };
    expect(await jobsHealth({ db: database.db })).toBe('ok');
    await queues[0].start([job]);
    await until(() => attempts.length === 1);
    await until(async () => (await jobsHealth({ db: database.db })) === 'retrying');
    // The first try and two retries (limit 2). Backoff: the first retry waits 1-2 s, the second 2-4 s
    // (without it, both would wait 1 s).
    await until(async () => (await jobsHealth({ db: database.db })) === 'failing');
    expect(attempts).toHaveLength(3);
    expect(attempts[1] - attempts[0]).toBeGreaterThanOrEqual(950);
    expect(attempts[2] - attempts[1]).toBeGreaterThanOrEqual(1_950);

    const [stored] = await rows<{ state: string; retry_count: number; output: unknown }>(
      database,
      `select state, retry_count, output from pgboss.job where name = 'failing-run'`,
    );
    expect(stored).toMatchObject({ state: 'failed', retry_count: 2 });
    const kept = JSON.stringify(stored.output) + JSON.stringify(log.lines);
    expect(kept).toContain('users_email_lower_key');
    expect(kept).not.toContain(hash);
    expect(kept).not.toContain('scrypt$');
    expect(kept).not.toContain('someone@example.test');
    expect(log.lines.map((line) => [line.level, line.msg, line.obj.job])).toEqual(
      attempts.map(() => ['error', 'background job failed', 'failing-run']),
    );
  });

  it('reports a run that met an unavailable database as a warning, and retries it', async () => {
    const { queues, log } = await instances(1);
    const closed = await openTestDatabase();
    await closed.close();
    let attempts = 0;
    await queues[0].start([
      {
        name: 'session-purge',
        cron: '0 0 1 1 *',
        atStart: true,
        run: () => {
          attempts++;
          return purgeExpiredSessions(closed.db, { idleMinutes: 60, maxDays: 30 });
        },
      },
    ]);
    await until(() => attempts >= 2);
    expect(log.lines.slice(0, 2).map((line) => [line.level, line.msg])).toEqual([
      ['warn', 'background job failed: database unavailable'],
      ['warn', 'background job failed: database unavailable'],
    ]);
  });
});
