import fs from 'node:fs';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/client';
import { seedDemo } from '../server/demo/seed';
import { setBusinessTimeZone } from '../server/lib/business-day';

/**
 * `node --import tsx e2e/seed-demo.ts <folder>`: the embedded database of `npm run demo` (server/demo.ts: the
 * migrations and the demo business), written to <folder> and closed, without starting a server. The browser
 * tests make it once per run (e2e/global-setup.ts) and give each worker a copy of their own.
 */
const folder = process.argv[2];
if (!folder) throw new Error('Usage: e2e/seed-demo.ts <data folder>');
fs.rmSync(folder, { recursive: true, force: true });
fs.rmSync(`${folder}.lock`, { force: true });

const config = loadConfig({ ...process.env, DATA_DIR: folder, DATABASE_URL: undefined });
// The demo's dates are counted from the business's today, as the server will count them.
setBusinessTimeZone(config.BUSINESS_TIMEZONE);
const database = await openDatabase({ dataDir: folder });
await database.migrate();
await seedDemo(database.db, config);
await database.close();
