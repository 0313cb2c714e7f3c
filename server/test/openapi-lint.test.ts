import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestContext } from './app';

/**
 * `redocly lint` (@redocly/cli, a development tool only) on the document the app serves at /api/openapi.json,
 * with the repository's redocly.yaml: Redocly's recommended rules, less the ones it switches off and says why.
 * A route added without a summary, or with a schema the linter refuses, fails here.
 */
const root = path.resolve(import.meta.dirname, '../..');
const cli = path.join(root, 'node_modules/@redocly/cli/bin/cli.js');
const run = promisify(execFile);

type Problem = { ruleId: string; severity: string; message: string; location: { pointer: string }[] };
type Report = { totals: { errors: number; warnings: number; ignored: number }; problems: Problem[] };

let ctx: TestContext;
let dir: string;
beforeAll(async () => {
  ctx = await buildTestApp();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'adcrm-openapi-'));
});
afterAll(async () => {
  await ctx.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('redocly lint of /api/openapi.json', () => {
  it('reports no error and no warning with the recommended rules of redocly.yaml', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    const file = path.join(dir, 'openapi.json');
    fs.writeFileSync(file, response.body);

    // The linter exits with 1 when it finds errors: its report is on stdout either way.
    const result = await run(
      process.execPath,
      [cli, 'lint', file, '--config', path.join(root, 'redocly.yaml'), '--format', 'json', '--max-problems', '1000'],
      {
        cwd: dir,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
        maxBuffer: 64 * 1024 * 1024,
      },
    ).catch((error: { stdout?: string; stderr?: string }) => ({ stdout: error.stdout ?? '', stderr: error.stderr }));
    const report = JSON.parse(result.stdout) as Report;
    const problems = report.problems.map(
      (problem) => `${problem.severity} ${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`,
    );
    expect(problems).toEqual([]);
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
  });

  it('lints the recommended rules: the committed config extends them and switches off only what it explains', () => {
    const config = fs.readFileSync(path.join(root, 'redocly.yaml'), 'utf8');
    expect(config).toMatch(/^extends:\n {2}- recommended$/m);
    const off = [...config.matchAll(/^ {2}([a-z0-9-]+): off$/gm)].map((match) => match[1]);
    expect(off).toEqual(['info-license', 'operation-4xx-response']);
    // Each rule switched off has its reason in the comment just above it.
    for (const rule of off) expect(config).toMatch(new RegExp(`# [^\\n]+\\n(?: {2}# [^\\n]+\\n)* {2}${rule}: off`));
    expect(config).toMatch(/^telemetry: off$/m);
  });
});
