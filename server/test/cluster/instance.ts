/**
 * One app instance for the start-together test: starts the server the way `npm start` does (migrations,
 * first admin, jobs, listen) on DATABASE_URL with an ephemeral port, says "UP <port>", then stops. A failure
 * exits non-zero with the error on stderr, as the real process would.
 */
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../config';
import { startServer } from '../../server';

const { app, stop } = await startServer(
  loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    CLIENT_DIST: '/nonexistent',
    HOST: '127.0.0.1',
    PORT: '0',
    DATABASE_URL: process.env.DATABASE_URL,
    ADMIN_EMAIL: process.env.ADMIN_EMAIL,
    ADMIN_PASSWORD: process.env.ADMIN_PASSWORD,
  }),
);
console.log(`UP ${(app.server.address() as AddressInfo).port}`);
await stop();
