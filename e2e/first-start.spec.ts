import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from './fixtures';

/**
 * `npm start` on an empty data folder, as a new user runs it: the real server (server/main.ts) on a fresh
 * embedded database, not the demo. What it prints must sign in.
 */

type Started = { process: ChildProcess; url: string; output: () => string };

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function startServer(dataDir: string): Promise<Started> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    CLIENT_DIST: process.env.CLIENT_DIST ?? './dist/client',
  };
  for (const name of ['DATABASE_URL', 'ADMIN_EMAIL', 'ADMIN_PASSWORD', 'SMTP_URL', 'PUBLIC_URL']) delete env[name];
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 150_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server stopped (${child.exitCode}):\n${output}`);
    const up = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { process: child, url, output: () => output };
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  child.kill('SIGTERM');
  throw new Error(`The server did not start:\n${output}`);
}

async function stopServer(server: Started) {
  if (server.process.exitCode !== null) return;
  const exited = new Promise((resolve) => server.process.once('exit', resolve));
  server.process.kill('SIGTERM');
  await exited;
}

test('the first start prints an account that signs in through the login form; a restart keeps it', async ({
  page,
  request,
}) => {
  test.setTimeout(360_000);
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'adcrm-first-start-'));
  const dataDir = path.join(folder, 'data');
  let server: Started | null = null;
  try {
    server = await startServer(dataDir);
    const printed = server.output().match(/E-mail:\s+(\S+)\s+Password:\s+(\S+)/);
    expect(printed, `credentials in the output:\n${server.output()}`).not.toBeNull();
    const [, email, password] = printed!;
    expect(email).toBe('admin@localhost');

    // The API check runs in a request context of its own, so the page starts signed out.
    await test.step('the API accepts them', async () => {
      const response = await request.post(`${server!.url}/api/auth/login`, {
        data: { email, password },
        headers: { origin: server!.url },
      });
      expect(response.status(), await response.text()).toBe(200);
      expect((await response.json()).user).toMatchObject({ email: 'admin@localhost', role: 'super_admin' });
    });

    await test.step('the login form accepts them', async () => {
      await page.goto(`${server!.url}/`);
      await page.getByLabel('Email Address').fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign In' }).click();
      await expect(page.getByRole('button', { name: 'User menu' })).toBeVisible();
      await expect(page.getByTestId('role-badge')).toHaveText('Super Admin');
      await expect(page.getByText('Please enter a valid email address')).toHaveCount(0);
    });

    await test.step('a second start on the same data folder creates no other account', async () => {
      await stopServer(server!);
      server = await startServer(dataDir);
      expect(server.output()).not.toContain('First super admin created');
      // The request context holds the first sign-in's cookie: a change with it shows our origin, as a page would.
      const response = await request.post(`${server.url}/api/auth/login`, {
        data: { email, password },
        headers: { origin: server.url },
      });
      expect(response.status()).toBe(200);
    });
  } finally {
    if (server) await stopServer(server);
    fs.rmSync(folder, { recursive: true, force: true });
  }
});
