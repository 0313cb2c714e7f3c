// `npm test`: every check in order, each step's progress as it runs, and at the end a table of how long each
// step took, also when one fails. The first failure stops the run with that step's exit code.
//
//   typecheck   TypeScript 7 (tsc --noEmit)
//   lint        Biome
//   vitest      unit tests and API integration tests (PGlite; PostgreSQL too when TEST_DATABASE_URL is set)
//   chromium    Debian's Chromium for the browser tests (installed with apt-get when it is missing)
//   build       the client and the server, as `npm start` serves them
//   budget      the client's JavaScript budget per screen (scripts/check-budget.mjs)
//   playwright  the browser tests against the built server
//
// Usage: node scripts/test.mjs [step...]   (no step: all of them, in this order)
// TEST_STEPS_BEFORE="npm ci=83.4" adds steps timed by the caller to the table (.ci/run times its `npm ci`).
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name, ...args) => [path.join(root, 'node_modules/.bin', name), args];
const script = (file, ...args) => [process.execPath, [path.join(root, file), ...args]];

// The same commands as package.json's scripts of those names.
const STEPS = [
  { name: 'typecheck', command: bin('tsc', '-p', 'tsconfig.json', '--noEmit') },
  { name: 'lint', command: bin('biome', 'check', '.') },
  { name: 'vitest', command: bin('vitest', 'run') },
  { name: 'chromium', command: script('scripts/ensure-chromium.mjs') },
  { name: 'build', command: ['npm', ['run', '--silent', 'build']] },
  { name: 'budget', command: script('scripts/check-budget.mjs') },
  { name: 'playwright', command: bin('playwright', 'test') },
];

const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !STEPS.some((step) => step.name === name));
if (unknown.length > 0) {
  console.error(`Unknown step ${unknown.join(', ')}; the steps: ${STEPS.map((step) => step.name).join(', ')}`);
  process.exit(2);
}
const steps = asked.length > 0 ? STEPS.filter((step) => asked.includes(step.name)) : STEPS;

/** Rows of the table: { name, seconds, result }. */
const rows = (process.env.TEST_STEPS_BEFORE ?? '')
  .split(',')
  .filter(Boolean)
  .map((entry) => {
    const [name, seconds] = entry.split('=');
    return { name: name.trim(), seconds: Number(seconds), result: 'ok' };
  });

let child = null;
let interrupted = null;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    interrupted = signal;
    child?.kill(signal);
  });
}

function run([command, args]) {
  return new Promise((resolve) => {
    child = spawn(command, args, { cwd: root, stdio: 'inherit' });
    child.on('error', (error) => {
      console.error(error.message);
      resolve(127);
    });
    // A step ended by a signal exits as a shell reports it: 128 + the signal's number.
    child.on('exit', (code, signal) => resolve(code ?? 128 + (constants.signals[signal] ?? 0)));
  });
}

const started = performance.now();
let exitCode = 0;
for (const [i, step] of steps.entries()) {
  if (exitCode !== 0 || interrupted) {
    rows.push({ name: step.name, seconds: null, result: 'not run' });
    continue;
  }
  console.log(`\n=== ${step.name} (${i + 1}/${steps.length}) ===`);
  const stepStarted = performance.now();
  const code = await run(step.command);
  const seconds = (performance.now() - stepStarted) / 1000;
  rows.push({ name: step.name, seconds, result: code === 0 ? 'ok' : `failed (exit ${code})` });
  console.log(`=== ${step.name}: ${code === 0 ? 'ok' : `failed (exit ${code})`} in ${formatSeconds(seconds)} ===`);
  if (code !== 0) exitCode = code;
}
if (interrupted && exitCode === 0) exitCode = 130;

const ownSeconds = (performance.now() - started) / 1000;
const earlier = rows.filter((row) => !steps.some((step) => step.name === row.name));
const total = ownSeconds + earlier.reduce((sum, row) => sum + row.seconds, 0);
printTable([...rows, { name: 'total', seconds: total, result: exitCode === 0 ? 'ok' : 'failed' }]);
process.exit(exitCode);

function formatSeconds(seconds) {
  if (seconds === null) return '-';
  const whole = Math.round(seconds);
  const clock = `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
  return whole >= 60 ? `${seconds.toFixed(1)} s (${clock})` : `${seconds.toFixed(1)} s`;
}

function printTable(table) {
  const width = Math.max(...table.map((row) => row.name.length), 4);
  const timeWidth = Math.max(...table.map((row) => formatSeconds(row.seconds).length), 4);
  console.log('');
  console.log('step'.padEnd(width), ' ', 'time'.padStart(timeWidth), ' ', 'result');
  for (const row of table) {
    if (row.name === 'total') console.log('-'.repeat(width + timeWidth + 12));
    console.log(row.name.padEnd(width), ' ', formatSeconds(row.seconds).padStart(timeWidth), ' ', row.result);
  }
}
