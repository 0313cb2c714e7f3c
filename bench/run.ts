/**
 * `npm run bench`: the product against bare baselines doing the same work, measured from outside over HTTP
 * in the same run, alternating (ours, baseline, baseline, ours, ...) for several rounds, so that the noise
 * of a shared machine falls on both sides alike. Prints a markdown table (ours, baseline, ratio, goal, met)
 * and writes it into docs/performance.md.
 *
 *   npm run bench:data                       builds the databases first (bench/data.ts; kept between runs)
 *   npm run bench                            every row: 5 rounds of 10 s at 50 connections
 *   BENCH_QUICK=1 npm run bench              2 rounds of 3 s, 20,000 contracts only; docs not written
 *   BENCH_ONLY=api,search,pglite,client,billing,reports,inventory,email,cluster,delivery   some groups only
 *   BENCH_ROUNDS, BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_WRITE=0|1, BENCH_PG_URL
 *
 * Servers (each its own process): ours = the compiled server (dist/server/main.js, NODE_ENV=production)
 * on PostgreSQL or PGlite; bench/baselines/bare-me.ts (node:http + pg), bench/baselines/bare-api.ts
 * (Fastify + pg, the product's SQL), bench/baselines/template-server.ts (the bare Vite + React template).
 * Group `cluster` (bench/cluster.ts): two instances of the compiled server behind HAProxy, 50 simulated users.
 * Group `delivery` (bench/delivery.ts): the delivery CSV import of 50,000 rows, in process, on its own database.
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
  (process.env.BENCH_ONLY ?? 'api,search,pglite,client,billing,reports,inventory,email,cluster,delivery')
    .split(',')
    .map((g) => g.trim()),
);
const SMALL = 20_000;
const LARGE = 200_000;
const WORK = path.join(ROOT, 'dist/bench');
const LOGS = path.join(WORK, 'logs');
const PORTS = { ours: 3181, bareMe: 3182, bareApi: 3183, oursPglite: 3184, oursLarge: 3185, template: 3186 };
const SEARCH = 'campaign 12';
const BENCH_PUBLIC_URL = 'https://crm.bench.test';
const SIGNED_IN_GOAL_KB = 170;

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

async function pgliteAdminToken(dataDir: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const database = await openDatabase({ dataDir });
  try {
    await database.migrate();
    await database.db.execute(
      `insert into sessions (token_hash, user_id, expires_at)
       select '${hashToken(token)}', id, now() + interval '1 day' from users where email = '${benchUsers.admin.email}'`,
    );
  } finally {
    await database.close();
  }
  return token;
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

async function measurePairs(pairs: Pair[]): Promise<BenchRow[]> {
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
    const errors = ours.reduce((n, r) => n + r.errors, 0) + base.reduce((n, r) => n + r.errors, 0);
    const figure = (rs: LoadResult[]) =>
      `${spread(rs.map((r) => r.rps))} req/s, p95 ${spread(rs.map((r) => r.p95))} ms`;
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
  try {
    return await module.bench({ pgUrl: PG_URL, rounds: ROUNDS, quick: QUICK, seed: SEED });
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
        base: bare(PORTS.bareApi, 'Fastify + pg, same 13 statements', '/api/contracts', {
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

if (GROUPS.has('search')) {
  const q = encodeURIComponent(SEARCH);
  const pairs: Pair[] = [
    {
      key: 'search',
      name: `Contract search (q=${SEARCH}) vs the plain list, 20,000 contracts`,
      ours: ours(`/api/contracts?q=${q}&limit=50`),
      base: ours('/api/contracts?limit=50', { label: 'our plain list' }),
      connections: CONNECTIONS,
      goal: '>= 0.5 of the list',
      check: (ratio) => ratio >= 0.5,
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
    const large = (pathAndQuery: string, label: string): Target => ({
      label,
      url: `http://127.0.0.1:${PORTS.oursLarge}${pathAndQuery}`,
      token: largeToken,
    });
    pairs.push({
      key: 'search-200k',
      name: `Contract search (q=${SEARCH}) vs the plain list, 200,000 contracts`,
      ours: large(`/api/contracts?q=${q}&limit=50`, 'ours'),
      base: large('/api/contracts?limit=50', 'our plain list'),
      connections: CONNECTIONS,
      goal: '>= 0.5 of the list, p95 < 50 ms',
      check: (ratio, results) => ratio >= 0.5 && p95Under(50)(results),
    });
  }
  rows.push(...(await measurePairs(pairs)));
}

if (GROUPS.has('pglite')) {
  const pgliteToken = await pgliteAdminToken(pgliteDir(SMALL));
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
}

if (GROUPS.has('client')) rows.push(...(await clientRows(token)));
if (GROUPS.has('billing')) rows.push(...(await companionRows('billing-floor.ts', 'Billing run')));
if (GROUPS.has('reports')) rows.push(...(await companionRows('reports.ts', 'Reports')));
if (GROUPS.has('inventory')) rows.push(...(await companionRows('inventory.ts', 'Inventory')));
if (GROUPS.has('email')) rows.push(...(await companionRows('email.ts', 'E-mail delivery')));
if (GROUPS.has('cluster')) rows.push(...(await companionRows('cluster.ts', 'Cluster')));
if (GROUPS.has('delivery')) rows.push(...(await companionRows('delivery.ts', 'Delivery import')));

await stopAll();

const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
const header =
  `Measured ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC at commit ${commit} on ${os.cpus().length} ` +
  `cores (${os.cpus()[0]?.model.trim()}), load average at the start ${os.loadavg()[0].toFixed(1)}; ` +
  `${ROUNDS} alternating rounds of ${SECONDS} s per side; medians with (min-max) of the rounds; ratio = ours / ` +
  `baseline per round. PostgreSQL ${(await serverVersion()).split(' ')[1]}, Node ${process.version}.`;
const notes = rows.filter((r) => r.note).map((r) => `- ${r.name}: ${r.note}`);
const table = [header, '', markdownTable(rows), ...(notes.length ? ['', ...notes] : [])].join('\n');
console.log(`\n${table}\n`);

if (WRITE) {
  const file = path.join(ROOT, 'docs/performance.md');
  const text = fs.readFileSync(file, 'utf8');
  const begin = '<!-- bench:begin -->';
  const end = '<!-- bench:end -->';
  if (!text.includes(begin) || !text.includes(end)) throw new Error(`${file} has no ${begin} ... ${end} section`);
  const before = text.slice(0, text.indexOf(begin) + begin.length);
  const after = text.slice(text.indexOf(end));
  fs.writeFileSync(file, `${before}\n${table}\n${after}`);
  say(`table written to docs/performance.md`);
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
