import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { ensureFirstAdmin } from './bootstrap';
import type { Config } from './config';
import { openDatabase } from './db/client';
import { backgroundJobs } from './jobs';
import { loggableError } from './lib/db-errors';
import { createJobQueue } from './lib/job-queue';
import { startWebhookWorker } from './modules/webhooks/webhooks.service';

/**
 * Opens the database (PostgreSQL when DATABASE_URL is set, else embedded PGlite in DATA_DIR), runs the
 * migrations, builds the app, starts the background jobs and listens. Returns a stop function.
 */
export async function startServer(config: Config): Promise<{ app: FastifyInstance; stop: () => Promise<void> }> {
  const database = await openDatabase(
    config.DATABASE_URL ? { url: config.DATABASE_URL } : { dataDir: config.DATA_DIR },
  );
  await database.migrate();
  const app = await buildApp({ config, db: database.db });
  await ensureFirstAdmin(database.db, config, app.log);

  // A promise someone forgot to await is logged (without query parameters), not fatal.
  const onUnhandledRejection = (reason: unknown) =>
    app.log.error({ err: loggableError(reason) }, 'unhandled promise rejection');
  process.on('unhandledRejection', onUnhandledRejection);

  await app.listen({ port: config.PORT, host: config.HOST });
  // Background work runs as queued jobs (server/jobs.ts, lib/job-queue.ts): once across all instances, on cron
  // schedules in the business's time zone, retried with backoff. After listen, so that their links know the
  // address.
  const jobs = createJobQueue({
    sql: database.sql,
    oneAtATime: database.oneAtATime,
    timeZone: config.BUSINESS_TIMEZONE,
    leaseSeconds: config.JOB_LEASE_SECONDS,
    log: app.log,
  });
  await jobs.start(backgroundJobs(app, database.db, database.engine));
  // Webhook deliveries: every instance claims due ones (FOR UPDATE SKIP LOCKED, leased), often enough for the
  // first retry's 5 seconds (decision 042).
  const webhooks = startWebhookWorker(database.db, {
    pollMs: config.WEBHOOK_POLL_MS,
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    leaseSeconds: config.WEBHOOK_LEASE_SECONDS,
    log: app.log,
  });

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await webhooks.stop();
    await jobs.stop();
    await app.close();
    await app.mailer.idle();
    await database.close();
    process.off('unhandledRejection', onUnhandledRejection);
  };
  return { app, stop };
}
