/**
 * The query plans of the searchable lists on the bench data, taken from the statements the product itself
 * runs: the repositories' own page functions are called on a connection with auto_explain (ANALYZE, BUFFERS)
 * reporting every statement back to the client. `npx tsx bench/explain.ts` prints them;
 * `--write` also replaces the section between `<!-- plans:begin -->` and `<!-- plans:end -->` in
 * docs/performance.md. Needs `npm run bench:data` (contracts, customers) and the reports benchmark's data
 * (`adcrm_bench_reports`, 1,000,000 invoices: `BENCH_ONLY=reports npm run bench` builds it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Db } from '../server/db/client';
import * as schema from '../server/db/schema';
import { selectContractPage } from '../server/modules/contracts/contracts.repo';
import { selectCustomerPage } from '../server/modules/customers/customers.repo';
import { selectInvoicePage } from '../server/modules/invoices/invoices.repo';
import { benchDatabaseName, benchDb } from './lib/databases';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

type Case = { name: string; run: (db: Db) => Promise<unknown> };

const page = { limit: 50, offset: 0 };
const groups: { database: string; about: string; cases: Case[] }[] = [
  {
    // BENCH_DB_PREFIX: a checkout's own copy (bench/data.ts).
    database: benchDatabaseName(200_000),
    about: '200,000 contracts, 20,000 customers',
    cases: [
      { name: 'Contracts, first page, no search', run: (db) => selectContractPage(db, page) },
      {
        name: "Contracts, q=customer 123 (a customer's name: 111 customers, 1,110 contracts)",
        run: (db) => selectContractPage(db, { ...page, q: 'customer 123' }),
      },
      {
        name: 'Contracts, q=06249ff5 (the short id of contract 4,321 with BENCH_SEED=1)',
        run: (db) => selectContractPage(db, { ...page, q: '06249ff5' }),
      },
      {
        name: 'Contracts, q=jubilee (a rare word: 200 matches over the whole table)',
        run: (db) => selectContractPage(db, { ...page, q: 'jubilee' }),
      },
      {
        name: 'Contracts, q=summer (a common word: one contract in 8)',
        run: (db) => selectContractPage(db, { ...page, q: 'summer' }),
      },
      {
        name: 'Contracts, q=campaign 12 (11,111 matches, all in one stretch of the table)',
        run: (db) => selectContractPage(db, { ...page, q: 'campaign 12' }),
      },
      {
        name: 'Contracts, q=campaign 123456 (one match)',
        run: (db) => selectContractPage(db, { ...page, q: 'campaign 123456' }),
      },
      {
        name: 'Contracts, status=active, q=campaign 12',
        run: (db) => selectContractPage(db, { ...page, status: 'active', q: 'campaign 12' }),
      },
      {
        name: 'Customers, first page, no search',
        run: (db) => selectCustomerPage(db, { ...page, scope: { all: true } }),
      },
      {
        name: 'Customers, q=customer 12 (1,111 matches)',
        run: (db) => selectCustomerPage(db, { ...page, scope: { all: true }, q: 'customer 12' }),
      },
      {
        name: 'Customers, q=customer4321@ (an e-mail)',
        run: (db) => selectCustomerPage(db, { ...page, scope: { all: true }, q: 'customer4321@' }),
      },
      {
        name: 'Customers, q=company 12 (a company: 111 companies, 2,220 customers)',
        run: (db) => selectCustomerPage(db, { ...page, scope: { all: true }, q: 'company 12' }),
      },
    ],
  },
  {
    database: benchDb('reports'),
    about: '100,000 contracts, 1,000,000 invoices',
    cases: [
      {
        name: 'Invoices, first page, no search',
        run: (db) => selectInvoicePage(db, { ...page, scope: { kind: 'all' } }),
      },
      {
        name: 'Invoices, q=rb-725- (part of an invoice number)',
        run: (db) => selectInvoicePage(db, { ...page, scope: { kind: 'all' }, q: 'rb-725-' }),
      },
      {
        name: "Invoices, q=customer 12 (the customer's name: 111 customers, 11,100 invoices)",
        run: (db) => selectInvoicePage(db, { ...page, scope: { kind: 'all' }, q: 'customer 12' }),
      },
      {
        name: 'Invoices, status=pending',
        run: (db) => selectInvoicePage(db, { ...page, scope: { kind: 'all' }, status: 'pending' }),
      },
    ],
  },
];

/** Runs each case twice (the first warms the cache) and keeps the plans of the second run. */
async function plansOf(database: string, cases: Case[]): Promise<string[]> {
  const url = new URL(PG_URL);
  url.pathname = `/${database}`;
  const pool = new pg.Pool({
    connectionString: url.toString(),
    max: 1,
    options:
      '-c session_preload_libraries=auto_explain -c auto_explain.log_min_duration=0 ' +
      '-c auto_explain.log_analyze=on -c auto_explain.log_buffers=on -c auto_explain.log_timing=on ' +
      '-c client_min_messages=log',
  });
  let plans: string[] = [];
  pool.on('connect', (client) => client.on('notice', (notice) => plans.push(notice.message ?? '')));
  const db = drizzle(pool, { schema }) as unknown as Db;
  const out: string[] = [];
  try {
    for (const c of cases) {
      await c.run(db);
      plans = [];
      const started = performance.now();
      await c.run(db);
      const ms = performance.now() - started;
      out.push(`#### ${c.name}\n\nBoth statements (page and count) in ${ms.toFixed(1)} ms.\n`);
      for (const plan of plans) {
        const text = plan
          .replace(/^duration: [\d.]+ ms\s+plan:\n/, '')
          .replace(/^Query Text: [\s\S]*?\n(?=\S*\s*\()/m, '');
        out.push(['```', text.trim(), '```', ''].join('\n'));
      }
    }
  } finally {
    await pool.end();
  }
  return out;
}

const sections: string[] = [];
for (const group of groups) {
  sections.push(`### ${group.database} (${group.about})\n`);
  sections.push(...(await plansOf(group.database, group.cases)));
}
const text = sections.join('\n');
console.log(text);

if (process.argv.includes('--write')) {
  const file = path.join(ROOT, 'docs/performance.md');
  const doc = fs.readFileSync(file, 'utf8');
  const begin = '<!-- plans:begin -->';
  const end = '<!-- plans:end -->';
  if (!doc.includes(begin) || !doc.includes(end)) throw new Error(`${file} has no ${begin} ... ${end} section`);
  const measured = `Taken ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`npx tsx bench/explain.ts --write\`.\n`;
  fs.writeFileSync(
    file,
    `${doc.slice(0, doc.indexOf(begin) + begin.length)}\n${measured}\n${text}\n${doc.slice(doc.indexOf(end))}`,
  );
  console.log('plans written to docs/performance.md');
}
