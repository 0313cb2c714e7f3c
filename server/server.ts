import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { ensureFirstAdmin } from './bootstrap';
import type { Config } from './config';
import { openDatabase } from './db/client';
import { loggableError } from './lib/db-errors';
import { createJobRunner } from './lib/jobs';
import { publicOrigin } from './lib/public-url';
import { runBilling } from './modules/billing/billing-run';
import { runDunning } from './modules/dunning/dunning.service';
import { reportExpiredHolds } from './modules/inventory/inventory.service';
import { notifyExpiringContracts } from './modules/notifications/contract-notices';
import { compactReportTotals } from './modules/reports/reports.repo';
import { purgeExpiredSessions } from './modules/sessions/sessions';
import { purgeRateLimitHits } from './plugins/rate-limit';

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

  // Background jobs never end the process: failures (a database outage included) are logged and retried.
  const jobs = createJobRunner(app.log);
  const every = jobs.every;
  // Nor does a promise someone forgot to await: logged (without query parameters), not fatal.
  const onUnhandledRejection = (reason: unknown) =>
    app.log.error({ err: loggableError(reason) }, 'unhandled promise rejection');
  process.on('unhandledRejection', onUnhandledRejection);
  every(config.OUTBOX_INTERVAL_MS, () => app.mailer.deliverDue(database.db));
  every(60 * 60 * 1000, async () => {
    await purgeExpiredSessions(database.db, app.sessionPolicy);
    await purgeRateLimitHits(database.db);
  });

  await app.listen({ port: config.PORT, host: config.HOST });
  // The billing run, on start and every hour: it issues whatever is due up to today (catching up after
  // downtime) and is safe on every instance at once; then dunning chases what is overdue (reminders, pauses
  // for non-payment, resumes). After listen, so that their links know the address.
  every(60 * 60 * 1000, async () => {
    const result = await runBilling(database.db, { baseUrl: publicOrigin(app) });
    if (result.invoicesIssued > 0) app.mailer.kick(database.db);
    await runDunning({ db: database.db, mailer: app.mailer, baseUrl: publicOrigin(app) });
  });
  // Contracts ending within 30 days tell their rep once (hourly; the dedupe key makes repeats no-ops).
  every(60 * 60 * 1000, async () => {
    if ((await notifyExpiringContracts(database.db, { baseUrl: publicOrigin(app) })) > 0) app.mailer.kick(database.db);
  });
  // Inventory holds of sent contracts that ran out: their units are free at once; this tells each rep once.
  every(15 * 60 * 1000, async () => {
    if ((await reportExpiredHolds(database.db, { baseUrl: publicOrigin(app) })) > 0) app.mailer.kick(database.db);
  });
  // Folds the report totals' delta rows (server/db/schema/reports.ts); exact with or without it.
  every(5 * 60 * 1000, () => compactReportTotals(database.db));

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    jobs.stop();
    await app.close();
    await app.mailer.idle();
    await database.close();
    process.off('unhandledRejection', onUnhandledRejection);
  };
  return { app, stop };
}
