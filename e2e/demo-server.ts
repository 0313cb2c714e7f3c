import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';

/**
 * One demo server per Playwright worker: the compiled server (dist/server/main.js, as `npm start` runs it) on an
 * embedded database of its own, a copy of the demo business that e2e/global-setup.ts seeded once for the run
 * (e2e/seed-demo.ts: what `npm run demo` seeds). Workers never see each other's changes, so a test may count what
 * is on a list while another worker's test adds to its own copy.
 */
export type DemoServer = { url: string; stop: () => Promise<void> };

const BASE_PORT = Number(process.env.E2E_PORT ?? 3100);

/** The seeded demo business the workers copy (one per E2E_PORT, so two runs on other ports never share it). */
export const SEEDED_DATA_DIR = `./.e2e-data-seed-${BASE_PORT}`;

export async function startDemoServer(parallelIndex: number, options: { smtpUrl: string }): Promise<DemoServer> {
  const port = BASE_PORT + parallelIndex;
  const url = `http://127.0.0.1:${port}`;
  const dataDir = `./.e2e-data-${port}`;
  if (!fs.existsSync(SEEDED_DATA_DIR)) {
    throw new Error(`${SEEDED_DATA_DIR} is missing: the browser tests' global setup (e2e/global-setup.ts) seeds it`);
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(`${dataDir}.lock`, { force: true });
  fs.cpSync(SEEDED_DATA_DIR, dataDir, { recursive: true });

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  };
  for (const name of ['DATABASE_URL', 'PUBLIC_URL', 'SMTP_URL', 'TRUST_PROXY', 'ADMIN_EMAIL', 'ADMIN_PASSWORD']) {
    delete env[name];
  }
  // E-mail reaches the worker's own mailbox (e2e/mailbox.ts), as it would a customer's.
  env.SMTP_URL = options.smtpUrl;
  const child = spawn(process.execPath, ['--enable-source-maps', 'dist/server/main.js'], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk) => {
    errors = (errors + chunk).slice(-4000);
    process.stderr.write(chunk);
  });

  // Starting takes a while on a busy machine.
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The demo server on ${url} stopped (${child.exitCode}):\n${errors}`);
    const up = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { url, stop: () => stop(child) };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stop(child);
  throw new Error(`The demo server on ${url} did not start in time:\n${errors}`);
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
