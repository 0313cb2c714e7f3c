import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { Contract } from '@shared/contracts/contract-responses';
import type { Creative } from '@shared/contracts/creatives';
import type { Invoice } from '@shared/contracts/invoices';
import pg from 'pg';
import { afterAll, beforeAll, expect, it, onTestFailed } from 'vitest';
import { onlyOn } from '../engine';
import { adminQuery, withDatabase } from '../global-setup';
import { type SmtpCatcher, startSmtp } from '../smtp';
import { multipartBody, pdf } from '../upload-fixtures';
import { type Balancer, freePort, startHaproxy } from './haproxy';

/**
 * Several instances on one machine (product.md section 9): PostgreSQL, an S3-protocol server (s3rver), an SMTP
 * sink and HAProxy in front of three app processes. A mixed workload goes through the balancer (sign-ins,
 * contracts, manual and card payments, uploads); one instance is killed with SIGKILL half way; then an
 * operator starts a replacement, whose start-up billing run catches up. Afterwards nothing acknowledged is lost
 * or doubled: contracts, payments, invoices (one per contract and period, numbers without gaps), e-mails (each
 * outbox message received once), uploads (readable with the same bytes through every instance still up), and
 * the instances still up took over the background work.
 *
 * A request the balancer could not complete (a 502: the instance died while handling it) has an unknown
 * outcome: the test never assumes it was or was not applied, it only checks that whatever was applied is
 * there once. A manual payment of the full amount due is safe to send again (a second one is refused with
 * 409: the invoice is paid), so the finance user retries it; other writes are not retried.
 *
 * E-mail is at least once across a crash: a message the killed instance handed to the SMTP server but had not
 * yet marked sent (it marks each one as soon as the server accepts it) is sent again by another instance when
 * its lease ends, with the same Message-ID. The test allows exactly that repeat (first copy before the kill,
 * second after the lease, at most one per SMTP connection of the dead instance) and no other.
 */

const ROOT = path.resolve(import.meta.dirname, '../../..');
const ADMIN = { email: 'cluster-admin@example.test', password: 'cluster-admin-1' };
const PASSWORD = 'cluster-pass-1';
const REPS = 2;
const CONTRACTS_PER_REP = 6;
const DRAFTS_PER_REP = 2;
const CUSTOMERS = 3;
/** The kill: right after this many contracts were acknowledged (half of them). */
const KILL_AFTER = (REPS * CONTRACTS_PER_REP) / 2;
const S3_CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' };
const BUCKET = 'creatives';
/** The instances' e-mail lease (OUTBOX_LEASE_SECONDS), and the SMTP connections one instance keeps (lib/mailer.ts). */
const LEASE_SECONDS = 3;
/** The instances' background-job lease (JOB_LEASE_SECONDS). */
const JOB_LEASE_SECONDS = 6;
const SMTP_CONNECTIONS = 10;
/**
 * The SMTP sink runs in this process and stamps a message when it has parsed it: a message the killed instance
 * had written to its socket before it died can be stamped a little after the kill (6 ms was seen). Far below
 * the lease, so a copy sent again after the lease is never mistaken for it.
 */
const SINK_LAG_MS = 1_000;
/** How long the outbox may take to empty: a minute to the next cron tick, 30 s to pg-boss's check, and slack. */
const DRAIN_MS = 150_000;

// ---------------------------------------------------------------------------------------------------------
// Processes
// ---------------------------------------------------------------------------------------------------------

type Instance = {
  name: string;
  port: number;
  url: string;
  child: ChildProcess;
  output: () => string;
  exited: Promise<void>;
  alive: () => boolean;
};

/** Starts `node --import tsx server/test/cluster/serve.ts` and resolves once it says "UP <port>". */
function startInstance(name: string, env: NodeJS.ProcessEnv): Promise<Instance> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/test/cluster/serve.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let alive = true;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      alive = false;
      output += `\n[${name} exited: ${signal ?? code}]`;
      resolve();
    }),
  );
  return new Promise((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => reject(new Error(`instance ${name} did not come up:\n${output}`)), 60_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk;
      stdout += chunk;
      const up = /^UP (\d+)$/m.exec(stdout);
      if (up) {
        clearTimeout(timer);
        stdout = '';
        const port = Number(up[1]);
        resolve({
          name,
          port,
          url: `http://127.0.0.1:${port}`,
          child,
          output: () => output,
          exited,
          alive: () => alive,
        });
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk;
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`instance ${name} exited before coming up:\n${output}`));
    });
  });
}

async function stopInstance(instance: Instance): Promise<void> {
  if (!instance.alive()) return;
  instance.child.kill('SIGTERM');
  const killer = setTimeout(() => instance.child.kill('SIGKILL'), 10_000);
  await instance.exited;
  clearTimeout(killer);
}

type S3rverServer = { run(): Promise<{ port: number }>; close(): Promise<void> };
type S3rverClass = new (options: Record<string, unknown>) => S3rverServer;

// ---------------------------------------------------------------------------------------------------------
// HTTP through the balancer
// ---------------------------------------------------------------------------------------------------------

/** ok: 2xx; lost: no answer from an instance (network error, 502/503/504), outcome unknown; refused: the rest. */
type Outcome<T> =
  | { kind: 'ok'; status: number; body: T; headers: Headers }
  | { kind: 'refused'; status: number; body: string }
  | { kind: 'lost'; reason: string };

type RequestBody = { json?: unknown; multipart?: { payload: Buffer; headers: Record<string, string> } };

async function call<T>(
  base: string,
  method: string,
  url: string,
  token?: string,
  body: RequestBody = {},
): Promise<Outcome<T>> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  let payload: string | Uint8Array<ArrayBuffer> | undefined;
  if (body.json !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body.json);
  } else if (body.multipart) {
    Object.assign(headers, body.multipart.headers);
    payload = Uint8Array.from(body.multipart.payload);
  }
  let response: Response;
  try {
    response = await fetch(`${base}${url}`, {
      method,
      headers,
      body: payload,
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    return { kind: 'lost', reason: error instanceof Error ? `${error.message} ${String(error.cause ?? '')}` : 'error' };
  }
  const text = await response.text().catch((error: Error) => `<body lost: ${error.message}>`);
  if ([502, 503, 504].includes(response.status)) return { kind: 'lost', reason: `${response.status} ${text}` };
  if (!response.ok) return { kind: 'refused', status: response.status, body: text };
  return {
    kind: 'ok',
    status: response.status,
    body: (text ? JSON.parse(text) : null) as T,
    headers: response.headers,
  };
}

/** The body's bytes of a GET (a download), straight from one instance. */
async function download(base: string, url: string, token: string): Promise<{ status: number; bytes: Buffer }> {
  try {
    const response = await fetch(`${base}${url}`, {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(15_000),
    });
    return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
  } catch (error) {
    return { status: 0, bytes: Buffer.from(String(error)) };
  }
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `probe` answers something other than undefined/false; undefined when the time is up. */
async function waitFor<T>(probe: () => Promise<T | undefined | false>, timeoutMs: number): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) return undefined;
    await pause(200);
  }
}

/** A queue one producer fills and one consumer drains, in order. */
class Feed<T> {
  private items: T[] = [];
  private waiting: ((value: IteratorResult<T>) => void) | null = null;
  private closed = false;
  push(item: T) {
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = null;
      resolve({ value: item, done: false });
    } else this.items.push(item);
  }
  close() {
    this.closed = true;
    if (this.waiting) this.waiting({ value: undefined, done: true });
    this.waiting = null;
  }
  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        const item = this.items.shift();
        if (item !== undefined) return Promise.resolve({ value: item, done: false });
        if (this.closed) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => {
          this.waiting = resolve;
        });
      },
    };
  }
}

/** Period starts from `start` (a 1st of a month) up to `today`, both YYYY-MM-DD. */
function periodsDue(start: string, today: string): number {
  const [sy, sm] = start.split('-').map(Number);
  const [ty, tm] = today.split('-').map(Number);
  return (ty - sy) * 12 + (tm - sm) + 1;
}

// ---------------------------------------------------------------------------------------------------------
// The test
// ---------------------------------------------------------------------------------------------------------

// On the api-postgres project only; on the embedded database it shows as skipped, with the reason.
onlyOn('postgres', 'several processes share one database, and the embedded one serves a single process')(
  'three instances behind HAProxy, one killed mid-workload',
  () => {
    const adminUrl = process.env.TEST_DATABASE_URL ?? '';
    const dbName = `adcrm_t_${process.ppid}_${randomBytes(6).toString('hex')}`;
    // Worked out when the suite runs: without TEST_DATABASE_URL (the skipped suite) there is no address.
    let databaseUrl = '';
    let tmp = '';
    const instances: Instance[] = [];
    let balancer: Balancer | undefined;
    let smtp: SmtpCatcher | undefined;
    let s3: S3rverServer | undefined;
    let sql: pg.Client | undefined;
    let baseEnv: NodeJS.ProcessEnv = {};
    /** When each message arrived at the SMTP sink, by Message-ID (for the report of a message received twice). */
    const arrivals = new Map<string, number[]>();

    beforeAll(async () => {
      execFileSync(process.execPath, [path.join(ROOT, 'scripts/ensure-haproxy.mjs')], { stdio: 'inherit' });
      tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'adcrm-cluster-'));
      databaseUrl = withDatabase(adminUrl, dbName);
      await adminQuery(adminUrl, `CREATE DATABASE ${dbName}`);
      smtp = await startSmtp({
        beforeAccept: (mail) => {
          const id = mail.messageId ?? '<none>';
          arrivals.set(id, [...(arrivals.get(id) ?? []), Date.now()]);
        },
      });
      const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;
      const s3Dir = path.join(tmp, 's3');
      fs.mkdirSync(s3Dir);
      s3 = new S3rver({
        port: 0,
        address: '127.0.0.1',
        silent: true,
        directory: s3Dir,
        configureBuckets: [{ name: BUCKET }],
      });
      const { port: s3Port } = await s3.run();
      const balancerPort = await freePort();
      baseEnv = {
        DATABASE_URL: databaseUrl,
        STORAGE_URL: `s3://${BUCKET}?endpoint=http://127.0.0.1:${s3Port}&region=us-east-1&forcePathStyle=true`,
        ...S3_CREDENTIALS,
        SMTP_URL: smtp.url,
        PUBLIC_URL: `http://127.0.0.1:${balancerPort}`,
        TRUST_PROXY: '1',
        OUTBOX_LEASE_SECONDS: String(LEASE_SECONDS),
        // A job the killed instance was running is retried elsewhere within seconds, not after a minute's lease.
        JOB_LEASE_SECONDS: String(JOB_LEASE_SECONDS),
        BUSINESS_TIMEZONE: 'UTC',
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        LOG_LEVEL: 'warn',
      };
      // Three instances at once on the empty database, each with its own DATA_DIR: nothing may be shared
      // through a local folder.
      const started = await Promise.all(
        ['a', 'b', 'c'].map((name) => {
          const dataDir = path.join(tmp, `data-${name}`);
          fs.mkdirSync(dataDir);
          return startInstance(name, { ...baseEnv, DATA_DIR: dataDir, PORT: '0' });
        }),
      );
      instances.push(...started);
      balancer = await startHaproxy({
        port: balancerPort,
        servers: started.map((instance, i) => ({ name: `s${i + 1}`, port: instance.port })),
        dir: tmp,
      });
      sql = new pg.Client({ connectionString: databaseUrl });
      await sql.connect();
    }, 300_000);

    afterAll(async () => {
      await sql?.end().catch(() => {});
      await Promise.all(instances.map(stopInstance));
      await balancer?.stop();
      await smtp?.close();
      await s3?.close().catch(() => {});
      await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
    }, 60_000);

    it('loses and doubles nothing acknowledged, and the instances still up take over the jobs', {
      timeout: 360_000,
    }, async () => {
      onTestFailed(() => {
        for (const instance of instances) console.error(`--- instance ${instance.name} ---\n${instance.output()}`);
        console.error(`--- haproxy ---\n${balancer?.output() ?? ''}`);
      });
      const db = sql!;
      const lb = balancer!.url;
      const timings: Record<string, number> = {};
      const began = Date.now();
      const mark = (label: string) => {
        timings[label] = Date.now() - began;
      };
      const today = new Date().toISOString().slice(0, 10);
      const now = new Date();
      const startDate = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 10);
      const expectedPeriods = periodsDue(startDate, today);

      /** Failures of requests that should have worked: reported together at the end. */
      const problems: string[] = [];
      const requests = { ok: 0, lost: 0, refused: 0 };
      const count = <T>(outcome: Outcome<T>) => {
        requests[outcome.kind] += 1;
        return outcome;
      };
      const post = async <T>(token: string | undefined, url: string, body: RequestBody) =>
        count(await call<T>(lb, 'POST', url, token, body));
      /** A read through the balancer, asked again when it got no answer (reads are safe to repeat). */
      const read = async <T>(token: string, url: string): Promise<T | null> => {
        for (let attempt = 0; attempt < 8; attempt++) {
          const outcome = count(await call<T>(lb, 'GET', url, token));
          if (outcome.kind === 'ok') return outcome.body;
          if (outcome.kind === 'refused') {
            problems.push(`GET ${url}: ${outcome.status} ${outcome.body}`);
            return null;
          }
          await pause(100);
        }
        problems.push(`GET ${url}: no answer after 8 attempts`);
        return null;
      };
      /** A sign-in (safe to repeat: at worst a second session). */
      const signIn = async (email: string, password: string): Promise<string> => {
        for (let attempt = 0; attempt < 5; attempt++) {
          const outcome = await post<{ token: string }>(undefined, '/api/auth/login', { json: { email, password } });
          if (outcome.kind === 'ok') return outcome.body.token;
          if (outcome.kind === 'refused') throw new Error(`sign-in of ${email}: ${outcome.status} ${outcome.body}`);
          await pause(100);
        }
        throw new Error(`sign-in of ${email}: no answer`);
      };
      const setupPost = async <T>(token: string, url: string, json: unknown): Promise<T> => {
        const outcome = await post<T>(token, url, { json });
        if (outcome.kind !== 'ok') throw new Error(`POST ${url}: ${JSON.stringify(outcome)}`);
        return outcome.body;
      };

      // --- Set-up through the balancer: people, products, customers -------------------------------------
      const admin = await signIn(ADMIN.email, ADMIN.password);
      const userBody = (role: string, email: string, extra: object = {}) => ({
        firstName: 'Cluster',
        lastName: role,
        email,
        password: PASSWORD,
        role,
        commissionRate: role === 'sales' ? 0.1 : 0,
        ...extra,
      });
      const repEmails = Array.from({ length: REPS }, (_, r) => `cluster-rep-${r}@example.test`);
      for (const email of repEmails) await setupPost(admin, '/api/users', userBody('sales', email));
      await setupPost(admin, '/api/users', userBody('finance', 'cluster-finance@example.test'));
      const product = await setupPost<{ id: string }>(admin, '/api/products', {
        name: 'Cluster banner',
        adType: 'banner',
        defaultPrice: 100,
        priceMetric: 'monthly',
        inventoryRequired: false,
      });
      const customers: { id: string; clientEmail: string }[] = [];
      for (let c = 0; c < CUSTOMERS; c++) {
        const customer = await setupPost<{ id: string }>(admin, '/api/customers', {
          name: `Cluster customer ${c}`,
          email: `cluster-customer-${c}@example.test`,
          company: `Cluster Co ${c}`,
        });
        const clientEmail = `cluster-client-${c}@example.test`;
        await setupPost(admin, '/api/users', userBody('client', clientEmail, { customerId: customer.id }));
        customers.push({ id: customer.id, clientEmail });
      }
      mark('setup');

      // --- The workload -----------------------------------------------------------------------------------
      type Acknowledged = { id: string; title: string; customer: number; index: number };
      const ack = {
        contracts: [] as Acknowledged[],
        drafts: [] as Acknowledged[],
        manualPayments: [] as { invoiceId: string; reference: string; how: 'acknowledged' | 'applied-unanswered' }[],
        cardPayments: [] as { invoiceId: string }[],
        uploads: [] as { id: string; sha256: string; size: number }[],
      };
      const lost = { contracts: [] as string[], payments: [] as string[], cards: [] as string[], uploads: 0 };
      const victim = instances[1];
      const killing: { at: Date | null } = { at: null };
      const kill = () => {
        killing.at = new Date();
        victim.child.kill('SIGKILL');
        mark('kill');
      };

      const financeFeed = new Feed<Acknowledged>();
      const clientFeeds = customers.map(() => new Feed<Acknowledged>());

      const contractBody = (customer: number, title: string, makeActive: boolean) => ({
        customerId: customers[customer].id,
        title,
        description: 'Cluster test campaign',
        startDate,
        termMonths: 12,
        setupFee: 0,
        paymentMode: 'portal',
        packageId: null,
        sendToCustomer: false,
        makeActive,
        lineItems: [{ productId: product.id, quantity: 1, unitPrice: 100, discount: 0 }],
      });

      const rep = async (r: number) => {
        const token = await signIn(repEmails[r], PASSWORD);
        for (let i = 0; i < CONTRACTS_PER_REP; i++) {
          const index = r * CONTRACTS_PER_REP + i;
          const customer = index % CUSTOMERS;
          const title = `cluster-contract-${r}-${i}`;
          const outcome = await post<Contract>(token, '/api/contracts', { json: contractBody(customer, title, true) });
          if (outcome.kind === 'ok') {
            const contract = { id: outcome.body.id, title, customer, index };
            ack.contracts.push(contract);
            financeFeed.push(contract);
            clientFeeds[customer].push(contract);
            if (ack.contracts.length === KILL_AFTER) kill();
          } else if (outcome.kind === 'lost') lost.contracts.push(title);
          else problems.push(`create ${title}: ${outcome.status} ${outcome.body}`);
        }
        // Drafts: activated later "by an instance that died before billing them" (see below).
        for (let j = 0; j < DRAFTS_PER_REP; j++) {
          const title = `cluster-draft-${r}-${j}`;
          const customer = j % CUSTOMERS;
          const outcome = await post<Contract>(token, '/api/contracts', { json: contractBody(customer, title, false) });
          if (outcome.kind === 'ok') ack.drafts.push({ id: outcome.body.id, title, customer, index: -1 });
          else if (outcome.kind === 'lost') lost.contracts.push(title);
          else problems.push(`create ${title}: ${outcome.status} ${outcome.body}`);
        }
      };

      /** Finance records a check for each new contract's first invoice, again after no answer (see above). */
      const finance = async () => {
        const token = await signIn('cluster-finance@example.test', PASSWORD);
        for await (const contract of financeFeed) {
          const invoices = await read<Invoice[]>(token, `/api/invoices?contractId=${contract.id}`);
          const first = invoices?.find((invoice) => invoice.periodIndex === 0);
          if (!first) continue; // Not billed when created: the billing run's job (checked at the end).
          const reference = `cluster-check-${contract.title}`;
          let unanswered = false;
          for (let attempt = 0; attempt < 5; attempt++) {
            const outcome = await post(token, `/api/invoices/${first.id}/payments`, {
              json: { amount: first.amountDue, method: 'check', reference },
            });
            if (outcome.kind === 'ok') {
              ack.manualPayments.push({ invoiceId: first.id, reference, how: 'acknowledged' });
              break;
            }
            if (outcome.kind === 'lost') {
              unanswered = true;
              lost.payments.push(reference);
              await pause(100);
              continue;
            }
            if (outcome.status === 409 && unanswered) {
              ack.manualPayments.push({ invoiceId: first.id, reference, how: 'applied-unanswered' });
            } else problems.push(`payment ${reference}: ${outcome.status} ${outcome.body}`);
            break;
          }
        }
      };

      /** A client uploads a creative for each of its new contracts and pays every other one's second invoice by card. */
      let uploadSeq = 0;
      const client = async (c: number) => {
        const token = await signIn(customers[c].clientEmail, PASSWORD);
        for await (const contract of clientFeeds[c]) {
          uploadSeq += 1;
          const bytes = pdf(4096 + uploadSeq * 13);
          const upload = await post<Creative>(token, '/api/client/creatives', {
            multipart: multipartBody([
              { name: 'contractId', value: contract.id },
              { name: 'file', filename: `${contract.title}.pdf`, type: 'application/pdf', content: bytes },
            ]),
          });
          if (upload.kind === 'ok') ack.uploads.push({ id: upload.body.id, sha256: sha256(bytes), size: bytes.length });
          else if (upload.kind === 'lost') lost.uploads += 1;
          else problems.push(`upload for ${contract.title}: ${upload.status} ${upload.body}`);

          if (contract.index % 2 !== 0) continue;
          const invoices = await read<Invoice[]>(token, `/api/invoices?contractId=${contract.id}`);
          const second = invoices?.find((invoice) => invoice.periodIndex === 1);
          if (!second) continue;
          const opened = await post<{ checkoutUrl: string }>(token, `/api/invoices/${second.id}/checkout`, {});
          if (opened.kind !== 'ok') {
            if (opened.kind === 'lost') lost.cards.push(second.id);
            else problems.push(`checkout for ${contract.title}: ${opened.status} ${opened.body}`);
            continue;
          }
          const checkout = new URL(opened.body.checkoutUrl).pathname.split('/').pop()!;
          const paid = await post(undefined, `/api/checkout/${checkout}/pay`, {
            json: { cardNumber: '4242 4242 4242 4242', expiry: '12 / 40', cvc: '123', name: 'Cluster Client' },
          });
          if (paid.kind === 'ok') ack.cardPayments.push({ invoiceId: second.id });
          else if (paid.kind === 'lost') lost.cards.push(second.id);
          else problems.push(`card payment for ${contract.title}: ${paid.status} ${paid.body}`);
        }
      };

      const producers = Promise.all(Array.from({ length: REPS }, (_, r) => rep(r))).finally(() => {
        financeFeed.close();
        for (const feed of clientFeeds) feed.close();
      });
      await Promise.all([producers, finance(), ...customers.map((_, c) => client(c))]);
      mark('workload');
      expect(killing.at, 'the instance was killed during the workload').not.toBeNull();
      await victim.exited;
      const killed = killing.at!;

      // --- The instances still up take over: everything queued is delivered, without the killed one -------
      const outboxState = async () =>
        (
          await db.query<{ queued: number; failed: number; sent: number }>(
            `select count(*) filter (where status = 'queued')::int as queued,
                    count(*) filter (where status = 'failed')::int as failed,
                    count(*) filter (where status = 'sent')::int as sent
             from outbox_emails`,
          )
        ).rows[0];
      // New messages go out at once (the instance that queued them asks for a delivery round); one claimed by the
      // killed instance is due again when its lease (3 s) ends, and the next round of any instance sends it: the
      // next message queued, or at the latest the minutely outbox-delivery job: pg-boss turns a due tick into a
      // job at its next cron check (every 30 s), so that can take up to about 100 s after the kill.
      const drained = await waitFor(async () => (await outboxState()).queued === 0, DRAIN_MS);
      mark('drained-by-survivors');
      const beforeReplacement = await outboxState();
      const sentAfterKill = (
        await db.query<{ n: number }>(`select count(*)::int as n from outbox_emails where sent_at > $1`, [killed])
      ).rows[0].n;

      // --- An operator starts a replacement; its start-up billing run catches up ---------------------------
      // The drafts become active without their invoices: the state an instance leaves when it dies between an
      // activation's commit and the billing that follows it (billContractNow), made certain here. Only a
      // billing run issues them now.
      const activated = await db.query<{ id: string; at: Date }>(
        `update contracts set status = 'active', activated_at = now(), updated_at = now()
         where title like 'cluster-draft-%' and status = 'draft' returning id, now() as at`,
      );
      const activatedAt = activated.rows[0]?.at ?? new Date();
      const replacementSpawnedAt = new Date();
      const dataDir = path.join(tmp, 'data-b2');
      fs.mkdirSync(dataDir);
      const replacement = await startInstance('b2', { ...baseEnv, DATA_DIR: dataDir, PORT: String(victim.port) });
      instances.push(replacement);
      mark('replacement-up');
      const billed = await waitFor(async () => {
        const runs = await db.query<{ status: string }>(`select status from billing_runs where started_at >= $1`, [
          replacementSpawnedAt,
        ]);
        return runs.rows.some((run) => run.status !== 'running') ? runs.rows : undefined;
      }, 20_000);
      const drainedAfter = await waitFor(async () => (await outboxState()).queued === 0, DRAIN_MS);
      mark('settled');
      const survivors = instances.filter((instance) => instance.alive());

      // --- What was acknowledged, and what the database holds ---------------------------------------------
      console.log(
        JSON.stringify(
          {
            requests,
            acknowledged: {
              contracts: ack.contracts.length,
              drafts: ack.drafts.length,
              manualPayments: ack.manualPayments.filter((payment) => payment.how === 'acknowledged').length,
              manualPaymentsAppliedUnanswered: ack.manualPayments.filter((payment) => payment.how !== 'acknowledged')
                .length,
              cardPayments: ack.cardPayments.length,
              uploads: ack.uploads.length,
            },
            lost,
            timings,
            outbox: { beforeReplacement, sentAfterKill, final: await outboxState() },
            received: smtp!.received.length,
          },
          null,
          2,
        ),
      );
      expect.soft(problems, 'requests that should have succeeded').toEqual([]);
      expect.soft(survivors.map((instance) => instance.name)).toEqual(['a', 'c', 'b2']);

      // Contracts: every acknowledged one exists, once; nothing exists twice.
      const contracts = (
        await db.query<{ id: string; title: string; status: string; invoices: number; periods: number }>(
          `select c.id, c.title, c.status, count(i.id)::int as invoices, count(distinct i.period_start)::int as periods
           from contracts c left join invoices i on i.contract_id = c.id
           where c.title like 'cluster-%' group by c.id`,
        )
      ).rows;
      const byId = new Map(contracts.map((row) => [row.id, row]));
      for (const contract of [...ack.contracts, ...ack.drafts]) {
        expect.soft(byId.get(contract.id)?.title, `acknowledged contract ${contract.title}`).toBe(contract.title);
      }
      const titles = contracts.map((row) => row.title);
      expect.soft(titles.length - new Set(titles).size, 'contracts created twice').toBe(0);

      // Invoices: every contract that is not a draft has one invoice for each period due, none twice.
      const wrongInvoices = contracts
        .filter(
          (row) => row.status !== 'draft' && (row.invoices !== expectedPeriods || row.periods !== expectedPeriods),
        )
        .map((row) => `${row.title} (${row.status}): ${row.invoices} invoices, ${row.periods} periods`);
      expect.soft(wrongInvoices, `invoices of each contract (${expectedPeriods} periods due)`).toEqual([]);
      const doubled = await db.query(
        `select contract_id, period_start, count(*)::int as n from invoices group by 1, 2 having count(*) > 1`,
      );
      expect.soft(doubled.rows, 'invoices for one contract and period').toEqual([]);
      const numbers = (
        await db.query<{ n: number; top: number; last: number | null }>(
          `select count(*)::int as n, coalesce(max(split_part(number, '-', 3)::int), 0) as top,
                  (select last_value::int from number_series where series = 'INV'
                   and year = extract(year from now() at time zone 'utc')::int) as last
           from invoices`,
        )
      ).rows[0];
      expect.soft(numbers, 'invoice numbers without gaps').toEqual({ n: numbers.n, top: numbers.n, last: numbers.n });

      // Payments: each acknowledged one applied once; no invoice paid twice; what is paid adds up.
      const payments = (
        await db.query<{
          invoice_id: string;
          status: string;
          paid_cents: string;
          total_cents: string;
          payments: number;
          received_cents: string | null;
          references: string[];
          methods: string[];
        }>(
          `select i.id as invoice_id, i.status, i.amount_paid_cents as paid_cents, i.total_cents,
                  count(p.id)::int as payments, sum(p.amount_cents) as received_cents,
                  array_remove(array_agg(p.reference), null) as references, array_remove(array_agg(p.method), null) as methods
           from invoices i left join payments p on p.invoice_id = i.id and p.status = 'succeeded' and p.kind = 'payment'
           group by i.id`,
        )
      ).rows;
      const paymentOf = new Map(payments.map((row) => [row.invoice_id, row]));
      for (const payment of ack.manualPayments) {
        const row = paymentOf.get(payment.invoiceId);
        expect
          .soft(
            row && { status: row.status, payments: row.payments, references: row.references },
            `manual payment ${payment.reference} (${payment.how})`,
          )
          .toEqual({ status: 'paid', payments: 1, references: [payment.reference] });
      }
      for (const payment of ack.cardPayments) {
        const row = paymentOf.get(payment.invoiceId);
        expect
          .soft(
            row && { status: row.status, payments: row.payments, methods: row.methods },
            `card payment of ${payment.invoiceId}`,
          )
          .toEqual({ status: 'paid', payments: 1, methods: ['card'] });
      }
      const paidTwice = payments.filter((row) => row.payments > 1).map((row) => row.invoice_id);
      expect.soft(paidTwice, 'invoices with more than one payment').toEqual([]);
      const mismatched = payments
        .filter((row) => Number(row.paid_cents) !== Number(row.received_cents ?? 0))
        .map((row) => `${row.invoice_id}: paid ${row.paid_cents}, payments ${row.received_cents}`);
      expect.soft(mismatched, "invoices' paid amounts against their payments").toEqual([]);

      // Uploads: each acknowledged one stored once, and readable with the same bytes through every instance up.
      const stored = (
        await db.query<{ id: string; sha256: string }>(`select id, sha256 from creatives where sha256 = any($1)`, [
          ack.uploads.map((upload) => upload.sha256),
        ])
      ).rows;
      for (const upload of ack.uploads) {
        expect
          .soft(
            stored.filter((row) => row.sha256 === upload.sha256).map((row) => row.id),
            `upload ${upload.id}`,
          )
          .toEqual([upload.id]);
      }
      const unreadable: string[] = [];
      for (const instance of survivors) {
        for (const upload of ack.uploads) {
          const got = await download(instance.url, `/api/creatives/${upload.id}/download`, admin);
          if (got.status !== 200 || sha256(got.bytes) !== upload.sha256) {
            unreadable.push(
              `${upload.id} through ${instance.name}: ${got.status} ${got.bytes.toString().slice(0, 80)}`,
            );
          }
        }
      }
      expect.soft(unreadable, 'uploads not readable with their bytes through every instance').toEqual([]);
      const localFiles = instances.flatMap((instance) => {
        const dir = path.join(tmp, `data-${instance.name}`, 'uploads');
        return fs.existsSync(dir) ? fs.readdirSync(dir).map((file) => `${instance.name}: ${file}`) : [];
      });
      expect.soft(localFiles, "uploads kept in an instance's DATA_DIR instead of the object store").toEqual([]);

      // E-mails: none left behind, each outbox message received once.
      const outbox = (
        await db.query<{
          id: string;
          to: string;
          status: string;
          attempts: number;
          created_at: Date;
          sent_at: Date | null;
        }>(`select id::text, "to", status, attempts, created_at, sent_at from outbox_emails`)
      ).rows;
      const sent = outbox.filter((row) => row.status === 'sent');
      const received = smtp!.received;
      expect.soft(drained, 'the instances still up delivered everything queued before the replacement').toBe(true);
      expect.soft(drainedAfter, 'everything queued delivered after the replacement came up').toBe(true);
      expect
        .soft(
          outbox.filter((row) => row.status !== 'sent').map((row) => `${row.id} ${row.status}`),
          'outbox messages not delivered',
        )
        .toEqual([]);
      // The Message-ID of an outbox row's message is <row id@domain> (lib/mailer.ts messageIdFor).
      const idOf = (mail: (typeof received)[number]) => mail.messageId ?? '<none>';
      const receipts = (row: { id: string }) => received.filter((mail) => idOf(mail).startsWith(`<${row.id}@`)).length;
      const arrivalsOf = (row: { id: string }) =>
        [...arrivals.entries()].filter(([id]) => id.startsWith(`<${row.id}@`)).flatMap(([, at]) => at);
      // Times in ms after the kill, for the failure messages.
      const afterKill = (at: number | Date | null) => (at === null ? 'never' : `${+at - killed.getTime()} ms`);
      const explain = (row: (typeof sent)[number]) =>
        `${row.id} to ${row.to}: received ${receipts(row)} times (at ${arrivalsOf(row).map(afterKill).join(', ')} after the kill), queued at ${afterKill(row.created_at)}, marked sent at ${afterKill(row.sent_at)} after ${row.attempts} attempt(s)`;
      expect
        .soft(
          received.every((mail) => mail.messageId),
          'every message carries a Message-ID',
        )
        .toBe(true);
      expect
        .soft(sent.filter((row) => receipts(row) === 0).map(explain), 'sent outbox rows never received')
        .toEqual([]);
      // Exactly once, but for SMTP's at-least-once window (decision 006): a message the killed instance had
      // handed to the server but not yet marked sent is sent again, with the same Message-ID, once its lease
      // ran out. Such a repeat is the only one allowed: its first copy arrived before the kill (allowing for
      // the sink's own lag), the second once the lease could have run out (the lease starts when the killed
      // instance claimed the message, which is after it was queued: a slow send can claim a second or more
      // before the kill, so the lease may end before kill + lease), and there are at most as many as the dead
      // instance had SMTP connections.
      const repeated = sent.filter((row) => receipts(row) > 1);
      const unexplained = repeated.filter((row) => {
        const [first, second, ...more] = arrivalsOf(row);
        const leaseEndAtTheEarliest = row.created_at.getTime() + LEASE_SECONDS * 1000;
        return more.length > 0 || first > killed.getTime() + SINK_LAG_MS || second < leaseEndAtTheEarliest;
      });
      expect.soft(unexplained.map(explain), 'messages received twice other than across the kill').toEqual([]);
      expect.soft(repeated.length, 'messages sent again after the kill').toBeLessThanOrEqual(SMTP_CONNECTIONS);
      expect
        .soft(received.length, 'messages received against messages marked sent, and repeats across the kill')
        .toBe(sent.length + repeated.length);
      const tally = (addresses: string[]) =>
        Object.fromEntries(
          [...new Set(addresses)].sort().map((address) => [address, addresses.filter((a) => a === address).length]),
        );
      const firstCopies = received.filter((mail, i) => received.findIndex((m) => idOf(m) === idOf(mail)) === i);
      expect
        .soft(tally(firstCopies.flatMap((mail) => mail.to)), 'messages received per recipient')
        .toEqual(tally(sent.map((row) => row.to.toLowerCase())));

      // The instances still up took over: e-mails queued after the kill were delivered before the replacement
      // came up, and the replacement's start-up billing run issued what was due.
      const queuedAfterKill = outbox.filter((row) => row.created_at > killed && row.created_at < replacementSpawnedAt);
      expect.soft(queuedAfterKill.length, 'e-mails queued after the kill').toBeGreaterThan(0);
      expect.soft(sentAfterKill, 'e-mails delivered after the kill by the instances still up').toBeGreaterThan(0);
      expect
        .soft(
          queuedAfterKill
            .filter((row) => !(row.sent_at && row.sent_at < replacementSpawnedAt))
            .map((row) => `${row.id} ${row.status}`),
          'e-mails queued after the kill and not delivered before the replacement',
        )
        .toEqual([]);
      expect.soft(billed, 'a billing run started with the replacement').toBeDefined();
      const issued = (
        await db.query<{ runs: number; issued: number; invoices: number }>(
          `select (select count(*)::int from billing_runs where started_at >= $1 and status = 'succeeded') as runs,
                  (select coalesce(sum(invoices_issued), 0)::int from billing_runs where started_at >= $1) as issued,
                  (select count(*)::int from invoices where issued_at >= $1) as invoices`,
          [activatedAt],
        )
      ).rows[0];
      expect.soft(issued.runs, 'billing runs since the activation').toBeGreaterThan(0);
      const draftInvoices = contracts
        .filter((row) => row.title.startsWith('cluster-draft-'))
        .reduce((sum, row) => sum + row.invoices, 0);
      expect.soft(activated.rows.length, 'drafts activated').toBeGreaterThanOrEqual(ack.drafts.length);
      expect.soft(draftInvoices, "the activated drafts' invoices").toBe(activated.rows.length * expectedPeriods);
      expect
        .soft(issued.issued, 'invoices the billing runs since the activation say they issued')
        .toBe(issued.invoices);

      // And through the balancer, after it all: a sign-in, and the list shows every contract.
      const again = await signIn(ADMIN.email, ADMIN.password);
      const list = await call<Contract[]>(lb, 'GET', '/api/contracts?limit=100', again);
      expect
        .soft(list.kind === 'ok' ? Number(list.headers.get('x-total-count')) : list)
        .toBe((await db.query<{ n: number }>('select count(*)::int as n from contracts')).rows[0].n);
    });
  },
);
