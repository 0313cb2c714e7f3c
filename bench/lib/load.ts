import autocannon from 'autocannon';

export type LoadOptions = {
  url: string;
  connections: number;
  seconds: number;
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
};

export type LoadResult = { rps: number; p50: number; p95: number; errors: number; requests: number };

/** Drives one URL with autocannon for `seconds`; answers other than 2xx count as errors, not as requests. */
export function load(options: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        connections: options.connections,
        duration: options.seconds,
        method: options.method ?? 'GET',
        headers: {
          ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...options.headers,
        },
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        timeout: 30,
      },
      (error, result) => {
        if (error) return reject(error);
        latencies.sort((a, b) => a - b);
        const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
        const ok = result['2xx'];
        resolve({
          rps: ok / options.seconds,
          p50: at(0.5),
          p95: at(0.95),
          errors: result.non2xx + result.errors + result.timeouts,
          requests: ok,
        });
      },
    );
    instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
      if (status < 300) latencies.push(ms);
    });
  });
}
