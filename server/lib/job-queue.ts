import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type { SqlExecutor } from '../db/client';
import { isDatabaseUnavailable, loggableError } from './db-errors';

/**
 * Background work (billing run, outbox delivery, dunning, notices, hold expiry, purges) as jobs of pg-boss, a
 * job queue kept in PostgreSQL (schema `pgboss`; decision 028). Every instance starts the queue and works every
 * job; the queue hands each job to one of them:
 * - a cron schedule (in BUSINESS_TIMEZONE) puts one job in the queue per tick, however many instances run;
 * - every queue is 'stately': at most one job waiting and one running, so a slow run is never doubled and a
 *   run asked for while one waits is the same run;
 * - a job that fails is retried with exponential backoff; one that exhausts its retries stays 'failed', which
 *   GET /api/health and the System Health card report (jobsHealth);
 * - a running job holds a lease (JOB_LEASE_SECONDS) that its instance renews while the run goes on: every
 *   instance looks for runs whose lease has ended (their instance died: kill -9, a lost machine) and lets the
 *   queue's maintenance expire them, so another instance retries them. Without the lease, a 'stately' queue
 *   would wait for the dead run's longest time (up to an hour) before running that job again anywhere.
 * On the embedded PGlite database the same queue runs in its one process.
 */

export type ScheduledJob = {
  /** The queue's name: lowercase words joined by dashes. */
  name: string;
  /** Five-field cron expression, read in the business time zone. */
  cron: string;
  run: () => Promise<unknown>;
  /** Queue one run when the instance starts (the billing run catches up after downtime). */
  atStart?: boolean;
  /** The longest one run may take on a live instance before it counts as failed and is retried. */
  expireInSeconds?: number;
};

export type JobQueue = {
  /** Creates the queues, their schedules and the workers; queues the atStart runs. */
  start(jobs: readonly ScheduledJob[]): Promise<void>;
  /** Queues a run of `name` now (one waiting run at most: a second ask while one waits is the same run). */
  runNow(name: string): Promise<void>;
  /** Stops taking jobs and waits (up to `timeoutMs`) for the running ones to finish. */
  stop(timeoutMs?: number): Promise<void>;
};

/** A run failing this many times more than once is left 'failed' (and shown on System Health). */
export const JOB_RETRY_LIMIT = 4;
/** Seconds before the first retry; each next one waits twice as long, with jitter (30-60 s, ... 4-8 min). */
export const JOB_RETRY_DELAY_SECONDS = 30;
/** How often an idle worker asks the queue for work. */
const POLLING_SECONDS = 2;
/** A running job's lease when the configuration gives none (JOB_LEASE_SECONDS, server/config.ts). */
export const DEFAULT_JOB_LEASE_SECONDS = 60;
/** A run's longest time when its job names none. */
const DEFAULT_LONGEST_RUN_SECONDS = 15 * 60;
export const JOB_SCHEMA = 'pgboss';

export type JobQueueOptions = {
  sql: SqlExecutor;
  /** Runs the queue's set-up one instance at a time (Database.oneAtATime): concurrent CREATEs deadlock. */
  oneAtATime: <T>(work: () => Promise<T>) => Promise<T>;
  /** IANA time zone of the cron schedules. */
  timeZone: string;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** Seconds a running job's lease lasts unless its instance renews it (JOB_LEASE_SECONDS). */
  leaseSeconds?: number;
  /** Tests run the queue faster: polling, cron checks and retries in seconds. */
  timing?: { pollingSeconds?: number; cronCheckSeconds?: number; retryLimit?: number; retryDelaySeconds?: number };
};

export function createJobQueue(options: JobQueueOptions): JobQueue {
  const { log } = options;
  const leaseSeconds = options.leaseSeconds ?? DEFAULT_JOB_LEASE_SECONDS;
  const boss = new PgBoss({
    db: { executeSql: (text, values) => options.sql(text, values) },
    schema: JOB_SCHEMA,
    // Finished runs move to pgboss.archive after an hour and are deleted after a week: System Health reads
    // the last day's failures from both tables.
    archiveCompletedAfterSeconds: 60 * 60,
    deleteAfterDays: 7,
    // Expired leases are looked for twice per lease (by one instance at a time), so a dead instance's run is
    // handed on within about one and a half leases plus the first retry's delay.
    maintenanceIntervalSeconds: Math.max(1, Math.min(120, Math.floor(leaseSeconds / 2))),
    // Tests check the schedules, and move a tick's run into its queue, every cronCheckSeconds.
    ...(options.timing?.cronCheckSeconds
      ? {
          cronMonitorIntervalSeconds: options.timing.cronCheckSeconds,
          cronWorkerIntervalSeconds: options.timing.cronCheckSeconds,
        }
      : {}),
  });
  boss.on('error', (error) => {
    if (isDatabaseUnavailable(error)) log.warn({ err: loggableError(error) }, 'job queue: database unavailable');
    else log.error({ err: loggableError(error) }, 'job queue error');
  });
  const pollingIntervalSeconds = options.timing?.pollingSeconds ?? POLLING_SECONDS;
  let started = false;

  /**
   * A running job's lease, kept in its row's output (which pg-boss writes only when the run ends): renewed by
   * its instance every third of a lease while the run goes on.
   */
  const renewLease = (id: string, name: string) =>
    options.sql(
      `UPDATE ${JOB_SCHEMA}.job SET output = jsonb_build_object('leaseUntil', now() + make_interval(secs => $3))
        WHERE name = $1 AND id = $2 AND state = 'active'`,
      [name, id, leaseSeconds],
    );
  /**
   * Runs whose lease ended (never renewed: from the run's start) get an expiry already past, so that the
   * queue's next maintenance fails them by timeout and retries them on a live instance.
   */
  const expireLapsedRuns = (names: string[]) =>
    options.sql(
      `UPDATE ${JOB_SCHEMA}.job SET expire_in = now() - started_on - interval '1 millisecond'
        WHERE name = ANY($1::text[]) AND state = 'active'
          AND coalesce((output ->> 'leaseUntil')::timestamptz, started_on + make_interval(secs => $2)) < now()`,
      [names, leaseSeconds],
    );
  let supervision: NodeJS.Timeout | undefined;

  return {
    async start(jobs) {
      const queues = jobs.map((job) => ({
        name: job.name,
        policy: 'stately' as const,
        retryLimit: options.timing?.retryLimit ?? JOB_RETRY_LIMIT,
        retryDelay: options.timing?.retryDelaySeconds ?? JOB_RETRY_DELAY_SECONDS,
        retryBackoff: true,
        // pg-boss also fails a run that takes longer than this on its own instance.
        expireInSeconds: job.expireInSeconds ?? DEFAULT_LONGEST_RUN_SECONDS,
      }));
      await options.oneAtATime(async () => {
        await boss.start();
        for (const [i, job] of jobs.entries()) {
          await boss.createQueue(job.name, queues[i]);
          // A queue made by an earlier version keeps its old options otherwise.
          await boss.updateQueue(job.name, queues[i]);
          await boss.schedule(job.name, job.cron, undefined, { tz: options.timeZone });
        }
      });
      started = true;
      for (const job of jobs) {
        await boss.work(job.name, { pollingIntervalSeconds }, async ([claimed]) => {
          const renew = () =>
            renewLease(claimed.id, job.name).catch((error) =>
              log.warn({ err: loggableError(error), job: job.name }, 'job lease not renewed'),
            );
          void renew();
          const renewal = setInterval(renew, (leaseSeconds * 1000) / 3);
          try {
            await job.run();
          } catch (error) {
            if (isDatabaseUnavailable(error)) {
              log.warn({ err: loggableError(error), job: job.name }, 'background job failed: database unavailable');
            } else {
              log.error({ err: loggableError(error), job: job.name }, 'background job failed');
            }
            // The queue keeps the failure (with its retry count) and retries; never the query's parameters.
            throw new Error(loggableMessage(error));
          } finally {
            clearInterval(renewal);
          }
        });
        if (job.atStart) await boss.send(job.name, {});
      }
      const names = jobs.map((job) => job.name);
      supervision = setInterval(
        () =>
          expireLapsedRuns(names).catch((error) =>
            log.warn({ err: loggableError(error) }, 'job queue: lapsed runs not checked'),
          ),
        (leaseSeconds * 1000) / 2,
      );
    },
    async runNow(name) {
      await boss.send(name, {});
    },
    async stop(timeoutMs = 10_000) {
      if (!started) return;
      started = false;
      clearInterval(supervision);
      await boss.stop({ graceful: true, wait: true, close: false, timeout: timeoutMs });
    },
  };
}

/** What a failed run keeps in the queue (pgboss.job.output): the error's message, without query parameters. */
function loggableMessage(error: unknown): string {
  const logged = loggableError(error) as { message?: unknown };
  return typeof logged?.message === 'string' ? logged.message.slice(0, 500) : 'job failed';
}
