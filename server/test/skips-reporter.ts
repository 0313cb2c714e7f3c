import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { EXPECTED_SKIPS, type ExpectedSkip } from './expected-skips';

/**
 * Lists every skipped test at the end of a run, with the names of its suites, and holds the skips to
 * EXPECTED_SKIPS: for each project and file that ran, the suites skipped and their number of tests must be the
 * listed ones, no more and no fewer; otherwise the run fails, naming the difference. A run filtered by test
 * name skips what the filter leaves out, so it is only listed. Without TEST_DATABASE_URL the PostgreSQL project
 * does not run, and a line says so at the start and the end instead of leaving it unseen.
 */
export function skipsReporter(options: { postgres: boolean }): Reporter {
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
          `Skips that server/test/expected-skips.ts does not list, or listed skips that did not happen (${differences.length}):\n${differences.map((line) => `  ${line}`).join('\n')}\n`,
        );
        process.exitCode = 1;
      }
    },
  };
}

type Skipped = { project: string; file: string; fullName: string };

const key = (skip: Pick<ExpectedSkip, 'project' | 'file' | 'suite'>) => `${skip.project}  ${skip.file} > ${skip.suite}`;

/** What differs between the skips seen and those listed, for the projects and files that ran. */
export function skipDifferences(testModules: ReadonlyArray<TestModule>, skipped: readonly Skipped[]): string[] {
  const ran = new Set(testModules.map((module) => `${module.project.name}  ${module.relativeModuleId}`));
  const seen = new Map<string, number>();
  for (const test of skipped) {
    const suite = test.fullName.split(' > ')[0];
    const at = key({ project: test.project as ExpectedSkip['project'], file: test.file, suite });
    seen.set(at, (seen.get(at) ?? 0) + 1);
  }
  const expected = new Map(
    EXPECTED_SKIPS.filter((skip) => ran.has(`${skip.project}  ${skip.file}`)).map((skip) => [key(skip), skip.tests]),
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
