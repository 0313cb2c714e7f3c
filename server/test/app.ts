import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { Role } from '@shared/roles';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { inject } from 'vitest';
import { buildApp } from '../app';
import { type Config, loadConfig } from '../config';
import { type Database, openDatabase } from '../db/client';
import type { Mailer } from '../lib/mailer';
import { createSession } from '../modules/sessions/sessions';
import { checkAnswers } from './answer-check';
import { createTestUser, type TestUser } from './factories';
import { adminQuery, withDatabase } from './global-setup';

export type TestContext = {
  app: FastifyInstance;
  database: Database;
  db: Database['db'];
  /** One signed-in user per role (created on first use), with a bearer token. */
  as(role: Role): Promise<TestUser & { token: string }>;
  /** app.inject with the bearer token of `who` (a role's default user, or a given user). */
  injectAs(who: Role | (TestUser & { token: string }), options: InjectOptions): Promise<LightMyRequestResponse>;
  signIn(user: TestUser): Promise<TestUser & { token: string }>;
  close(): Promise<void>;
};

/** A fresh database copied from the migrated template (PGlite or PostgreSQL per TEST_ENGINE) and an app on it. */
export async function openTestDatabase(): Promise<Database> {
  if (process.env.TEST_ENGINE === 'postgres') {
    const url = process.env.TEST_DATABASE_URL!;
    const name = `adcrm_t_${process.ppid}_${randomBytes(6).toString('hex')}`;
    await adminQuery(url, `CREATE DATABASE ${name} TEMPLATE ${inject('postgresTemplate')}`);
    const database = await openDatabase({ url: withDatabase(url, name) });
    return {
      ...database,
      close: async () => {
        await database.close();
        await adminQuery(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      },
    };
  }
  const dump = fs.readFileSync(inject('pgliteTemplate'));
  return openDatabase({ loadDataDir: new Blob([dump]) });
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  return { ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', CLIENT_DIST: '/nonexistent' }), ...overrides };
}

export async function buildTestApp(options: { config?: Partial<Config>; mailer?: Mailer } = {}): Promise<TestContext> {
  const database = await openTestDatabase();
  const app = await buildApp({
    config: testConfig(options.config),
    db: database.db,
    logger: false,
    mailer: options.mailer,
  });
  // Every answer a test provokes is checked against its route's response schema (./answer-check.ts).
  checkAnswers(app);
  await app.ready();

  const byRole = new Map<Role, TestUser & { token: string }>();
  const signIn = async (user: TestUser) => {
    const { token } = await createSession(database.db, user.id, app.sessionPolicy, {});
    return { ...user, token };
  };
  const as = async (role: Role) => {
    let user = byRole.get(role);
    if (!user) {
      user = await signIn(await createTestUser(database.db, { role }));
      byRole.set(role, user);
    }
    return user;
  };

  return {
    app,
    database,
    db: database.db,
    as,
    signIn,
    async injectAs(who, options) {
      const user = typeof who === 'string' ? await as(who) : who;
      return app.inject({ ...options, headers: { ...options.headers, authorization: `Bearer ${user.token}` } });
    },
    async close() {
      await app.close();
      await database.close();
    },
  };
}
