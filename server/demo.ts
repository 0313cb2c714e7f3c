import fs from 'node:fs';
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { seedDemo } from './demo/seed';
import { setBusinessTimeZone } from './lib/business-day';
import { publicOrigin } from './lib/public-url';
import { startServer } from './server';

/** `npm run demo`: a fresh embedded database in ./.demo-data, filled with the demo business, then the server. */
const DEMO_DIR = process.env.DEMO_DATA_DIR ?? './.demo-data';
fs.rmSync(DEMO_DIR, { recursive: true, force: true });
fs.rmSync(`${DEMO_DIR}.lock`, { force: true });

const config = loadConfig({ ...process.env, DATA_DIR: DEMO_DIR, DATABASE_URL: undefined });
// The demo's dates are counted from the business's today, as the server will count them.
setBusinessTimeZone(config.BUSINESS_TIMEZONE);
const seeding = await openDatabase({ dataDir: DEMO_DIR });
await seeding.migrate();
await seedDemo(seeding.db, config);
await seeding.close();

const { app, stop } = await startServer(config);
console.log(
  `\n  Demo running on ${publicOrigin(app)}  (accounts: superadmin@demo.test, admin@, manager@, sales@, sales2@, finance@, client@, client2@, agency@demo.test; password demo1234)\n`,
);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stop().finally(() => process.exit(0)));
