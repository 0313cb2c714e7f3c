/**
 * `npm run bench`: list, search and aggregate endpoints over a large book of business, through the real
 * app on embedded PGlite (or DATABASE_URL). Prints p50/p95 per request and the process's peak memory.
 * BENCH_CONTRACTS sets the volume (default 20,000 contracts over 2,000 customers).
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/client';
import { users } from '../server/db/schema';
import { hashPassword } from '../server/lib/password';
import { createSession } from '../server/modules/auth/sessions';

const CONTRACTS = Number(process.env.BENCH_CONTRACTS ?? 20_000);
const CUSTOMERS = Math.max(10, Math.round(CONTRACTS / 10));
const RUNS = Number(process.env.BENCH_RUNS ?? 40);

const database = await openDatabase(process.env.DATABASE_URL ? { url: process.env.DATABASE_URL } : {});
await database.migrate();
const db = database.db;
const config = loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'silent', CLIENT_DIST: '/nonexistent' });
const app = await buildApp({ config, db, logger: false });

const t0 = performance.now();
const passwordHash = await hashPassword('bench123');
const [admin] = await db
  .insert(users)
  .values({
    email: `bench-admin-${randomUUID()}@example.test`,
    firstName: 'Bench',
    lastName: 'Admin',
    role: 'admin',
    passwordHash,
  })
  .returning();
const [rep] = await db
  .insert(users)
  .values({
    email: `bench-rep-${randomUUID()}@example.test`,
    firstName: 'Bench',
    lastName: 'Rep',
    role: 'sales',
    passwordHash,
  })
  .returning();

// Bulk data in SQL: the benchmark measures reads, not the seeding.
await db.execute(sql`
  insert into customers (name, email, company, city)
  select 'Customer ' || g, 'customer' || g || '@example.test', 'Company ' || (g % 997), 'City ' || (g % 50)
  from generate_series(1, ${CUSTOMERS}) g`);
await db.execute(sql`
  insert into contracts (customer_id, sales_rep_id, description, status, start_date, term_months, payment_mode,
                         monthly_amount_cents, total_cents, setup_fee_cents)
  select ids.all[1 + g % ${CUSTOMERS}],
         case when g % 4 = 0 then ${rep.id}::uuid else ${admin.id}::uuid end,
         'Campaign ' || g,
         (array['draft','sent','active','paused','canceled','completed'])[1 + g % 6],
         date '2026-01-01' + (g % 300),
         case when g % 3 = 0 then null else 1 + g % 24 end,
         case when g % 2 = 0 then 'portal' else 'pay_link' end,
         10000 + (g % 500) * 100, 10000 + (g % 500) * 100 + 5000, 5000

  from generate_series(1, ${CONTRACTS}) g, (select array_agg(id order by id) as all from customers) ids`);
await db.execute(sql`analyze`);
console.log(`seeded ${CUSTOMERS} customers and ${CONTRACTS} contracts in ${Math.round(performance.now() - t0)} ms`);

const tokens = {
  admin: (await createSession(db, admin.id, app.sessionPolicy, {})).token,
  sales: (await createSession(db, rep.id, app.sessionPolicy, {})).token,
};

const cases: [string, keyof typeof tokens, string][] = [
  ['contracts page 1', 'admin', '/api/contracts?limit=20'],
  ['contracts deep page', 'admin', '/api/contracts?limit=20&offset=10000'],
  ['contracts status filter', 'admin', '/api/contracts?status=active&limit=20'],
  ['contracts search', 'admin', '/api/contracts?q=campaign%2012&limit=20'],
  ['contracts of one rep', 'sales', '/api/contracts?limit=20'],
  ['customers search', 'admin', '/api/customers?q=company%2042&limit=24'],
  ['customers page (with counts)', 'admin', '/api/customers?limit=24'],
  ['dashboard stats', 'admin', '/api/dashboard/stats'],
];

console.log(`\n${'request'.padEnd(32)}${'p50 ms'.padStart(10)}${'p95 ms'.padStart(10)}  rows  total`);
for (const [name, who, url] of cases) {
  const timings: number[] = [];
  let rows = 0;
  let total = '';
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    const response = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${tokens[who]}` } });
    timings.push(performance.now() - start);
    if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
    const body = response.json();
    rows = Array.isArray(body) ? body.length : 1;
    total = String(response.headers['x-total-count'] ?? '');
  }
  timings.sort((a, b) => a - b);
  const p = (q: number) => timings[Math.min(timings.length - 1, Math.floor(q * timings.length))].toFixed(1);
  console.log(`${name.padEnd(32)}${p(0.5).padStart(10)}${p(0.95).padStart(10)}  ${String(rows).padStart(4)}  ${total}`);
}
console.log(`\npeak resident memory: ${Math.round(process.resourceUsage().maxRSS / 1024)} MiB`);

await app.close();
await database.close();
