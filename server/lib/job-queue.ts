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
 *   GET /api/health and the System Health card report (jobsHealth); a job whose instance died is expired by
 *   pg-boss's supervisor and retried by another one.
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
  /** How long one run may take before it counts as failed (its instance died) and is retried. */
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
export const JOB_SCHEMA = 'pgboss';

export type JobQueueOptions = {
  sql: SqlExecutor;
  /** Runs the queue's set-up one instance at a time (Database.oneAtATime): concurrent CREATEs deadlock. */
  oneAtATime: <T>(work: () => Promise<T>) => Promise<T>;
  /** IANA time zone of the cron schedules. */
  timeZone: string;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** Tests run the queue faster: polling, cron checks and retries in seconds. */
  timing?: { pollingSeconds?: number; cronCheckSeconds?: number; retryLimit?: number; retryDelaySeconds?: number };
};

export function createJobQueue(options: JobQueueOptions): JobQueue {
  const { log } = options;
  const boss = new PgBoss({
    db: { executeSql: (text, values) => options.sql(text, values) },
    schema: JOB_SCHEMA,
    // Finished runs move to pgboss.archive after an hour and are deleted after a week: System Health reads
    // the last day's failures from both tables.
    archiveCompletedAfterSeconds: 60 * 60,
    deleteAfterDays: 7,
    ...(options.timing?.cronCheckSeconds ? { cronMonitorIntervalSeconds: options.timing.cronCheckSeconds } : {}),
  });
  boss.on('error', (error) => {
    if (isDatabaseUnavailable(error)) log.warn({ err: loggableError(error) }, 'job queue: database unavailable');
    else log.error({ err: loggableError(error) }, 'job queue error');
  });
  const pollingIntervalSeconds = options.timing?.pollingSeconds ?? POLLING_SECONDS;
  let started = false;

  return {
    async start(jobs) {
      const queues = jobs.map((job) => ({
        name: job.name,
        policy: 'stately' as const,
        retryLimit: options.timing?.retryLimit ?? JOB_RETRY_LIMIT,
        retryDelay: options.timing?.retryDelaySeconds ?? JOB_RETRY_DELAY_SECONDS,
        retryBackoff: true,
        expireInSeconds: job.expireInSeconds ?? 15 * 60,
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
        await boss.work(job.name, { pollingIntervalSeconds }, async () => {
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
          }
        });
        if (job.atStart) await boss.send(job.name, {});
      }
    },
    async runNow(name) {
      await boss.send(name, {});
    },
    async stop(timeoutMs = 10_000) {
      if (!started) return;
      started = false;
      await boss.stop({ graceful: true, wait: true, close: false, timeout: timeoutMs });
    },
  };
}

/** What a failed run keeps in the queue (pgboss.job.output): the error's message, without query parameters. */
function loggableMessage(error: unknown): string {
  const logged = loggableError(error) as { message?: unknown };
  return typeof logged?.message === 'string' ? logged.message.slice(0, 500) : 'job failed';
}
