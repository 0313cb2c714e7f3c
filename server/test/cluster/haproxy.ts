import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/**
 * A real HAProxy (Debian's package, scripts/ensure-haproxy.mjs) in front of app instances, for the
 * multi-instance test: round robin, health checks on GET /api/health, X-Forwarded-For added. A request that
 * cannot reach an instance (connection refused: a killed one) is sent to another one. Reads (GET, HEAD) are
 * retried on another instance also when the instance died while answering them; writes are not (they may
 * have been applied), so a write in flight on a killed instance fails (502) and its client must not assume
 * either outcome. It runs in the foreground (-db) as a child process of the test.
 */

export const HAPROXY = process.env.HAPROXY_PATH ?? '/usr/sbin/haproxy';

export type BackendServer = { name: string; port: number };

export type Balancer = {
  port: number;
  url: string;
  /** What HAProxy printed (warnings, alerts), for a failing test's report. */
  output(): string;
  stop(): Promise<void>;
};

/** A port nobody listens on right now (the kernel's pick), for a process that binds it next. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The configuration: the same servers in two backends, writes and reads, one set of health checks. */
export function haproxyConfig(port: number, servers: BackendServer[]): string {
  const writes = servers.map(
    (server) => `  server ${server.name} 127.0.0.1:${server.port} check inter 300 fastinter 200 fall 2 rise 2`,
  );
  const reads = servers.map((server) => `  server ${server.name} 127.0.0.1:${server.port} track app/${server.name}`);
  return [
    'global',
    '  maxconn 2000',
    '',
    'defaults',
    '  mode http',
    '  option forwardfor',
    '  option http-server-close',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    '  timeout http-request 10s',
    // Without it a check may take no longer than `inter` (300 ms): a busy instance would be marked down.
    '  timeout check 2s',
    '  retries 3',
    '  option redispatch 1',
    '',
    'frontend web',
    `  bind 127.0.0.1:${port}`,
    '  use_backend app_reads if METH_GET || METH_HEAD',
    '  default_backend app',
    '',
    'backend app',
    '  balance roundrobin',
    '  option httpchk GET /api/health',
    '  http-check expect status 200',
    // Only a connection that could not be opened is retried: the request never reached an instance.
    '  retry-on conn-failure',
    ...writes,
    '',
    'backend app_reads',
    '  balance roundrobin',
    '  retry-on conn-failure empty-response junk-response response-timeout 502 503 504',
    ...reads,
    '',
  ].join('\n');
}

/**
 * Writes the configuration into `dir`, starts HAProxy in the foreground and resolves once it answers
 * `GET /api/health` with 200 (at least one instance is up and checked), or rejects with its output.
 */
export async function startHaproxy(options: {
  port: number;
  servers: BackendServer[];
  dir: string;
  timeoutMs?: number;
}): Promise<Balancer> {
  const file = path.join(options.dir, 'haproxy.cfg');
  fs.writeFileSync(file, haproxyConfig(options.port, options.servers));
  const child: ChildProcess = spawn(HAPROXY, ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  let exited: number | null | undefined;
  const exit = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exited = code ?? (signal ? -1 : null);
      resolve();
    });
  });
  // A binary that cannot start (missing, not executable) emits 'error' and never 'exit': counted as an exit,
  // so that the wait below fails at once and stop() does not wait for an exit that will never come.
  child.once('error', (error) => {
    output += `\n${error.message}`;
    child.emit('exit', null, null);
  });

  const url = `http://127.0.0.1:${options.port}`;
  const stop = async () => {
    if (exited === undefined) {
      child.kill('SIGTERM');
      await exit;
    }
  };
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  for (;;) {
    if (exited !== undefined) throw new Error(`HAProxy exited (${exited}):\n${output}`);
    try {
      const response = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.status === 200) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`HAProxy did not answer within the time limit:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { port: options.port, url, output: () => output, stop };
}
