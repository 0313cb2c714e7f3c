/**
 * `npm run bench`: the product against bare baselines doing the same work, measured from outside over HTTP
 * in the same run, alternating (ours, baseline, baseline, ours, ...) for several rounds, so that the noise
 * of a shared machine falls on both sides alike. Prints a markdown table (ours, baseline, ratio, goal, met)
 * and writes it into docs/performance.md, each row with the date and commit it was measured at; a row that got
 * worse by more than 25% since the previous table is printed as a warning at the end.
 *
 *   npm run bench:data                       builds the databases first (bench/data.ts; kept between runs)
 *   npm run bench                            every row: 5 rounds of 10 s at 50 connections
 *   BENCH_QUICK=1 npm run bench              2 rounds of 3 s, 20,000 contracts only; docs not written
 *   BENCH_ONLY=api,search,pglite,client,billing,autopay,reports,inventory,pipeline,email,cluster,delivery   some groups only
 *   BENCH_ROUNDS, BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_WRITE=0|1, BENCH_PG_URL, BENCH_DB_PREFIX, BENCH_PORT_BASE,
 *   BENCH_GROUP_TIMEOUT_MINUTES
 *
 * Servers (each its own process): ours = the compiled server (dist/server/main.js, NODE_ENV=production)
 * on PostgreSQL or PGlite; bench/baselines/bare-me.ts (node:http + pg), bench/baselines/bare-api.ts
 * (Fastify + pg, the product's SQL), bench/baselines/template-server.ts (the bare Vite + React template).
 * Group `cluster` (bench/cluster.ts): two instances of the compiled server behind HAProxy, 50 simulated users.
 * Group `delivery` (bench/delivery.ts): the delivery CSV import of 50,000 rows, in process, on its own database.
 * Group `autopay` (bench/autopay.ts): the autopay charge run over 10,000 due invoices, in process, on its own database.
 * Group `pipeline` (bench/pipeline.ts): the board's summary, deal lists and the forecast over 100,000 deals, in process.
 * Group `pglite` also measures the PGlite list before and after a burst of writes through the API.
 *
 * The rows measured so far are rewritten to dist/bench/rows.json after each group, and a companion group that
 * gives no rows within BENCH_GROUP_TIMEOUT_MINUTES (30; 10 quick) becomes a failed row: one group that hangs
 * neither stops the run nor loses what the others measured.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import pg from 'pg';
import { chromium } from 'playwright-core';
import { openDatabase } from '../server/db/client';
import { hashToken } from '../server/modules/sessions/sessions';
import { benchDatabaseName, benchUsers, databaseUrl, GENERATOR_VERSION, PG_URL, pgliteDir, SEED } from './data';
import { mergeRows, parseTable, REGRESSION_SHARE, regressions } from './lib/history';
import { type LoadResult, load } from './lib/load';
import { max, median, spread } from './lib/stats';
import { type BenchContext, type BenchRow, markdownTable } from './lib/table';

const ROOT = path.resolve(import.meta.dirname, '..');
const QUICK = process.env.BENCH_QUICK === '1';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (QUICK ? 2 : 5));
const SECONDS = Number(process.env.BENCH_SECONDS ?? (QUICK ? 3 : 10));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WRITE = process.env.BENCH_WRITE ? process.env.BENCH_WRITE === '1' : !QUICK;
const GROUPS = new Set(
  (
    process.env.BENCH_ONLY ??
    'api,search,pglite,client,billing,autopay,reports,inventory,pipeline,email,cluster,delivery'
  )
    .split(',')
    .map((g) => g.trim()),
);
const SMALL = 20_000;
const LARGE = 200_000;
const WORK = path.join(ROOT, 'dist/bench');
const LOGS = path.join(WORK, 'logs');
/** BENCH_PORT_BASE moves the six ports, so two runs on one machine do not collide. */
const PORT_BASE = Number(process.env.BENCH_PORT_BASE ?? 3181);
const PORTS = {
  ours: PORT_BASE,
  bareMe: PORT_BASE + 1,
  bareApi: PORT_BASE + 2,
  oursPglite: PORT_BASE + 3,
  oursLarge: PORT_BASE + 4,
  template: PORT_BASE + 5,
};
/**
 * The contract search's mix (group `search`): what people type, each measured on its own row against the plain
 * list. The values exist in the bench data (bench/data.ts): customers are named "Customer <n>", every
 * description reads "<season> campaign <n>", one in 1,000 adds "for the Jubilee fair"; the short id is that of
 * contract number 4,321 (the same at both sizes), read from the database.
 */
const SEARCH_MIX = [
  { key: 'customer', what: "a customer's name, prefix", q: 'Customer 123' },
  { key: 'short-id', what: 'a short id', q: null },
  { key: 'rare', what: 'a rare word, 1 in 1,000', q: 'jubilee' },
  { key: 'common', what: 'a common word, 1 in 8', q: 'summer' },
  { key: 'campaign', what: 'the worst case', q: 'campaign 12' },
] as const;
const SEARCH_RATIO_GOAL = 0.5;
const SEARCH_P50_GOAL_MS = 100;
const BENCH_PUBLIC_URL = 'https://crm.bench.test';
const SIGNED_IN_GOAL_KB = 170;
/** A companion group that has given no rows after this long is a failed row, and the run goes on. */
const GROUP_TIMEOUT_MINUTES = Number(process.env.BENCH_GROUP_TIMEOUT_MINUTES ?? (QUICK ? 10 : 30));
/** The rows measured so far, rewritten after each group: a run stopped half way still leaves what it measured. */
const CHECKPOINT = path.join(WORK, 'rows.json');
/** Set when a companion group timed out: what it left running must not keep the finished run alive. */
let groupTimedOut = false;

const children: ChildProcess[] = [];
/** Stops every server started here: SIGTERM, then SIGKILL for one that has not exited within 15 s. */
async function stopAll(): Promise<void> {
  const running = children.filter((child) => child.exitCode === null && child.signalCode === null);
  for (const child of running) child.kill('SIGTERM');
  const deadline = Date.now() + 15_000;
  while (running.some((child) => child.exitCode === null && child.signalCode === null) && Date.now() < deadline) {
    await sleep(200);
  }
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

const say = (text: string) => console.error(`[bench] ${text}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------------------
// Building, data, servers
// ---------------------------------------------------------------------------------------------------------

async function buildAll(): Promise<void> {
  say('building the server bundle and the baselines...');
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build-server.mjs')], { cwd: ROOT, stdio: 'ignore' });
  await build({
    absWorkingDir: ROOT,
    entryPoints: ['bench/baselines/bare-me.ts', 'bench/baselines/bare-api.ts', 'bench/baselines/template-server.ts'],
    outdir: path.join(WORK, 'bin'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    packages: 'external',
    logLevel: 'warning',
    tsconfig: path.join(ROOT, 'tsconfig.json'),
  });
  fs.writeFileSync(path.join(WORK, 'bin/package.json'), '{ "type": "module" }\n');
  if (GROUPS.has('client')) {
    say('building the client...');
    execFileSync(process.execPath, [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build'], {
      cwd: ROOT,
      stdio: 'ignore',
    });
  }
}

async function databaseIsCurrent(contracts: number): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ comment: string | null }>(
      'select shobj_description(oid, $2) as comment from pg_database where datname = $1',
      [benchDatabaseName(contracts), 'pg_database'],
    );
    return rows[0]?.comment === `adcrm bench v${GENERATOR_VERSION} seed=${SEED} contracts=${contracts} complete`;
  } finally {
    await client.end();
  }
}

async function ensureData(volumes: number[]): Promise<void> {
  const missing = [];
  for (const volume of volumes) if (!(await databaseIsCurrent(volume))) missing.push(volume);
  const pgliteMissing = GROUPS.has('pglite') && !fs.existsSync(`${pgliteDir(SMALL)}.complete`);
  if (!missing.length && !pgliteMissing) return;
  say(`building benchmark data (${[...missing, ...(pgliteMissing ? ['PGlite'] : [])].join(', ')})...`);
  execFileSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/data.ts')], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, BENCH_VOLUMES: [...new Set([SMALL, ...missing])].join(','), BENCH_SKIP_COMPANIONS: '1' },
  });
}

/** A session for the benchmark's admin, written straight into the database; both sides use the same token. */
async function adminToken(url: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      `insert into sessions (token_hash, user_id, expires_at)
       select $1, id, now() + interval '1 day' from users where email = $2`,
      [hashToken(token), benchUsers.admin.email],
    );
  } finally {
    await client.end();
  }
  return token;
}

/** A session for the benchmark's admin on PGlite, and a customer and two products the write burst sells. */
async function pgliteFixture(dataDir: string): Promise<{ token: string; customerId: string; productIds: string[] }> {
  const token = randomBytes(32).toString('base64url');
  const database = await openDatabase({ dataDir });
  try {
    await database.migrate();
    await database.db.execute(
      `insert into sessions (token_hash, user_id, expires_at)
       select '${hashToken(token)}', id, now() + interval '1 day' from users where email = '${benchUsers.admin.email}'`,
    );
    const customers = await database.sql('select id from customers order by id limit 1', []);
    const products = await database.sql('select id from products where is_active order by id limit 2', []);
    return {
      token,
      customerId: (customers.rows[0] as { id: string }).id,
      productIds: (products.rows as { id: string }[]).map((p) => p.id),
    };
  } finally {
    await database.close();
  }
}

/** Contracts the write burst creates, edits and deletes on PGlite, per round. */
const BURST_CONTRACTS = QUICK ? 40 : 150;

/**
 * The PGlite list before and after a burst of writes through the API, round after round: BURST_CONTRACTS
 * contracts created, each edited once (the report triggers on contracts fire on every one), then the list
 * measured again at one connection; ratio = after / before per round. The burst's contracts are drafts (the
 * list shows completed ones) and are deleted through the API after each round, so every round and every
 * other row sees the same rows.
 */
async function pgliteBurstRow(
  origin: string,
  list: Target,
  fixture: { customerId: string; productIds: string[] },
): Promise<BenchRow> {
  const call = async (method: string, pathAndQuery: string, body?: unknown) => {
    const response = await fetch(`${origin}${pathAndQuery}`, {
      method,
      headers: {
        authorization: `Bearer ${list.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${pathAndQuery}: ${response.status} ${await response.text()}`);
    return (await response.json()) as { id: string };
  };
  const body = (description: string) => ({
    customerId: fixture.customerId,
    description,
    startDate: '2026-02-01',
    termMonths: 12,
    paymentMode: 'pay_link',
    setupFee: 150,
    lineItems: [
      { productId: fixture.productIds[0], quantity: 2, unitPrice: 500, discount: 0 },
      { productId: fixture.productIds[1], quantity: 1, unitPrice: 800, discount: 50 },
    ],
  });
  const before: LoadResult[] = [];
  const after: LoadResult[] = [];
  let burstSeconds = 0;
  await run(list, 1, 2);
  for (let round = 1; round <= ROUNDS; round++) {
    before.push(await run(list, 1, SECONDS));
    const started = performance.now();
    const created: string[] = [];
    for (let i = 0; i < BURST_CONTRACTS; i++) {
      const { id } = await call('POST', '/api/contracts', body('Bench burst'));
      created.push(id);
      await call('PATCH', `/api/contracts/${id}`, body('Bench burst, edited'));
    }
    burstSeconds = (performance.now() - started) / 1000;
    after.push(await run(list, 1, SECONDS));
    for (const id of created) await call('DELETE', `/api/contracts/${id}`);
    say(
      `round ${round}/${ROUNDS} pglite-burst: before ${before.at(-1)!.rps.toFixed(0)} req/s, ` +
        `after ${after.at(-1)!.rps.toFixed(0)} req/s (burst ${burstSeconds.toFixed(1)} s)`,
    );
  }
  const ratios = after.map((a, i) => (before[i].rps > 0 ? a.rps / before[i].rps : 0));
  const errors = [...before, ...after].reduce((n, r) => n + r.errors, 0);
  const figure = (rs: LoadResult[]) => `${spread(rs.map((r) => r.rps))} req/s, p95 ${spread(rs.map((r) => r.p95))} ms`;
  return {
    name: `Contract list on PGlite after a write burst (${BURST_CONTRACTS} contracts created and edited) vs before, 1 connection`,
    ours: `after: ${figure(after)}`,
    baseline: `before: ${figure(before)}`,
    ratio: spread(ratios, 2),
    goal: '>= 0.8',
    met: median(ratios) >= 0.8 && errors === 0,
    note: errors ? `${errors} answers were errors or timeouts` : undefined,
  };
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

async function startProcess(name: string, script: string, env: Record<string, string>, readyUrl: string) {
  const port = Number(env.PORT);
  if (!(await portIsFree(port))) throw new Error(`port ${port} (${name}) is in use`);
  fs.mkdirSync(LOGS, { recursive: true });
  const log = fs.openSync(path.join(LOGS, `${name}.log`), 'w');
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  if (!env.DATABASE_URL) delete childEnv.DATABASE_URL;
  const child = spawn(process.execPath, ['--enable-source-maps', script], {
    cwd: ROOT,
    env: childEnv,
    stdio: ['ignore', log, log],
  });
  children.push(child);
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}); see ${LOGS}/${name}.log`);
    try {
      const response = await fetch(readyUrl);
      if (response.status < 500) return child;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  throw new Error(`${name} did not start within 180 s`);
}

/**
 * The same for a server on PGlite, whose one connection cannot be watched from outside: waits until its
 * health answers within 100 ms six times in a row, half a second apart (its start-up jobs hold the
 * connection while they run, and every request waits behind them).
 */
async function settleHttp(url: string): Promise<void> {
  let quiet = 0;
  const deadline = Date.now() + 600_000;
  while (quiet < 6 && Date.now() < deadline) {
    const started = performance.now();
    const ok = await fetch(url, { signal: AbortSignal.timeout(30_000) }).then(
      (response) => response.ok,
      () => false,
    );
    quiet = ok && performance.now() - started < 100 ? quiet + 1 : 0;
    await sleep(500);
  }
}

/** Waits until nothing runs on the database for 3 s (the server's start-up jobs, e.g. the billing run's catch-up). */
async function settle(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    let quiet = 0;
    const deadline = Date.now() + 600_000;
    while (quiet < 6 && Date.now() < deadline) {
      const { rows } = await client.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity
         where datname = current_database() and state = 'active' and pid <> pg_backend_pid()`,
      );
      quiet = rows[0].n === 0 ? quiet + 1 : 0;
      await sleep(500);
    }
    // Those jobs rewrite many rows (pay links, paused contracts); autovacuum, off on the development machines'
    // PostgreSQL, would clean and analyze the tables soon after on a server: do it here.
    await client.query('vacuum (analyze)');
  } finally {
    await client.end();
  }
}

function oursEnv(port: number, database: { url: string } | { dataDir: string }) {
  return {
    PORT: String(port),
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
    // Links (payLinkUrl) from one configured origin, which the bare baseline builds its answers with too.
    PUBLIC_URL: BENCH_PUBLIC_URL,
    CLIENT_DIST: path.join(ROOT, 'dist/client'),
    ...('url' in database ? { DATABASE_URL: database.url } : { DATA_DIR: database.dataDir }),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Measuring
// ---------------------------------------------------------------------------------------------------------

type Target = { label: string; url: string; method?: string; body?: unknown; token: string };
type Pair = {
  key: string;
  name: string;
  ours: Target;
  base: Target;
  connections: number;
  goal: string;
  /** Whether the goal is met, from the medians; null when the row has no goal. */
  check: ((ratio: number, ours: LoadResult[]) => boolean) | null;
  /** Show the p50 beside the p95 (rows whose goal is a p50). */
  p50?: boolean;
  note?: string;
  afterRun?: () => Promise<void>;
};

const run = (target: Target, connections: number, seconds: number) =>
  load({
    url: target.url,
    method: target.method,
    body: target.body,
    connections,
    seconds,
    headers: { authorization: `Bearer ${target.token}` },
  });

async function sameAnswer(pair: Pair): Promise<string | null> {
  if (pair.ours.method === 'POST' && pair.key === 'create') return sameCreated(pair);
  if (pair.ours.method && pair.ours.method !== 'GET') return null;
  // PGlite against PostgreSQL: our own server on both sides, over databases that drift apart as the
  // billing run and the create rows above change the PostgreSQL one.
  if (pair.key.startsWith('pglite-')) return null;
  const get = async (target: Target) => {
    const response = await fetch(target.url, { headers: { authorization: `Bearer ${target.token}` } });
    return `${response.status} ${await response.text()}`;
  };
  const [a, b] = await Promise.all([get(pair.ours), get(pair.base)]);
  if (pair.ours.url.replace(/:\d+/, '') !== pair.base.url.replace(/:\d+/, '')) return null;
  return a === b ? null : `answers differ:\n  ours ${a.slice(0, 300)}\n  base ${b.slice(0, 300)}`;
}

/**
 * A create on each side, the answers compared without what differs by nature (the new ids and the times); the
 * row's afterRun removes both contracts with the measured ones.
 */
async function sameCreated(pair: Pair): Promise<string | null> {
  const post = async (target: Target) => {
    const response = await fetch(target.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(target.body),
    });
    const json = (await response.json()) as Record<string, unknown> & { lineItems?: Record<string, unknown>[] };
    const comparable = {
      ...json,
      id: '-',
      createdAt: '-',
      updatedAt: '-',
      lineItems: json.lineItems?.map((line) => ({ ...line, id: '-' })),
    };
    return `${response.status} ${JSON.stringify(comparable)}`;
  };
  const [a, b] = await Promise.all([post(pair.ours), post(pair.base)]);
  return a === b ? null : `answers differ:\n  ours ${a.slice(0, 300)}\n  base ${b.slice(0, 300)}`;
}

/** `ratiosOut`, when given, receives each pair's per-round ratios (ours / baseline) by key. */
async function measurePairs(pairs: Pair[], ratiosOut?: Map<string, number[]>): Promise<BenchRow[]> {
  for (const pair of pairs) {
    const difference = await sameAnswer(pair);
    if (difference) throw new Error(`${pair.name}: ${difference}`);
  }
  say(`warming up ${pairs.length} pairs...`);
  for (const pair of pairs) {
    await run(pair.ours, pair.connections, 2);
    await run(pair.base, pair.connections, 2);
    await pair.afterRun?.();
  }
  const results = new Map(pairs.map((pair) => [pair.key, { ours: [] as LoadResult[], base: [] as LoadResult[] }]));
  for (let round = 1; round <= ROUNDS; round++) {
    for (const pair of pairs) {
      const sides = round % 2 ? (['ours', 'base'] as const) : (['base', 'ours'] as const);
      for (const side of sides) {
        const result = await run(pair[side], pair.connections, SECONDS);
        results.get(pair.key)![side].push(result);
        await pair.afterRun?.();
        await sleep(300);
      }
      const r = results.get(pair.key)!;
      say(
        `round ${round}/${ROUNDS} ${pair.key}: ours ${r.ours.at(-1)!.rps.toFixed(0)} req/s, ` +
          `${pair.base.label} ${r.base.at(-1)!.rps.toFixed(0)} req/s`,
      );
    }
  }
  return pairs.map((pair) => {
    const { ours, base } = results.get(pair.key)!;
    const ratios = ours.flatMap((o, i) => (base[i].rps > 0 ? [o.rps / base[i].rps] : []));
    ratiosOut?.set(pair.key, ratios);
    const errors = ours.reduce((n, r) => n + r.errors, 0) + base.reduce((n, r) => n + r.errors, 0);
    const figure = (rs: LoadResult[]) =>
      `${spread(rs.map((r) => r.rps))} req/s, ${
        pair.p50
          ? `p50 ${spread(
              rs.map((r) => r.p50),
              1,
            )} ms, `
          : ''
      }` + `p95 ${spread(rs.map((r) => r.p95))} ms`;
    return {
      name: pair.name,
      ours: figure(ours),
      baseline: `${pair.base.label}: ${figure(base)}`,
      ratio: ratios.length ? spread(ratios, 2) : 'n/a',
      goal: pair.goal,
      met: pair.check ? ratios.length > 0 && pair.check(median(ratios), ours) && errors === 0 : null,
      note: errors ? `${errors} answers were errors or timeouts` : pair.note,
    };
  });
}

const p95Under = (ms: number) => (results: LoadResult[]) => median(results.map((r) => r.p95)) < ms;

// ---------------------------------------------------------------------------------------------------------
// Page load (LCP, CLS) and the JS budget
// ---------------------------------------------------------------------------------------------------------

/**
 * One page load: LCP and CLS, and every script the page fetched until the network was idle (Playwright's
 * `networkidle`, no request for 500 ms, plus the 500 ms wait below) with its bytes on the wire (CDP
 * `encodedDataLength`: the compressed body and the response headers) and the encoding the server chose.
 */
type PageMetrics = { lcp: number; cls: number; scriptBytes: number; scripts: number; encodings: string[] };

/** The JavaScript budgets of a whole page load, on the wire (kB = 1,000 bytes, as scripts/check-budget.mjs). */
const LOGIN_WIRE_GOAL_KB = 100;
const DASHBOARD_WIRE_GOAL_KB = 170;

async function pageMetrics(browser: import('playwright-core').Browser, url: string, token?: string) {
  const context = await browser.newContext({ viewport: { width: 1366, height: 860 } });
  if (token) await context.addInitScript((t) => localStorage.setItem('authToken', t), token);
  await context.addInitScript(() => {
    const w = window as unknown as { __lcp: number; __cls: number };
    w.__lcp = 0;
    w.__cls = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__lcp = entry.startTime;
    }).observe({ type: 'largest-contentful-paint', buffered: true });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!entry.hadRecentInput) w.__cls += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  const page = await context.newPage();
  // A fast home connection (40 ms round trips, 10 Mbit/s down): the bytes of each page count, as they do.
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 40,
    downloadThroughput: (10 * 1024 * 1024) / 8,
    uploadThroughput: (5 * 1024 * 1024) / 8,
  });
  // Chromium asks for `gzip, deflate, br, zstd` on its own; the server sends its precompressed .br files then.
  const scripts = new Map<string, { encoding: string; bytes?: number }>();
  cdp.on('Network.responseReceived', (event) => {
    if (event.type !== 'Script') return;
    const headers = Object.fromEntries(Object.entries(event.response.headers).map(([k, v]) => [k.toLowerCase(), v]));
    scripts.set(event.requestId, { encoding: String(headers['content-encoding'] ?? 'identity') });
  });
  cdp.on('Network.loadingFinished', (event) => {
    const script = scripts.get(event.requestId);
    if (script) script.bytes = event.encodedDataLength;
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  await page.waitForTimeout(500);
  const metrics = await page.evaluate(() => {
    const w = window as unknown as { __lcp: number; __cls: number };
    return { lcp: w.__lcp, cls: w.__cls };
  });
  await context.close();
  const loaded = [...scripts.values()].filter((script) => script.bytes !== undefined);
  return {
    ...metrics,
    scriptBytes: loaded.reduce((sum, script) => sum + script.bytes!, 0),
    scripts: loaded.length,
    encodings: [...new Set(loaded.map((script) => script.encoding))],
  } as PageMetrics;
}

async function clientRows(token: string): Promise<BenchRow[]> {
  const budget = JSON.parse(
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/check-budget.mjs'), '--json'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  ) as { templateKb: number; loginLimitKb: number; screens: { name: string; kb: number; budgetKb: number }[] };
  const login = budget.screens.find((s) => s.name === 'login')!;
  const signedIn = budget.screens.filter((s) => s.name !== 'login').sort((a, b) => b.kb - a.kb);
  const heaviest = signedIn[0];
  // The goal is the same for every screen; scripts/check-budget.mjs's allowances do not make a miss a hit.
  const over = signedIn.filter((s) => s.kb > SIGNED_IN_GOAL_KB);

  await startProcess(
    'template',
    path.join(WORK, 'bin/template-server.js'),
    { PORT: String(PORTS.template), TEMPLATE_DIST: path.join(ROOT, 'dist/bench-template') },
    `http://127.0.0.1:${PORTS.template}/`,
  );
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const samples = { login: [] as PageMetrics[], dashboard: [] as PageMetrics[], template: [] as PageMetrics[] };
  const runs = Math.max(3, ROUNDS);
  try {
    for (let i = 0; i < runs; i++) {
      const order =
        i % 2 ? (['template', 'login', 'dashboard'] as const) : (['login', 'dashboard', 'template'] as const);
      for (const page of order) {
        if (page === 'template')
          samples.template.push(await pageMetrics(browser, `http://127.0.0.1:${PORTS.template}/`));
        if (page === 'login') samples.login.push(await pageMetrics(browser, `http://127.0.0.1:${PORTS.ours}/`));
        if (page === 'dashboard') {
          samples.dashboard.push(await pageMetrics(browser, `http://127.0.0.1:${PORTS.ours}/`, token));
        }
      }
      const last = (list: PageMetrics[]) =>
        `${list.at(-1)!.lcp.toFixed(0)} ms, ${(list.at(-1)!.scriptBytes / 1000).toFixed(1)} kB of JS`;
      say(
        `page load ${i + 1}/${runs}: login ${last(samples.login)}, dashboard ${last(samples.dashboard)}, template ${last(samples.template)}`,
      );
    }
  } finally {
    await browser.close();
  }
  const lcp = (list: PageMetrics[]) => list.map((m) => m.lcp);
  const templateLcp = median(lcp(samples.template));
  const lcpRow = (name: string, list: PageMetrics[]): BenchRow => {
    const ratios = list.map((m, i) => m.lcp / samples.template[i].lcp);
    return {
      name: `Lab LCP, ${name} (Chromium, 40 ms / 10 Mbit/s)`,
      ours: `${spread(lcp(list))} ms`,
      baseline: `bare template: ${spread(lcp(samples.template))} ms`,
      ratio: spread(ratios, 2),
      goal: '<= 1.5x',
      met: median(lcp(list)) <= 1.5 * templateLcp,
    };
  };
  const wire = (list: PageMetrics[]) => list.map((m) => m.scriptBytes / 1000);
  const wireRow = (name: string, list: PageMetrics[], goalKb: number): BenchRow => {
    const ratios = list.map((m, i) => m.scriptBytes / samples.template[i].scriptBytes);
    const files = list.map((m) => m.scripts);
    const encodings = [...new Set(list.flatMap((m) => m.encodings))].join(', ');
    return {
      name: `${name}: all JavaScript loaded until network idle (on the wire)`,
      ours: `${spread(wire(list), 1)} kB (${spread(files)} files, ${encodings})`,
      baseline: `bare template: ${spread(wire(samples.template), 1)} kB`,
      ratio: spread(ratios, 2),
      goal: `<= ${goalKb} kB`,
      met: median(wire(list)) <= goalKb,
      note: 'response bodies as sent (Content-Encoding above) and their headers, Chromium, a fresh cache',
    };
  };
  const cls = [...samples.login, ...samples.dashboard].map((m) => m.cls);
  return [
    {
      name: 'Login page JavaScript before first paint (gzip)',
      ours: `${login.kb.toFixed(1)} kB`,
      baseline: `bare Vite + React template: ${budget.templateKb.toFixed(1)} kB`,
      ratio: (login.kb / budget.templateKb).toFixed(2),
      goal: '<= 100 kB and <= 1.5x',
      met: login.kb <= budget.loginLimitKb,
    },
    {
      name: 'Signed-in screens, first load (gzip, heaviest)',
      ours: `${heaviest.name}: ${heaviest.kb.toFixed(1)} kB (lightest ${signedIn.at(-1)!.kb.toFixed(1)} kB)`,
      baseline: '—',
      ratio: '—',
      goal: '<= 170 kB each',
      met: over.length === 0,
      note: over.length ? `over: ${over.map((s) => `${s.name} ${s.kb.toFixed(0)} kB`).join(', ')}` : undefined,
    },
    wireRow('Login page', samples.login, LOGIN_WIRE_GOAL_KB),
    wireRow('Dashboard (signed in)', samples.dashboard, DASHBOARD_WIRE_GOAL_KB),
    lcpRow('login page', samples.login),
    lcpRow('dashboard (signed in)', samples.dashboard),
    {
      name: 'CLS, login page and dashboard',
      ours: `${max(cls).toFixed(3)} at most`,
      baseline: `bare template: ${max(samples.template.map((m) => m.cls)).toFixed(3)}`,
      ratio: '—',
      goal: '<= 0.05',
      met: max(cls) <= 0.05,
    },
  ];
}

// ---------------------------------------------------------------------------------------------------------
// Companion benchmarks (billing run, reports) from their modules
// ---------------------------------------------------------------------------------------------------------

async function companionRows(file: string, group: string): Promise<BenchRow[]> {
  const full = path.join(ROOT, 'bench', file);
  if (!fs.existsSync(full)) {
    return [
      {
        name: `${group} (bench/${file})`,
        ours: 'not measured',
        baseline: '—',
        ratio: '—',
        goal: '—',
        met: null,
        note: `bench/${file} does not exist yet`,
      },
    ];
  }
  const module = (await import(full)) as { bench?: (context: BenchContext) => Promise<BenchRow[]> };
  if (typeof module.bench !== 'function') {
    throw new Error(`bench/${file} must export bench(context): Promise<BenchRow[]> (bench/lib/table.ts)`);
  }
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      groupTimedOut = true;
      reject(new Error(`gave no rows within ${GROUP_TIMEOUT_MINUTES} minutes (BENCH_GROUP_TIMEOUT_MINUTES)`));
    }, GROUP_TIMEOUT_MINUTES * 60_000);
  });
  try {
    return await Promise.race([module.bench({ pgUrl: PG_URL, rounds: ROUNDS, quick: QUICK, seed: SEED }), timeout]);
  } catch (error) {
    // One group's failure is a row of the table, not the end of the run: the other groups still measure.
    const message = (error instanceof Error ? error.message : String(error)).split('\n')[0].slice(0, 200);
    say(`${group} failed: ${message}`);
    return [
      {
        name: `${group} (bench/${file})`,
        ours: 'failed',
        baseline: '—',
        ratio: '—',
        goal: '—',
        met: false,
        note: message,
      },
    ];
  } finally {
    clearTimeout(timer);
  }
}

// ---------------------------------------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------------------------------------

const started = new Date();
const rows: BenchRow[] = [];
const smallUrl = databaseUrl(benchDatabaseName(SMALL));
const largeUrl = databaseUrl(benchDatabaseName(LARGE));
const needLarge = GROUPS.has('search') && (!QUICK || (await databaseIsCurrent(LARGE)));

await buildAll();
await ensureData(needLarge ? [SMALL, LARGE] : [SMALL]);

const needOurs = ['api', 'search', 'pglite', 'client'].some((g) => GROUPS.has(g));
const token = needOurs ? await adminToken(smallUrl) : '';
if (needOurs) {
  say('starting our server on PostgreSQL (20,000 contracts)...');
  await startProcess(
    'ours',
    path.join(ROOT, 'dist/server/main.js'),
    oursEnv(PORTS.ours, { url: smallUrl }),
    `http://127.0.0.1:${PORTS.ours}/api/health`,
  );
  await settle(smallUrl);
}
const ours = (pathAndQuery: string, extra: Partial<Target> = {}): Target => ({
  label: 'ours',
  url: `http://127.0.0.1:${PORTS.ours}${pathAndQuery}`,
  token,
  ...extra,
});

if (GROUPS.has('api')) {
  await startProcess(
    'bare-me',
    path.join(WORK, 'bin/bare-me.js'),
    { PORT: String(PORTS.bareMe), DATABASE_URL: smallUrl },
    `http://127.0.0.1:${PORTS.bareMe}/api/auth/me`,
  );
  await startProcess(
    'bare-api',
    path.join(WORK, 'bin/bare-api.js'),
    { PORT: String(PORTS.bareApi), DATABASE_URL: smallUrl, PUBLIC_URL: BENCH_PUBLIC_URL },
    `http://127.0.0.1:${PORTS.bareApi}/api/contracts?limit=1`,
  );
  const db = new pg.Client({ connectionString: smallUrl });
  await db.connect();
  const [customer] = (await db.query('select id from customers order by id limit 1')).rows;
  const products = (await db.query('select id from products where is_active order by id limit 2')).rows;
  const createBody = {
    customerId: customer.id,
    description: 'Bench create',
    startDate: '2026-02-01',
    termMonths: 12,
    paymentMode: 'pay_link',
    setupFee: 150,
    lineItems: [
      { productId: products[0].id, quantity: 2, unitPrice: 500, discount: 0 },
      { productId: products[1].id, quantity: 1, unitPrice: 800, discount: 50 },
    ],
  };
  // What the create rows add is removed after each run, so that every run lists and counts the same rows.
  const removeCreated = async () => {
    await db.query(
      `delete from audit_events where action = 'contract.created' and after->>'description' = 'Bench create'`,
    );
    await db.query(`delete from contracts where description = 'Bench create'`);
  };
  await removeCreated();
  const bare = (port: number, label: string, pathAndQuery: string, extra: Partial<Target> = {}): Target => ({
    label,
    url: `http://127.0.0.1:${port}${pathAndQuery}`,
    token,
    ...extra,
  });
  rows.push(
    ...(await measurePairs([
      {
        key: 'me',
        name: `GET /api/auth/me, ${CONNECTIONS} connections`,
        ours: ours('/api/auth/me'),
        base: bare(PORTS.bareMe, 'node:http + pg, same session lookup', '/api/auth/me'),
        connections: CONNECTIONS,
        goal: '>= 0.85, p95 < 50 ms',
        check: (ratio, results) => ratio >= 0.85 && p95Under(50)(results),
      },
      {
        key: 'list',
        name: `GET /api/contracts?limit=50 (20,000 contracts), ${CONNECTIONS} connections`,
        ours: ours('/api/contracts?limit=50'),
        base: bare(PORTS.bareApi, 'Fastify + pg, same SQL', '/api/contracts?limit=50'),
        connections: CONNECTIONS,
        goal: '>= 0.80, p95 < 50 ms',
        check: (ratio, results) => ratio >= 0.8 && p95Under(50)(results),
      },
      {
        key: 'create',
        name: `POST /api/contracts (two lines), ${CONNECTIONS} connections`,
        ours: ours('/api/contracts', { method: 'POST', body: createBody }),
        base: bare(PORTS.bareApi, 'Fastify + pg, same 17 statements and answer', '/api/contracts', {
          method: 'POST',
          body: createBody,
        }),
        connections: CONNECTIONS,
        goal: '>= 0.70',
        check: (ratio) => ratio >= 0.7,
        afterRun: removeCreated,
      },
    ])),
  );
  await db.end();
}
checkpoint();

if (GROUPS.has('search')) {
  type Size = {
    contracts: number;
    label: string;
    url: string;
    target: (pathAndQuery: string, label: string) => Target;
  };
  const sizes: Size[] = [
    {
      contracts: SMALL,
      label: '20,000',
      url: smallUrl,
      target: (pathAndQuery, label) => ours(pathAndQuery, { label }),
    },
  ];
  if (needLarge) {
    const largeToken = await adminToken(largeUrl);
    say('starting our server on 200,000 contracts...');
    await startProcess(
      'ours-200k',
      path.join(ROOT, 'dist/server/main.js'),
      oursEnv(PORTS.oursLarge, { url: largeUrl }),
      `http://127.0.0.1:${PORTS.oursLarge}/api/health`,
    );
    await settle(largeUrl);
    sizes.push({
      contracts: LARGE,
      label: '200,000',
      url: largeUrl,
      target: (pathAndQuery, label) => ({
        label,
        url: `http://127.0.0.1:${PORTS.oursLarge}${pathAndQuery}`,
        token: largeToken,
      }),
    });
  }
  const pairs: Pair[] = [];
  for (const size of sizes) {
    const shortId = await shortIdOf(size.url, 4321);
    const list = (connections: number) =>
      size.target('/api/contracts?limit=50', `our plain list${connections === 1 ? ', 1 connection' : ''}`);
    for (const item of SEARCH_MIX) {
      const q = item.q ?? shortId;
      const url = `/api/contracts?q=${encodeURIComponent(q)}&limit=50`;
      pairs.push({
        key: `search-${item.key}-${size.contracts}`,
        // The worst case keeps the row name it had before the mix, so the table's history follows it.
        name: `Contract search (q=${q}) vs the plain list, ${size.label} contracts`,
        ours: size.target(url, 'ours'),
        base: list(CONNECTIONS),
        connections: CONNECTIONS,
        goal: `— (${item.what}; the mix's median is the goal)`,
        check: null,
      });
      pairs.push({
        key: `search-${item.key}-${size.contracts}-1`,
        name: `Contract search (q=${q}) at 1 connection, ${size.label} contracts`,
        ours: size.target(url, 'ours'),
        base: list(1),
        connections: 1,
        goal: `p50 < ${SEARCH_P50_GOAL_MS} ms`,
        // A round without a single answer has no p50 (0 would read as met).
        check: (_ratio, results) =>
          results.every((r) => r.requests > 0) && median(results.map((r) => r.p50)) < SEARCH_P50_GOAL_MS,
        p50: true,
      });
    }
  }
  const ratios = new Map<string, number[]>();
  rows.push(...(await measurePairs(pairs, ratios)));
  // The goal of the mix: the median over its queries of each query's median ratio, at every size.
  // A query with no round where both sides answered counts as 0 (not met), never as a missing value.
  const mixMedians = sizes.map((size) =>
    median(
      SEARCH_MIX.map((item) => {
        const measured = ratios.get(`search-${item.key}-${size.contracts}`) ?? [];
        return measured.length ? median(measured) : 0;
      }),
    ),
  );
  rows.push({
    name: 'Contract search mix (customer name, short id, rare word, common word, campaign 12) vs the plain list',
    ours: sizes.map((size, i) => `${size.label} contracts: median ratio ${mixMedians[i].toFixed(2)}`).join('; '),
    baseline: `our plain list, ${CONNECTIONS} connections, same rounds`,
    ratio: mixMedians.map((m) => m.toFixed(2)).join(' / '),
    goal: `>= ${SEARCH_RATIO_GOAL} of the list at both sizes`,
    met: sizes.length === 2 && mixMedians.every((m) => m >= SEARCH_RATIO_GOAL),
    note: sizes.length < 2 ? 'measured at 20,000 contracts only (a quick run without the 200,000 database)' : undefined,
  });
}

checkpoint();

/** The short id (the last 8 characters of the id, as the screens show it) of the bench contract number `n`. */
async function shortIdOf(url: string, n: number): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ short: string }>(
      `select right(id::text, 8) as short from contracts
       where created_at = timestamptz '2025-01-01 00:00:00+00' + $1 * interval '2 minutes'`,
      [n],
    );
    if (rows.length !== 1) throw new Error(`bench contract ${n} not found in ${url}`);
    return rows[0].short;
  } finally {
    await client.end();
  }
}

if (GROUPS.has('pglite')) {
  const fixture = await pgliteFixture(pgliteDir(SMALL));
  const pgliteToken = fixture.token;
  say('starting our server on PGlite (20,000 contracts)...');
  await startProcess(
    'ours-pglite',
    path.join(ROOT, 'dist/server/main.js'),
    oursEnv(PORTS.oursPglite, { dataDir: pgliteDir(SMALL) }),
    `http://127.0.0.1:${PORTS.oursPglite}/api/health`,
  );
  await settleHttp(`http://127.0.0.1:${PORTS.oursPglite}/api/health`);
  const pglite: Target = {
    label: 'ours on PGlite',
    // Completed contracts only: the same rows on both databases (the create rows above add drafts to PostgreSQL).
    url: `http://127.0.0.1:${PORTS.oursPglite}/api/contracts?limit=50&status=completed`,
    token: pgliteToken,
  };
  const postgres = ours('/api/contracts?limit=50&status=completed', { label: 'ours on PostgreSQL' });
  rows.push(
    ...(await measurePairs(
      [1, 10].map((connections) => ({
        key: `pglite-${connections}`,
        name: `Contract list on PGlite vs PostgreSQL, ${connections} connection${connections > 1 ? 's' : ''}`,
        ours: { ...pglite, label: 'ours' },
        base: postgres,
        connections,
        goal: connections === 1 ? '>= 0.5' : '— (one PGlite connection serves all)',
        check: connections === 1 ? (ratio: number) => ratio >= 0.5 : null,
      })),
    )),
  );
  rows.push(await pgliteBurstRow(`http://127.0.0.1:${PORTS.oursPglite}`, { ...pglite, label: 'ours' }, fixture));
}

checkpoint();
if (GROUPS.has('client')) rows.push(...(await clientRows(token)));
checkpoint();
for (const [group, file, name] of [
  ['billing', 'billing-floor.ts', 'Billing run'],
  ['autopay', 'autopay.ts', 'Autopay charge run'],
  ['reports', 'reports.ts', 'Reports'],
  ['inventory', 'inventory.ts', 'Inventory'],
  ['pipeline', 'pipeline.ts', 'Pipeline'],
  ['email', 'email.ts', 'E-mail delivery'],
  ['cluster', 'cluster.ts', 'Cluster'],
  ['delivery', 'delivery.ts', 'Delivery import'],
] as const) {
  if (!GROUPS.has(group)) continue;
  rows.push(...(await companionRows(file, name)));
  checkpoint();
}

await stopAll();

const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
const stamp = `${started.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
for (const row of rows) row.measured = `${stamp.slice(0, 10)}, ${commit}`;
const header =
  `The latest run: ${stamp} at commit ${commit}${process.env.BENCH_ONLY ? ` (groups ${[...GROUPS].join(', ')})` : ''} ` +
  `on ${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), load average at the start ${os.loadavg()[0].toFixed(1)}; ` +
  `${ROUNDS} alternating rounds of ${SECONDS} s per side; medians with (min-max) of the rounds; ratio = ours / ` +
  `baseline per round. PostgreSQL ${(await serverVersion()).split(' ')[1]}, Node ${process.version}. Each row ` +
  'gives the date and commit it was last measured at: a run of some groups (BENCH_ONLY) replaces only their rows.';

const file = path.join(ROOT, 'docs/performance.md');
const text = fs.readFileSync(file, 'utf8');
const begin = '<!-- bench:begin -->';
const end = '<!-- bench:end -->';
if (!text.includes(begin) || !text.includes(end)) throw new Error(`${file} has no ${begin} ... ${end} section`);
const previous = parseTable(text.slice(text.indexOf(begin), text.indexOf(end)));
const table = mergeRows(previous, rows, !process.env.BENCH_ONLY);
const notes = table.filter((r) => r.note).map((r) => `- ${r.name}: ${r.note}`);
const section = [header, '', markdownTable(table), ...(notes.length ? ['', ...notes] : [])].join('\n');
console.log(`\n${section}\n`);

if (WRITE) {
  const before = text.slice(0, text.indexOf(begin) + begin.length);
  const after = text.slice(text.indexOf(end));
  fs.writeFileSync(file, `${before}\n${section}\n${after}`);
  say(`table written to docs/performance.md`);
}

// Last, where they are seen: the rows that got worse by more than a quarter since the table's previous figure.
const worse = regressions(previous, rows);
for (const r of worse) {
  say(
    `WARNING: regression of ${(r.share * 100).toFixed(0)}%: ${r.name}: ${r.current} against ${r.previous}` +
      `${r.measured ? ` (${r.measured})` : ''}${QUICK ? ' (a quick run: fewer, shorter rounds)' : ''}`,
  );
}
if (!worse.length) say(`no row regressed by more than ${REGRESSION_SHARE * 100}% from the previous table`);
// A group that timed out may still hold timers, sockets or servers of its own: the run is over all the same.
if (groupTimedOut) process.exit(0);

function checkpoint(): void {
  fs.mkdirSync(WORK, { recursive: true });
  fs.writeFileSync(CHECKPOINT, `${JSON.stringify({ started: started.toISOString(), rows }, null, 2)}\n`);
}

async function serverVersion(): Promise<string> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    return (await client.query<{ version: string }>('select version()')).rows[0].version;
  } finally {
    await client.end();
  }
}
