/**
 * Every test a complete `npm test` skips, and why: the suites that apply to one engine only (onlyOn in
 * server/test/engine.ts). The run compares what it skipped with this list (server/test/skips-reporter.ts)
 * and fails on a difference either way: a skip not listed (an `it.skip`, or a typo that skips a suite on both
 * engines) or a listed suite that ran where it should skip. A new engine-only suite adds its row.
 */
export type ExpectedSkip = {
  /** The Vitest project that skips it. */
  project: 'api-pglite' | 'api-postgres';
  file: string;
  /** The suite's name, as onlyOn words it. */
  suite: string;
  /** How many of its tests. */
  tests: number;
};

const SHARED_SERVER = 'several processes share one database, and the embedded one serves a single process';

export const EXPECTED_SKIPS: readonly ExpectedSkip[] = [
  {
    project: 'api-pglite',
    file: 'server/modules/delivery/delivery-push.test.ts',
    suite: 'two identical final pushes at once — PostgreSQL only: requests really run in parallel there',
    tests: 1,
  },
  {
    project: 'api-pglite',
    file: 'server/test/cluster/cluster.test.ts',
    suite: `three instances behind HAProxy, one killed mid-workload — PostgreSQL only: ${SHARED_SERVER}`,
    tests: 1,
  },
  {
    project: 'api-pglite',
    file: 'server/test/cluster/start-together.test.ts',
    suite: `three instances started together on an empty database — PostgreSQL only: ${SHARED_SERVER}`,
    tests: 1,
  },
  {
    project: 'api-pglite',
    file: 'server/test/cluster/webhooks-cluster.test.ts',
    suite: `webhooks delivered by two instances — PostgreSQL only: ${SHARED_SERVER}`,
    tests: 1,
  },
  {
    project: 'api-pglite',
    file: 'server/test/hardening/database-outage.test.ts',
    suite:
      'a PostgreSQL server lost — PostgreSQL only: the embedded database runs inside the process, with no server connections to end or network address to cut',
    tests: 4,
  },
  {
    project: 'api-pglite',
    file: 'server/test/hardening/idempotency-race.test.ts',
    suite:
      'one Idempotency-Key sent to two instances at once — PostgreSQL only: the embedded database has one connection, so requests never overlap in it',
    tests: 3,
  },
  {
    project: 'api-postgres',
    file: 'server/test/cluster/start-together.test.ts',
    suite:
      'an embedded database migrated again — PGlite only: the PostgreSQL suite above migrates one database from three processes',
    tests: 1,
  },
  {
    project: 'api-postgres',
    file: 'server/test/hardening/database-outage.test.ts',
    suite:
      'PGlite closed under the app — PGlite only: on PostgreSQL the suites above end the connections and cut the address',
    tests: 1,
  },
];
