import { describe } from 'vitest';

/**
 * The database an API test file runs on: each file runs twice, once per project of vitest.config.ts
 * (api-pglite always, api-postgres when TEST_DATABASE_URL is set), with TEST_ENGINE naming it.
 */
export type Engine = 'pglite' | 'postgres';

const ONLY: Record<Engine, string> = { pglite: 'PGlite only', postgres: 'PostgreSQL only' };

/** The engine of this run; anything but the two names is a mistake in the configuration, not a skip. */
export function testEngine(): Engine {
  const engine = process.env.TEST_ENGINE;
  if (engine === 'pglite' || engine === 'postgres') return engine;
  throw new Error(`TEST_ENGINE is ${JSON.stringify(engine)}: an API test runs on "pglite" or "postgres"`);
}

/**
 * A suite that applies to one engine only, e.g. a race that needs several connections. It shows as skipped
 * on the other, its name saying where it runs and why ("... — PostgreSQL only: <reason>"), and each such skip
 * is listed in server/test/expected-skips.json, which the run compares with what it skipped.
 */
export function onlyOn(engine: Engine, reason: string) {
  return (name: string, body: () => void) =>
    describe.skipIf(testEngine() !== engine)(`${name} — ${ONLY[engine]}: ${reason}`, body);
}
