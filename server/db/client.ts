import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema';

export type Schema = typeof schema;
/** Both engines' Drizzle databases share this type; a transaction is one too. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

/** Plain SQL for libraries that bring their own (the job queue): parameters when given, else a script. */
export type SqlExecutor = (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;

export type Database = {
  db: Db;
  sql: SqlExecutor;
  engine: 'pglite' | 'postgres';
  migrate: () => Promise<void>;
  /** Runs start-up work one instance at a time (PostgreSQL: the start-up advisory lock; PGlite: one process). */
  oneAtATime: <T>(work: () => Promise<T>) => Promise<T>;
  close: () => Promise<void>;
};

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export type DatabaseOptions =
  | ({ url: string } & PoolTimeouts)
  /** dataDir undefined: in memory. loadDataDir: start from a dump (tests start from a migrated template). */
  | { dataDir?: string; loadDataDir?: Blob | File };

/**
 * How long PostgreSQL may keep a request waiting. A database that is down, restarting or unreachable must
 * turn into a quick 503 for the request, never a request that hangs or a process that dies.
 */
export type PoolTimeouts = {
  /** Opening a connection, or waiting for a free one from the pool. */
  connectTimeoutMs?: number;
  /** One query's answer; past it the connection is closed and replaced (it may be a dead network path). */
  queryTimeoutMs?: number;
};

export const DEFAULT_POOL_TIMEOUTS = { connectTimeoutMs: 5_000, queryTimeoutMs: 30_000 } as const;

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if ('url' in options) {
    const pool = createPool(options.url, { ...DEFAULT_POOL_TIMEOUTS, ...withoutUndefined(options) });
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return {
      db,
      sql: (text, values) => pool.query(text, values),
      engine: 'postgres',
      migrate: () => migrateUnderLock(pool, options.url, options.connectTimeoutMs),
      oneAtATime: (work) => underAdvisoryLock(pool, () => work()),
      close: () => pool.end(),
      ...{ pool },
    };
  }

  let releaseLock = () => {};
  if (options.dataDir) {
    fs.mkdirSync(path.dirname(path.resolve(options.dataDir)), { recursive: true });
    releaseLock = takeLock(options.dataDir);
  }
  const client = await PGlite.create({
    dataDir: options.dataDir,
    loadDataDir: options.loadDataDir,
    extensions: { pg_trgm, btree_gist },
  });
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    // PGlite's query() takes one statement; a script of several (the job queue's migrations) goes to exec().
    sql: async (text, values) => {
      if (values?.length) return client.query(text, values);
      const results = await client.exec(text);
      return results.at(-1) ?? { rows: [] };
    },
    engine: 'pglite',
    migrate: () => migratePglite(db as never, { migrationsFolder: MIGRATIONS_DIR }),
    oneAtATime: (work) => work(),
    close: async () => {
      await client.close();
      releaseLock();
    },
    ...{ pglite: client },
  };
}

/** The advisory lock instances take to migrate and set up: the same number on every process and version. */
export const MIGRATION_LOCK_KEY = 7_305_221_901;

/**
 * Migrates PostgreSQL with any number of instances starting at once (product.md section 9): one session
 * holds a PostgreSQL advisory lock while it migrates; the others wait for it, then find nothing left to do.
 */
function migrateUnderLock(pool: pg.Pool, url: string, connectTimeoutMs?: number): Promise<void> {
  return underAdvisoryLock(pool, async () => {
    // On a connection of its own, without the pool's query timeout: a migration that fills a new column of a
    // large table (0034: 200,000 contracts, about 50 s on a busy machine) takes longer than a request may wait.
    const client = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: connectTimeoutMs ?? DEFAULT_POOL_TIMEOUTS.connectTimeoutMs,
    });
    client.on('error', warnConnectionLost);
    await client.connect();
    try {
      await migratePg(drizzlePg(client, { schema }) as never, { migrationsFolder: MIGRATIONS_DIR });
    } finally {
      await client.end();
    }
  });
}

/**
 * Runs `work` while this session holds the start-up advisory lock, so that instances starting together take
 * turns (migrations; the job queue's set-up, whose concurrent CREATEs would deadlock). The wait polls
 * pg_try_advisory_lock, so no statement runs into the pool's query timeout while a long migration holds the
 * lock. The lock is the session's, released on unlock or when its connection ends.
 */
async function underAdvisoryLock<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
  waitMs = 10 * 60_000,
): Promise<T> {
  const client = await pool.connect();
  try {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [
        MIGRATION_LOCK_KEY,
      ]);
      if (rows[0].locked) break;
      if (Date.now() > deadline) throw new Error('Timed out waiting for another instance to finish starting');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    try {
      return await work(client);
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}

/** Only one process may open a PGlite data folder; a second one would silently lose writes. */
function takeLock(dataDir: string): () => void {
  const lockFile = `${path.resolve(dataDir)}.lock`;
  try {
    fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
  } catch {
    const holder = Number(fs.readFileSync(lockFile, 'utf8'));
    if (holder && holder !== process.pid && isAlive(holder)) {
      throw new Error(`The database in ${dataDir} is in use by process ${holder}. Stop it first.`);
    }
    fs.writeFileSync(lockFile, String(process.pid));
  }
  return () => fs.rmSync(lockFile, { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function withoutUndefined(timeouts: PoolTimeouts): PoolTimeouts {
  return Object.fromEntries(Object.entries(timeouts).filter(([, value]) => value !== undefined));
}

/** Connection errors are reported once per this interval, not once per connection. */
let lastWarning = 0;
function warnConnectionLost(error: Error): void {
  if (Date.now() - lastWarning < 10_000) return;
  lastWarning = Date.now();
  process.emitWarning(`PostgreSQL connection lost: ${error.message}`, { code: 'ADCRM_DB_CONNECTION' });
}

/**
 * A pg pool that survives the database going away:
 * - every connection has an 'error' listener for its whole life. pg-pool listens only while a connection is
 *   idle; one that is checked out (a transaction between two queries) and loses its server (restart,
 *   pg_terminate_backend, failover) would otherwise emit an unhandled 'error' and end the process. The
 *   connection is then unusable, and the pool drops it when it is released.
 * - opening a connection and waiting for a free one are bounded (connectTimeoutMs); so is every query
 *   (queryTimeoutMs). A connection whose query timed out is closed: its network path may be dead, and a
 *   later query on it would wait just as long.
 * Requests that meet any of this fail with a connection error, which the error handler answers with 503; the
 * next requests get fresh connections, so service resumes as soon as the database answers again.
 */
function createPool(url: string, timeouts: Required<PoolTimeouts>): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: timeouts.connectTimeoutMs,
    query_timeout: timeouts.queryTimeoutMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  // Idle connections closed by the server: pg-pool removes them and emits this.
  pool.on('error', warnConnectionLost);
  pool.on('connect', (client) => {
    client.on('error', warnConnectionLost);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const result = query(...args);
      if (result instanceof Promise) {
        result.catch((error: Error) => {
          if (/Query read timeout/.test(error?.message ?? '')) closeConnection(client);
        });
      }
      return result;
    };
  });
  return pool;
}

function closeConnection(client: pg.PoolClient): void {
  const connection = (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection;
  connection?.stream?.destroy();
}
