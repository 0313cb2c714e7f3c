/**
 * One long-running app instance for the multi-instance test (cluster.test.ts): starts the server the way
 * `npm start` does (migrations under the advisory lock, first admin, background jobs, listen), says
 * "UP <port>" on stdout, and serves until SIGTERM or SIGINT (then stops gracefully) or SIGKILL (the test's
 * crash). Configured entirely from the environment, as a deployed instance is: DATABASE_URL, STORAGE_URL,
 * SMTP_URL, PUBLIC_URL, TRUST_PROXY, OUTBOX_LEASE_SECONDS, JOB_LEASE_SECONDS, BUSINESS_TIMEZONE, DATA_DIR,
 * ADMIN_EMAIL / ADMIN_PASSWORD, PORT (0: any free port) ... Variables the configuration does not know are
 * ignored. It listens on 127.0.0.1 only and serves no web client.
 */
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../config';
import { startServer } from '../../server';

const { app, stop } = await startServer(
  loadConfig({
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    CLIENT_DIST: '/nonexistent',
    HOST: '127.0.0.1',
    PORT: process.env.PORT ?? '0',
  }),
);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}

console.log(`UP ${(app.server.address() as AddressInfo).port}`);
