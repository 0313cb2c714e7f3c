import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { ensureFirstAdmin } from './bootstrap';
import type { Config } from './config';
import { openDatabase } from './db/client';
import { purgeExpiredSessions } from './modules/auth/sessions';

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

  const timers: NodeJS.Timeout[] = [];
  const every = (ms: number, job: () => Promise<unknown>) => {
    const run = () => job().catch((err) => app.log.error({ err }, 'background job failed'));
    void run();
    timers.push(setInterval(run, ms).unref());
  };
  every(config.OUTBOX_INTERVAL_MS, () => app.mailer.deliverDue(database.db));
  every(60 * 60 * 1000, () => purgeExpiredSessions(database.db, app.sessionPolicy));

  await app.listen({ port: config.PORT, host: config.HOST });

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    for (const timer of timers) clearInterval(timer);
    await app.close();
    await app.mailer.idle();
    await database.close();
  };
  return { app, stop };
}
