/// <reference types="vitest/config" />
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import EXPECTED_SKIPS from './server/test/expected-skips.json' with { type: 'json' };

const alias = {
  '@shared': path.resolve(import.meta.dirname, 'shared'),
  '@': path.resolve(import.meta.dirname, 'client/src'),
};

const apiProject = (engine: 'pglite' | 'postgres') => ({
  resolve: { alias },
  test: {
    name: `api-${engine}`,
    include: ['server/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['server/test/global-setup.ts'],
    env: { TEST_ENGINE: engine },
    // A worker keeps the modules it imported from one file to the next instead of importing the whole server
    // again per file (2-5 s each). Every file still builds its own app on its own database; a file undoes what
    // it changes in the process (fake timers, stubbed variables, open handles). docs/decisions/030.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

/**
 * Every test a complete `npm test` skips (server/test/expected-skips.json): the suites that apply to one engine
 * only (onlyOn in server/test/engine.ts), each with its project, file, suite name (where it runs and why) and
 * number of tests. A new engine-only suite adds its entry.
 */
type ExpectedSkip = { project: string; file: string; suite: string; tests: number };

/**
 * Lists every skipped test at the end of a run, with the names of its suites, and holds the skips to
 * EXPECTED_SKIPS: for each project and file that ran, the suites skipped and their number of tests must be the
 * listed ones, no more and no fewer; otherwise the run fails, naming the difference. A run filtered by test
 * name skips what the filter leaves out, so it is only listed. Without TEST_DATABASE_URL the PostgreSQL project
 * does not run, and a line says so at the start and the end instead of leaving it unseen.
 */
function skipsReporter(options: { postgres: boolean }): Reporter {
  let filteredByName = false;
  const noPostgres =
    'TEST_DATABASE_URL is not set: the API tests ran on PGlite only, not on PostgreSQL (its concurrency and cluster suites neither); .ci/run sets it';
  return {
    onInit(vitest: Vitest) {
      filteredByName = Boolean(vitest.config.testNamePattern);
      if (!options.postgres) console.log(`\n${noPostgres}\n`);
    },
    onTestRunEnd(testModules) {
      const skipped = testModules.flatMap((module) =>
        [...module.children.allTests('skipped')].map((test) => ({
          project: test.project.name,
          file: module.relativeModuleId,
          fullName: test.fullName,
        })),
      );
      if (skipped.length > 0) {
        const lines = skipped.map((test) => `  ${test.project}  ${test.file} > ${test.fullName}`);
        console.log(`\nSkipped (${skipped.length}):\n${lines.join('\n')}\n`);
      }
      if (!options.postgres) console.log(`${noPostgres}\n`);
      if (filteredByName) return;
      const differences = skipDifferences(testModules, skipped);
      if (differences.length > 0) {
        console.log(
          `Skips that server/test/expected-skips.json does not list, or listed skips that did not happen (${differences.length}):\n${differences.map((line) => `  ${line}`).join('\n')}\n`,
        );
        process.exitCode = 1;
      }
    },
  };
}

type Skipped = { project: string; file: string; fullName: string };

const key = (skip: Pick<ExpectedSkip, 'project' | 'file' | 'suite'>) => `${skip.project}  ${skip.file} > ${skip.suite}`;

/** What differs between the skips seen and those listed, for the projects and files that ran. */
function skipDifferences(testModules: ReadonlyArray<TestModule>, skipped: readonly Skipped[]): string[] {
  const ran = new Set(testModules.map((module) => `${module.project.name}  ${module.relativeModuleId}`));
  const seen = new Map<string, number>();
  for (const test of skipped) {
    const suite = test.fullName.split(' > ')[0];
    const at = key({ project: test.project as string, file: test.file, suite });
    seen.set(at, (seen.get(at) ?? 0) + 1);
  }
  const expected = new Map(
    (EXPECTED_SKIPS as ExpectedSkip[])
      .filter((skip) => ran.has(`${skip.project}  ${skip.file}`))
      .map((skip) => [key(skip), skip.tests]),
  );
  const differences: string[] = [];
  for (const [at, count] of seen) {
    const listed = expected.get(at);
    if (listed === undefined) differences.push(`not listed: ${at} (${count} skipped)`);
    else if (listed !== count) differences.push(`listed with ${listed}, skipped ${count}: ${at}`);
  }
  for (const [at, count] of expected) {
    if (!seen.has(at)) differences.push(`listed (${count}), not skipped: ${at}`);
  }
  return differences;
}

// Integration tests run on embedded PGlite always, and also on PostgreSQL when TEST_DATABASE_URL is set.
export default defineConfig({
  test: {
    // Two files at a time on two cores (Vitest's default there is one): each API file has its own database.
    maxWorkers: 2,
    // The skipped tests listed at the end, and held to server/test/expected-skips.json.
    reporters: ['default', skipsReporter({ postgres: Boolean(process.env.TEST_DATABASE_URL) })],
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          include: ['shared/**/*.test.ts', 'client/src/**/*.test.{ts,tsx}', 'bench/lib/*.test.ts'],
          environment: 'node',
        },
      },
      apiProject('pglite'),
      ...(process.env.TEST_DATABASE_URL ? [apiProject('postgres')] : []),
    ],
  },
});
