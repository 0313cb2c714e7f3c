import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, expect, inject, it } from 'vitest';
import { MIGRATIONS_DIR, openDatabase } from '../../db/client';
import { onlyOn } from '../engine';
import { adminQuery, withDatabase } from '../global-setup';

/**
 * Several instances started at once on one empty PostgreSQL database all come up (product.md section 9):
 * migrations run once, under an advisory lock, and one first admin is created. Three real processes, each
 * starting the server as `npm start` does.
 */

const ROOT = path.resolve(import.meta.dirname, '../../..');
const MIGRATIONS = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')).entries
  .length as number;

function startInstance(url: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/test/cluster/instance.ts'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: url, ADMIN_EMAIL: 'first@example.test', ADMIN_PASSWORD: 'first-admin-1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

onlyOn('postgres', 'several processes share one database, and the embedded one serves a single process')(
  'three instances started together on an empty database',
  () => {
    const adminUrl = process.env.TEST_DATABASE_URL ?? '';
    const name = `adcrm_t_${process.ppid}_${randomBytes(6).toString('hex')}`;
    afterAll(() => adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));

    it('all come up, with one set of migrations and one first admin', { timeout: 120_000 }, async () => {
      await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
      const url = withDatabase(adminUrl, name);
      const results = await Promise.all([startInstance(url), startInstance(url), startInstance(url)]);
      for (const result of results) {
        expect(result.code, result.stderr).toBe(0);
        expect(result.stdout).toMatch(/^UP \d+$/m);
      }
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const applied = await client.query('select count(*)::int as n from drizzle.__drizzle_migrations');
        expect(applied.rows[0].n).toBe(MIGRATIONS);
        const admins = await client.query(`select email, role from users`);
        expect(admins.rows).toEqual([{ email: 'first@example.test', role: 'super_admin' }]);
        const created = await client.query(`select count(*)::int as n from audit_events where action = 'user.created'`);
        expect(created.rows[0].n).toBe(1);
      } finally {
        await client.end();
      }
    });
  },
);

onlyOn('pglite', 'the PostgreSQL suite above migrates one database from three processes')(
  'an embedded database migrated again',
  () => {
    it('changes nothing: every migration is applied once', async () => {
      const database = await openDatabase({
        loadDataDir: new Blob([fs.readFileSync(inject('pgliteTemplate'))]),
      });
      try {
        await database.migrate();
        await database.migrate();
        const result = (await database.db.execute(
          'select count(*)::int as n from drizzle.__drizzle_migrations',
        )) as unknown as {
          rows: { n: number }[];
        };
        expect(result.rows[0].n).toBe(MIGRATIONS);
      } finally {
        await database.close();
      }
    });
  },
);
