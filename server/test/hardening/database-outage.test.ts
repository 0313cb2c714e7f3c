import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../app';
import { type Database, openDatabase, type PoolTimeouts } from '../../db/client';
import { createSession } from '../../modules/sessions/sessions';
import { testConfig } from '../app';
import { onlyOn } from '../engine';
import { createTestUser } from '../factories';
import { adminQuery, withDatabase } from '../global-setup';

/**
 * The process survives a database outage and recovers without a restart (docs/decisions/010): requests
 * during the outage answer 503 with this body, GET /api/health answers 503, and once the database answers
 * again every request succeeds.
 */
const UNAVAILABLE = {
  message: 'The database is unavailable at the moment. Please try again in a few seconds.',
  code: 'UNAVAILABLE',
};

type Harness = { app: FastifyInstance; database: Database; token: string; close(): Promise<void> };

async function harness(database: Database, onClose: () => Promise<void> = async () => {}): Promise<Harness> {
  const app = await buildApp({ config: testConfig(), db: database.db, logger: false });
  await app.ready();
  const user = await createTestUser(database.db, { role: 'admin' });
  const { token } = await createSession(database.db, user.id, app.sessionPolicy, {});
  return {
    app,
    database,
    token,
    async close() {
      await app.close();
      await database.close().catch(() => {});
      await onClose();
    },
  };
}

const get = (h: Harness, url: string) =>
  h.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${h.token}` } });

/** Health as a load balancer calls it: without credentials. */
const health = (h: Harness) => h.app.inject({ method: 'GET', url: '/api/health' });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `url` answers 200 or `ms` pass; the time it took, or Infinity. */
async function recoversWithin(h: Harness, url: string, ms: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < ms) {
    if ((await get(h, url)).statusCode === 200) return Date.now() - started;
    await sleep(100);
  }
  return Number.POSITIVE_INFINITY;
}

onlyOn(
  'postgres',
  'the embedded database runs inside the process, with no server connections to end or network address to cut',
)('a PostgreSQL server lost', () => {
  const adminUrl = process.env.TEST_DATABASE_URL ?? '';

  /** A fresh copy of the migrated template, opened through `url(name)` (directly, or through a proxy). */
  async function freshDatabase(timeouts: PoolTimeouts, url = (name: string) => withDatabase(adminUrl, name)) {
    const name = `adcrm_t_${process.ppid}_${randomBytes(6).toString('hex')}`;
    await adminQuery(adminUrl, `CREATE DATABASE ${name} TEMPLATE ${inject('postgresTemplate')}`);
    const database = await openDatabase({ url: url(name), ...timeouts });
    return { name, database, drop: () => adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
  }

  /** Ends every server process of the database (what a restart or failover does to the app's connections). */
  /** Terminates the database's connections; answers their process ids. */
  async function terminateConnections(name: string): Promise<number[]> {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ pid: number }>(
        'select pid, pg_terminate_backend(pid) as ok from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [name],
      );
      return rows.map((row) => row.pid);
    } finally {
      await client.end();
    }
  }

  /**
   * Resolves once the terminated server processes have exited (pg_terminate_backend only signals them): each
   * has then told its client, and the pool has dropped the connection at its next turn of the event loop.
   */
  async function terminated(pids: number[]): Promise<void> {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const { rows } = await client.query<{ n: number }>(
          'select count(*)::int as n from pg_stat_activity where pid = any($1::int[])',
          [pids],
        );
        if (rows[0].n === 0) break;
        if (Date.now() > deadline) throw new Error(`server processes ${pids} still running`);
        await sleep(20);
      }
    } finally {
      await client.end();
    }
    await sleep(50);
  }

  describe('PostgreSQL connections terminated (pg_terminate_backend)', () => {
    let h: Harness;
    let name: string;
    beforeAll(async () => {
      const fresh = await freshDatabase({ connectTimeoutMs: 2_000, queryTimeoutMs: 5_000 });
      name = fresh.name;
      h = await harness(fresh.database, fresh.drop);
    });
    afterAll(() => h.close());

    it('a connection lost inside a transaction fails that transaction, not the process', async () => {
      const outcome = await h.database.db
        .transaction(async (tx) => {
          await tx.execute(sql`select 1`);
          expect((await terminateConnections(name)).length).toBeGreaterThan(0);
          // The server has closed the checked-out connection: without a listener its 'error' event would be
          // unhandled and end the process (this test file with it).
          await sleep(200);
          await tx.execute(sql`select 1`);
          return 'committed';
        })
        .catch((error: Error) => error);
      expect(outcome).toBeInstanceOf(Error);
      expect((await health(h)).statusCode).toBe(200);
    });

    it('requests in flight answer 200 or 503 (never 500); every request succeeds again once they are gone', async () => {
      const statuses: number[] = [];
      const bodies: unknown[] = [];
      const load = Promise.all(
        Array.from({ length: 60 }, async (_, i) => {
          await sleep(i * 5);
          const response = await (i % 3 === 0 ? health(h) : get(h, '/api/customers?limit=5'));
          statuses.push(response.statusCode);
          if (response.statusCode >= 500) bodies.push(response.json());
        }),
      );
      const pids: number[] = [];
      for (let round = 0; round < 6; round++) {
        await sleep(40);
        pids.push(...(await terminateConnections(name)));
      }
      await load;
      expect(
        statuses.every((status) => status === 200 || status === 503),
        `statuses: ${statuses}`,
      ).toBe(true);
      for (const body of bodies)
        expect([UNAVAILABLE, expect.objectContaining({ status: 'down' })]).toContainEqual(body);

      // Once the outage is over (the last terminated processes gone), every request succeeds.
      await terminated(pids);
      const after = await Promise.all(Array.from({ length: 20 }, () => get(h, '/api/customers?limit=5')));
      expect(after.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    });
  });

  /**
   * A TCP proxy in front of PostgreSQL that the test can cut (refuse and drop every connection, as a stopped
   * server does), hang (keep connections open but forward nothing, as a dead network path does) and restore.
   */
  class CuttableProxy {
    private server: net.Server | null = null;
    private sockets = new Set<net.Socket>();
    private hung = false;
    port = 0;

    async start(): Promise<void> {
      const target = new URL(adminUrl);
      this.server = net.createServer((client) => {
        const upstream = net.connect(Number(target.port || 5432), target.hostname);
        for (const socket of [client, upstream]) {
          this.sockets.add(socket);
          socket.on('close', () => this.sockets.delete(socket));
          socket.on('error', () => {});
        }
        client.on('data', (chunk) => {
          if (!this.hung) upstream.write(chunk);
        });
        upstream.on('data', (chunk) => {
          if (!this.hung) client.write(chunk);
        });
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
      this.port = (this.server.address() as net.AddressInfo).port;
    }

    async cut(): Promise<void> {
      const server = this.server;
      this.server = null;
      for (const socket of this.sockets) socket.destroy();
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    }

    hang(): void {
      this.hung = true;
    }

    resume(): void {
      this.hung = false;
    }

    url(name: string): string {
      const url = new URL(withDatabase(adminUrl, name));
      url.hostname = '127.0.0.1';
      url.port = String(this.port);
      return url.toString();
    }
  }

  describe('a database address that stops answering (a proxy cut, then restored)', () => {
    const proxy = new CuttableProxy();
    let h: Harness;
    beforeAll(async () => {
      await proxy.start();
      const fresh = await freshDatabase({ connectTimeoutMs: 1_000, queryTimeoutMs: 1_500 }, (name) => proxy.url(name));
      h = await harness(fresh.database, async () => {
        await proxy.cut();
        await fresh.drop();
      });
    });
    afterAll(() => h.close());

    it('answers 503 while the database is unreachable and recovers by itself when it is back', async () => {
      expect((await get(h, '/api/customers?limit=5')).statusCode).toBe(200);

      await proxy.cut();
      const started = Date.now();
      const during = await Promise.all([get(h, '/api/customers?limit=5'), get(h, '/api/auth/me')]);
      expect(during.map((r) => r.statusCode)).toEqual([503, 503]);
      for (const response of during) expect(response.json()).toEqual(UNAVAILABLE);
      expect(during[0].headers['retry-after']).toBe('5');
      const probe = await health(h);
      expect(probe.statusCode).toBe(503);
      expect(probe.json()).toMatchObject({ status: 'down', database: 'unreachable' });
      expect(Date.now() - started).toBeLessThan(5_000);

      await proxy.start();
      expect(await recoversWithin(h, '/api/customers?limit=5', 5_000)).toBeLessThan(5_000);
      const after = await Promise.all(Array.from({ length: 15 }, () => get(h, '/api/customers?limit=5')));
      expect(after.map((r) => r.statusCode)).toEqual(Array(15).fill(200));
      expect((await health(h)).statusCode).toBe(200);
    });

    it('answers 503 within the timeouts when the database hangs, and recovers when it answers again', async () => {
      expect((await get(h, '/api/customers?limit=5')).statusCode).toBe(200);
      proxy.hang();
      const started = Date.now();
      const probe = await health(h);
      expect(probe.statusCode).toBe(503);
      expect(Date.now() - started).toBeLessThan(3_000);
      const request = await get(h, '/api/customers?limit=5');
      expect(request.statusCode).toBe(503);
      expect(request.json()).toEqual(UNAVAILABLE);
      expect(Date.now() - started).toBeLessThan(8_000);

      proxy.resume();
      expect(await recoversWithin(h, '/api/customers?limit=5', 8_000)).toBeLessThan(8_000);
      const after = await Promise.all(Array.from({ length: 15 }, () => get(h, '/api/customers?limit=5')));
      expect(after.map((r) => r.statusCode)).toEqual(Array(15).fill(200));
    });
  });
});

onlyOn('pglite', 'on PostgreSQL the suites above end the connections and cut the address')(
  'PGlite closed under the app',
  () => {
    let h: Harness;
    beforeAll(async () => {
      const dump = (await import('node:fs')).readFileSync(inject('pgliteTemplate'));
      h = await harness(await openDatabase({ loadDataDir: new Blob([dump]) }));
    });
    afterAll(() => h.close());

    it('is reported: requests and health answer 503, nothing crashes', async () => {
      expect((await get(h, '/api/customers?limit=5')).statusCode).toBe(200);
      await h.database.close();
      const responses = await Promise.all([
        get(h, '/api/customers?limit=5'),
        get(h, '/api/auth/me'),
        h.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'a@example.test', password: 'x' } }),
      ]);
      expect(responses.map((r) => r.statusCode)).toEqual([503, 503, 503]);
      for (const response of responses) expect(response.json()).toEqual(UNAVAILABLE);
      const probe = await health(h);
      expect(probe.statusCode).toBe(503);
      expect(probe.json()).toMatchObject({ status: 'down', database: 'unreachable' });
    });
  },
);
