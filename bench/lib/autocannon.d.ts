declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  export type Options = {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    pipelining?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    timeout?: number;
  };
  export type Result = {
    requests: { average: number; total: number };
    latency: { p50: number; p90: number; p99: number; average: number };
    duration: number;
    non2xx: number;
    errors: number;
    timeouts: number;
    '2xx': number;
  };
  export type Instance = EventEmitter & { stop(): void };
  function autocannon(options: Options, callback?: (err: Error | null, result: Result) => void): Instance;
  export default autocannon;
}
