/**
 * A mixed workload through the load balancer on two instances (issue item 5: 50 simulated users for 60 s,
 * p95 < 300 ms, zero errors). Two processes of the compiled server (dist/server/main.js, NODE_ENV=production,
 * TRUST_PROXY=1, PUBLIC_URL the balancer's) on the 20,000-contract bench database, behind HAProxy as the
 * multi-instance test runs it (server/test/cluster/haproxy.ts: round robin, health checks, reads retried).
 *
 * Each simulated user is its own keep-alive connection from its own loopback address (127.0.1.x), as users
 * on their own machines are: the balancer forwards that address (X-Forwarded-For), which the sign-in throttle
 * counts per address. Every user signs in (POST /api/auth/login with the bench data's staff accounts, 22 of
 * them, shared round robin), then, with no think time, loops over a mix of what the screens ask for: the
 * signed-in user, contract lists and searches, a contract's page, customers, invoices, the dashboard's
 * figures, and about 10% writes (a draft contract with two lines). A 3-second warm-up is not timed. Every
 * answer is recorded: anything but 2xx, a network error or a 30-second timeout is an error (of the warm-up
 * and sign-in too); requests per second and the percentiles are over the 2xx answers of the timed window, as
 * bench/lib/load.ts counts (sign-ins are reported apart). The balancer's output goes to
 * dist/bench/logs/cluster-haproxy.log, the instances' to cluster-1.log and cluster-2.log. The drafts created,
 * their audit entries, the sessions and the sign-in records are removed at the end, so the database is as
 * before (an interrupted run's drafts and sessions are removed by the next run, before it starts). The
 * instances' start-up jobs are let finish before the timed window; those that run in it are named in the note.
 *
 *   npx tsx bench/cluster.ts        50 users for 60 s (BENCH_QUICK=1: 10 s); builds the server if missing
 *   BENCH_CLUSTER_USERS, BENCH_CLUSTER_SECONDS   other numbers of users and seconds
 *   BENCH_CLUSTER_CONTRACTS                      another bench database's volume (default 20000)
 *
 * Entry point for `npm run bench` (bench/run.ts, group `cluster`): `bench(context)`.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import pg from 'pg';
import { type Balancer, freePort, startHaproxy } from '../server/test/cluster/haproxy';
import { BENCH_PASSWORD, benchDatabaseName, GENERATOR_VERSION, PG_URL, SEED } from './data';
import type { BenchContext, BenchRow } from './lib/table';
import { percentile } from './reports';

const ROOT = path.resolve(import.meta.dirname, '..');
const SERVER = path.join(ROOT, 'dist/server/main.js');
const LOGS = path.join(ROOT, 'dist/bench/logs');
const CONTRACTS = Number(process.env.BENCH_CLUSTER_CONTRACTS ?? 20_000);
const GOAL_P95_MS = 300;
const WARM_UP_SECONDS = 3;
const REQUEST_TIMEOUT_MS = 30_000;
const DRAFT_DESCRIPTION = 'Bench cluster draft';
const USER_AGENT = 'adcrm-bench-cluster';
const say = (text: string) => console.error(`[cluster] ${text}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------------------
// The app instances
// ---------------------------------------------------------------------------------------------------------

const children = new Set<ChildProcess>();
/** The balancer while it runs: on an early exit, stop() sends its SIGTERM at once. */
let activeBalancer: Balancer | undefined;
const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;
process.on('exit', () => {
  for (const child of children) if (running(child)) child.kill('SIGKILL');
  void activeBalancer?.stop();
});

/** `node dist/server/main.js` configured as a deployed instance behind the balancer; resolves once it answers. */
async function startInstance(name: string, port: number, databaseUrl: string, publicUrl: string) {
  fs.mkdirSync(LOGS, { recursive: true });
  const log = fs.openSync(path.join(LOGS, `${name}.log`), 'w');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    HOST: '127.0.0.1',
    PORT: String(port),
    TRUST_PROXY: '1',
    PUBLIC_URL: publicUrl,
    LOG_LEVEL: 'warn',
  };
  const child = spawn(process.execPath, ['--enable-source-maps', SERVER], {
    cwd: ROOT,
    env,
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  children.add(child);
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (!running(child)) throw new Error(`${name} exited (${child.exitCode}); see ${LOGS}/${name}.log`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.status === 200) return child;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  throw new Error(`${name} did not start within 180 s; see ${LOGS}/${name}.log`);
}

/** SIGTERM (a graceful stop), then SIGKILL for one still running after 15 s. */
async function stopInstances(list: ChildProcess[]): Promise<void> {
  const alive = list.filter(running);
  for (const child of alive) child.kill('SIGTERM');
  const deadline = Date.now() + 15_000;
  while (alive.some(running) && Date.now() < deadline) await sleep(100);
  for (const child of alive) if (running(child)) child.kill('SIGKILL');
  for (const child of list) children.delete(child);
}

/**
 * Waits until the instances' start-up jobs (server/jobs.ts: each queued when an instance starts) are done,
 * then until nothing runs on the database for 3 s, as bench/run.ts does: no job running in pg-boss's queue
 * or due before `horizonSeconds` from now (a failed job's retry), no active statement; at most 5 minutes.
 * A job the schedule starts in the timed window still runs in it: the row's note names it (jobsDuring).
 */
async function settle(client: pg.Client, horizonSeconds: number): Promise<void> {
  let quiet = 0;
  const deadline = Date.now() + 300_000;
  while (quiet < 6 && Date.now() < deadline) {
    const { rows } = await client.query<{ n: number }>(
      `select (select count(*) from pg_stat_activity
               where datname = current_database() and state = 'active' and pid <> pg_backend_pid())::int
            + (select count(*) from pgboss.job
               where state = 'active'
                  or (state in ('created', 'retry') and start_after <= now() + $1 * interval '1 second'))::int as n`,
      [horizonSeconds],
    );
    quiet = rows[0].n === 0 ? quiet + 1 : 0;
    await sleep(500);
  }
}

/** The background jobs that ran during [from, to], e.g. "dunning (failed: Maximum call stack size exceeded)". */
async function jobsDuring(client: pg.Client, from: Date, to: Date): Promise<string[]> {
  const { rows } = await client.query<{ name: string; state: string; message: string | null }>(
    `select name, state, output->>'message' as message from pgboss.job
     where name not like '\\_\\_pgboss%' and started_on < $2
       and (state = 'active' or started_on >= $1 or completed_on > $1)
     order by started_on`,
    [from, to],
  );
  return rows.map((row) => `${row.name} (${row.state}${row.message ? `: ${row.message}` : ''})`);
}

// ---------------------------------------------------------------------------------------------------------
// The simulated users
// ---------------------------------------------------------------------------------------------------------

type Answer = { status: number; ms: number; body: Buffer | null; error?: string };

/** One user: a keep-alive connection of its own from its own loopback address, as a browser holds one. */
type User = {
  n: number;
  email: string;
  address: string;
  agent: http.Agent;
  token: string;
  /** Contracts this user may open (a sales rep: their own). */
  contractIds: string[];
  random: () => number;
};

/** mulberry32: the same sequence of requests for the same seed. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 127.0.1.1, 127.0.1.2, ...: every address of 127.0.0.0/8 is the loopback interface on Linux. */
const addressOf = (n: number) => `127.0.${1 + Math.floor(n / 250)}.${1 + (n % 250)}`;

function decode(body: Buffer, encoding: string | undefined): Buffer {
  if (encoding === 'br') return zlib.brotliDecompressSync(body);
  if (encoding === 'gzip') return zlib.gunzipSync(body);
  if (encoding === 'deflate') return zlib.inflateSync(body);
  return body;
}

/**
 * One request through the balancer with the headers the web client sends (api-client.ts: the bearer token,
 * JSON bodies; the browser adds Origin to a POST and accepts compressed answers). The time is until the
 * last byte; the body is kept (decoded) only when asked for.
 */
function send(
  balancer: Balancer,
  user: User,
  method: string,
  pathAndQuery: string,
  options: { body?: unknown; keepBody?: boolean } = {},
): Promise<Answer> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string> = {
    accept: 'application/json',
    'accept-encoding': 'gzip, deflate, br',
    'user-agent': USER_AGENT,
  };
  if (user.token) headers.authorization = `Bearer ${user.token}`;
  if (method !== 'GET') headers.origin = balancer.url;
  if (payload !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(payload));
  }
  const started = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    const finish = (answer: Omit<Answer, 'ms'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...answer, ms: performance.now() - started });
    };
    const request = http.request(
      {
        host: '127.0.0.1',
        port: balancer.port,
        method,
        path: pathAndQuery,
        headers,
        agent: user.agent,
        localAddress: user.address,
      },
      (response) => {
        const chunks: Buffer[] = [];
        // An error's body is kept too: it says who answered (the app's JSON or the balancer's page).
        const keep = options.keepBody || (response.statusCode ?? 0) >= 300;
        response.on('data', (chunk: Buffer) => {
          if (keep) chunks.push(chunk);
        });
        response.on('end', () => {
          let body: Buffer | null = null;
          let error: string | undefined;
          if (keep) {
            try {
              body = decode(Buffer.concat(chunks), response.headers['content-encoding']);
            } catch (e) {
              error = `undecodable body: ${(e as Error).message}`;
            }
          }
          finish({ status: response.statusCode ?? 0, body, error });
        });
        response.on('error', (e) => finish({ status: 0, body: null, error: e.message }));
      },
    );
    request.setTimeout(REQUEST_TIMEOUT_MS, () => request.destroy(new Error(`no answer in ${REQUEST_TIMEOUT_MS} ms`)));
    request.on('error', (e) => finish({ status: 0, body: null, error: e.message }));
    request.end(payload);
  });
}

/** Every answer by route: the times of the timed window's 2xx answers, the errors of the whole run. */
class Recorder {
  timing = false;
  readonly times = new Map<string, number[]>();
  readonly errors = new Map<string, number>();
  readonly samples: string[] = [];
  /** 2xx answers in the timed window; every answer in it. */
  count = 0;
  answered = 0;
  windowErrors = 0;

  record(route: string, answer: Answer): boolean {
    const ok = answer.status >= 200 && answer.status < 300 && !answer.error;
    if (!ok) {
      const key = `${route} ${answer.status || answer.error}`;
      this.errors.set(key, (this.errors.get(key) ?? 0) + 1);
      if (this.samples.length < 5) {
        const text = answer.body?.toString('utf8').replace(/\s+/g, ' ').slice(0, 160) ?? '';
        this.samples.push(`${route}: ${answer.status || ''} ${answer.error ?? ''} ${text}`.trim());
      }
    }
    if (!this.timing) return ok;
    this.answered++;
    if (!ok) this.windowErrors++;
    // As bench/lib/load.ts counts: an error is not a request served (a balancer's instant 503 is no latency).
    if (ok) {
      this.count++;
      const list = this.times.get(route) ?? [];
      list.push(answer.ms);
      this.times.set(route, list);
    }
    return ok;
  }

  get errorCount(): number {
    return [...this.errors.values()].reduce((sum, n) => sum + n, 0);
  }
}

type Fixtures = { customerIds: string[]; productIds: string[]; searches: string[] };

/** A draft as the contract form sends it (shared/contracts/contract-api.ts): two lines, amounts in dollars. */
function draftBody(user: User, fixtures: Fixtures) {
  return {
    customerId: pick(user, fixtures.customerIds),
    description: DRAFT_DESCRIPTION,
    startDate: '2026-02-01',
    termMonths: 12,
    paymentMode: user.random() < 0.5 ? 'pay_link' : 'portal',
    setupFee: 150,
    lineItems: [
      { productId: fixtures.productIds[0], quantity: 2, unitPrice: 500, discount: 0 },
      { productId: fixtures.productIds[1], quantity: 1, unitPrice: 800, discount: 50 },
    ],
  };
}

/** The mix, in shares of 100: what the contract, customer, invoice and dashboard screens ask for. */
const MIX: { route: string; share: number; path: (user: User, fixtures: Fixtures) => string; write?: true }[] = [
  { route: 'GET /api/auth/me', share: 15, path: () => '/api/auth/me' },
  {
    route: 'GET /api/contracts?limit=25',
    share: 20,
    path: (user) => `/api/contracts?limit=25&offset=${25 * Math.floor(user.random() * 4)}`,
  },
  {
    route: 'GET /api/contracts?q=...',
    share: 8,
    path: (user, fixtures) => `/api/contracts?q=${encodeURIComponent(pick(user, fixtures.searches))}&limit=25`,
  },
  { route: 'GET /api/contracts/:id', share: 15, path: (user) => `/api/contracts/${pick(user, user.contractIds)}` },
  { route: 'GET /api/customers?limit=25', share: 10, path: () => '/api/customers?limit=25' },
  { route: 'GET /api/invoices?limit=25', share: 10, path: () => '/api/invoices?limit=25' },
  { route: 'GET /api/dashboard/stats', share: 12, path: () => '/api/dashboard/stats' },
  { route: 'POST /api/contracts (draft)', share: 10, path: () => '/api/contracts', write: true },
];

function pick<T>(user: User, list: T[]): T {
  return list[Math.floor(user.random() * list.length)];
}

/** One request of the mix; a created draft's id goes into `created`, to be removed at the end. */
async function step(balancer: Balancer, user: User, fixtures: Fixtures, recorder: Recorder, created: string[]) {
  let roll = user.random() * 100;
  const entry =
    MIX.find((candidate) => {
      roll -= candidate.share;
      return roll < 0;
    }) ?? MIX[0];
  if (!entry.write) {
    recorder.record(entry.route, await send(balancer, user, 'GET', entry.path(user, fixtures)));
    return;
  }
  const answer = await send(balancer, user, 'POST', entry.path(user, fixtures), {
    body: draftBody(user, fixtures),
    keepBody: true,
  });
  if (answer.status === 201 && answer.body) {
    try {
      created.push((JSON.parse(answer.body.toString('utf8')) as { id: string }).id);
    } catch {
      answer.error = 'the created contract came back without an id';
    }
  }
  recorder.record(entry.route, answer);
}

// ---------------------------------------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------------------------------------

const notMeasured = (name: string, why: string): BenchRow => ({
  name,
  ours: `not measured: ${why}`,
  baseline: '—',
  ratio: '—',
  goal: `p95 < ${GOAL_P95_MS} ms, zero errors`,
  met: null,
});

function databaseUrl(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drafts by id, with their audit entries (their lines go with them). */
async function removeDrafts(db: pg.Client, ids: string[]): Promise<void> {
  if (!ids.length) return;
  await db.query(`delete from audit_events where entity = 'contract' and entity_id = any($1::text[])`, [ids]);
  await db.query('delete from contracts where id = any($1::uuid[])', [ids]);
}

/** `npm run bench`'s row: requests per second, p95 and errors of the mixed workload through HAProxy. */
export async function bench(context: BenchContext): Promise<BenchRow[]> {
  const users = Number(process.env.BENCH_CLUSTER_USERS ?? 50);
  const seconds = Number(process.env.BENCH_CLUSTER_SECONDS ?? (context.quick ? 10 : 60));
  const volume = CONTRACTS.toLocaleString('en-US');
  const name = `Mixed workload, ${users} users, ${seconds} s, through HAProxy on two instances (${volume} contracts)`;
  const database = benchDatabaseName(CONTRACTS);
  // Debian's HAProxy, installed on a fresh machine as the multi-instance test installs it.
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/ensure-haproxy.mjs')], { stdio: 'inherit' });

  const admin = new pg.Client({ connectionString: context.pgUrl });
  await admin.connect();
  let comment: string | null | undefined;
  try {
    const { rows } = await admin.query<{ comment: string | null }>(
      'select shobj_description(oid, $2) as comment from pg_database where datname = $1',
      [database, 'pg_database'],
    );
    comment = rows[0]?.comment;
  } finally {
    await admin.end();
  }
  if (comment !== `adcrm bench v${GENERATOR_VERSION} seed=${context.seed} contracts=${CONTRACTS} complete`) {
    say(`${database} is missing or incomplete`);
    return [notMeasured(name, 'run npm run bench:data')];
  }
  if (!fs.existsSync(SERVER)) return [notMeasured(name, 'dist/server/main.js is missing (npm run build)')];

  const url = databaseUrl(context.pgUrl, database);
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const instances: ChildProcess[] = [];
  let balancer: Balancer | undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'adcrm-cluster-'));
  const simulated: User[] = [];
  const created: string[] = [];
  const started = new Date();
  try {
    // What an interrupted run left (its drafts, its sessions) goes first.
    const leftover = (
      await db.query<{ id: string }>('select id::text from contracts where description = $1', [DRAFT_DESCRIPTION])
    ).rows.map((row) => row.id);
    await removeDrafts(db, leftover);
    await db.query('delete from sessions where user_agent = $1', [USER_AGENT]);

    // The staff accounts bench/data.ts creates, the contracts each may open, what drafts are made of.
    const staff = (
      await db.query<{ email: string; ids: string[] }>(
        `select u.email,
                array(select c.id::text from contracts c
                      where u.role <> 'sales' or c.sales_rep_id = u.id
                      order by md5(c.id::text) limit 50) as ids
         from users u
         where u.email like 'bench-%@example.test' and u.is_active and u.role in ('admin', 'sales_manager', 'sales')
         order by u.created_at, u.email`,
      )
    ).rows.filter((row) => row.ids.length > 0);
    const fixtures: Fixtures = {
      customerIds: (await db.query<{ id: string }>('select id from customers order by id limit 200')).rows.map(
        (r) => r.id,
      ),
      productIds: (
        await db.query<{ id: string }>(
          'select id from products where is_active and not inventory_required order by id limit 2',
        )
      ).rows.map((r) => r.id),
      searches: ['campaign 12', 'Spring', 'Customer 42', 'Holiday campaign', 'Contract 35', 'video'],
    };
    if (staff.length === 0 || fixtures.productIds.length < 2 || fixtures.customerIds.length === 0) {
      return [notMeasured(name, `${database} has no bench staff, products or customers (npm run bench:data)`)];
    }

    // The balancer's port first: it is the instances' PUBLIC_URL.
    const balancerPort = await freePort();
    const publicUrl = `http://127.0.0.1:${balancerPort}`;
    const ports = [await freePort(), await freePort()];
    say(`starting two instances (ports ${ports.join(', ')}) on ${database}...`);
    const starting = ports.map((port, i) => startInstance(`cluster-${i + 1}`, port, url, publicUrl));
    const results = await Promise.allSettled(starting);
    for (const result of results) if (result.status === 'fulfilled') instances.push(result.value);
    const failed = results.find((result) => result.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    balancer = await startHaproxy({
      port: balancerPort,
      servers: ports.map((port, i) => ({ name: `app${i + 1}`, port })),
      dir,
    });
    activeBalancer = balancer;
    await settle(db, WARM_UP_SECONDS + seconds + 30);

    for (let n = 0; n < users; n++) {
      const account = staff[n % staff.length];
      const address = addressOf(n);
      simulated.push({
        n,
        email: account.email,
        address,
        agent: new http.Agent({ keepAlive: true, maxSockets: 1, localAddress: address }),
        token: '',
        contractIds: account.ids,
        random: generator(context.seed * 100_003 + n),
      });
    }

    // Sign-in: every user at once, as at the start of a working day.
    const recorder = new Recorder();
    const signIns: number[] = [];
    say(`${users} users signing in through ${balancer.url}...`);
    await Promise.all(
      simulated.map(async (user) => {
        const answer = await send(balancer!, user, 'POST', '/api/auth/login', {
          body: { email: user.email, password: BENCH_PASSWORD },
          keepBody: true,
        });
        signIns.push(answer.ms);
        if (recorder.record('POST /api/auth/login', answer) && answer.body) {
          user.token = (JSON.parse(answer.body.toString('utf8')) as { token: string }).token;
        }
      }),
    );
    const signedIn = simulated.filter((user) => user.token);
    if (signedIn.length === 0) throw new Error(`no user could sign in: ${recorder.samples.join('; ')}`);

    const loop = async (user: User, until: number) => {
      while (performance.now() < until) await step(balancer!, user, fixtures, recorder, created);
    };
    say(`warming up for ${WARM_UP_SECONDS} s...`);
    const warmUntil = performance.now() + WARM_UP_SECONDS * 1000;
    await Promise.all(signedIn.map((user) => loop(user, warmUntil)));

    say(`${signedIn.length} users for ${seconds} s...`);
    recorder.timing = true;
    const windowStart = new Date();
    const from = performance.now();
    await Promise.all(signedIn.map((user) => loop(user, from + seconds * 1000)));
    const elapsed = (performance.now() - from) / 1000;
    recorder.timing = false;
    const background = await jobsDuring(db, windowStart, new Date());

    // Figures.
    const all = [...recorder.times.values()].flat().sort((a, b) => a - b);
    const at = (list: number[], p: number) => (list.length ? percentile(list, p) : Number.NaN);
    const p50 = at(all, 50);
    const p95 = at(all, 95);
    const p99 = at(all, 99);
    const rps = recorder.count / elapsed;
    const errors = recorder.errorCount;
    const byRoute = [...recorder.times.entries()]
      .map(([route, list]) => {
        const sorted = [...list].sort((a, b) => a - b);
        return { route, n: sorted.length, p50: at(sorted, 50), p95: at(sorted, 95) };
      })
      .sort((a, b) => b.p95 - a.p95);
    const writes = recorder.times.get('POST /api/contracts (draft)')?.length ?? 0;
    const signInSorted = [...signIns].sort((a, b) => a - b);
    const ms = (value: number) => `${value.toFixed(0)} ms`;
    say(
      `${recorder.count} requests served (${recorder.answered} answered) in ${elapsed.toFixed(1)} s: ${rps.toFixed(0)} req/s, p50 ${ms(p50)}, p95 ${ms(p95)}, ` +
        `p99 ${ms(p99)}, ${errors} errors`,
    );
    for (const r of byRoute)
      say(`  ${r.route.padEnd(32)} ${String(r.n).padStart(6)}  p50 ${ms(r.p50)}  p95 ${ms(r.p95)}`);
    say(`  sign-in: ${signIns.length} at once, p50 ${ms(at(signInSorted, 50))}, p95 ${ms(at(signInSorted, 95))}`);
    if (errors) say(`  errors: ${[...recorder.errors].map(([key, n]) => `${key} x${n}`).join(', ')}`);

    // What the balancer saw: instances taken out of rotation by failed health checks.
    const haproxyLog = balancer.output();
    fs.writeFileSync(path.join(LOGS, 'cluster-haproxy.log'), haproxyLog);
    const downs = haproxyLog.match(/Server app\/\S+ is DOWN/g)?.length ?? 0;
    const noServer = haproxyLog.match(/has no server available/g)?.length ?? 0;
    if (downs) say(`  HAProxy: ${downs} times an instance marked DOWN, ${noServer} times none available`);
    if (background.length) say(`  background jobs during the window: ${background.join(', ')}`);

    const slowest = byRoute[0];
    const errorText = errors
      ? `${recorder.windowErrors} errors in the timed window, ${errors - recorder.windowErrors} in the sign-in and warm-up: ${[...recorder.errors].map(([key, n]) => `${key} x${n}`).join(', ')}; first: ${recorder.samples.join(' | ')}; `
      : '';
    return [
      {
        name,
        ours: `${rps.toLocaleString('en-US', { maximumFractionDigits: 0 })} req/s, p95 ${p95.toFixed(0)} ms, ${errors} errors`,
        baseline: '—',
        ratio: '—',
        goal: `p95 < ${GOAL_P95_MS} ms, zero errors`,
        met: p95 < GOAL_P95_MS && errors === 0,
        note:
          `${errorText}${recorder.count.toLocaleString('en-US')} requests served of ${recorder.answered.toLocaleString('en-US')} answered (${((100 * writes) / Math.max(1, recorder.count)).toFixed(0)}% draft creates), ` +
          `p50 ${ms(p50)}, p99 ${ms(p99)}; slowest: ${slowest ? `${slowest.route} p95 ${ms(slowest.p95)}` : '—'}; ` +
          `sign-in of all ${signIns.length} at once p95 ${ms(at(signInSorted, 95))} (not in the percentiles); ` +
          (downs ? `HAProxy marked an instance DOWN ${downs} times (none available ${noServer} times); ` : '') +
          (background.length ? `background jobs during the window: ${background.join(', ')}; ` : '') +
          `each user its own keep-alive connection and loopback address, no think time, ${staff.length} staff accounts shared; ` +
          'HAProxy round robin (http-server-close), load generator on the same 2 cores',
      },
    ];
  } finally {
    // Sessions end as a user signing out ends them; the rest is removed by id.
    if (balancer) {
      await Promise.all(
        simulated
          .filter((user) => user.token)
          .map((user) => send(balancer!, user, 'POST', '/api/auth/logout').catch(() => undefined)),
      );
      await balancer.stop();
      activeBalancer = undefined;
    }
    await stopInstances(instances);
    for (const user of simulated) user.agent.destroy();
    try {
      await removeDrafts(db, created);
      if (simulated.length) {
        await db.query('delete from login_attempts where ip = any($1::text[]) and created_at >= $2', [
          simulated.map((user) => user.address),
          started,
        ]);
      }
      say(`removed the ${created.length} drafts created`);
    } finally {
      await db.end();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
  if (!fs.existsSync(SERVER)) {
    say('dist/server/main.js is missing: npm run build...');
    execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  }
  const rows = await bench({ pgUrl: PG_URL, rounds: 1, quick: process.env.BENCH_QUICK === '1', seed: SEED });
  for (const row of rows) {
    const mark = row.met === null ? '--  ' : row.met ? 'ok  ' : 'SLOW';
    console.log(`${mark} ${row.name}: ${row.ours} (${row.goal})${row.note ? `\n     ${row.note}` : ''}`);
  }
}
