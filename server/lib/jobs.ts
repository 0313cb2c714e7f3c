import type { FastifyBaseLogger } from 'fastify';
import { isDatabaseUnavailable, loggableError } from './db-errors';

export type JobRunner = {
  /** Runs `job` now and then every `ms`; a run still going when the next is due is not doubled. */
  every(ms: number, job: () => Promise<unknown>): void;
  /** Stops scheduling (a run in progress finishes on its own). */
  stop(): void;
};

/**
 * The background jobs' scheduler (outbox delivery, session purge, billing ...). A job that fails, or throws
 * before it even returns a promise, is logged and retried at its next interval; it never ends the process.
 * A database outage is logged as a warning (it is expected to pass); errors are logged without query
 * parameters (loggableError).
 */
export function createJobRunner(log: Pick<FastifyBaseLogger, 'warn' | 'error'>): JobRunner {
  const timers: NodeJS.Timeout[] = [];
  let stopped = false;
  return {
    every(ms, job) {
      let running = false;
      const run = async () => {
        if (running || stopped) return;
        running = true;
        try {
          await job();
        } catch (error) {
          if (isDatabaseUnavailable(error)) {
            log.warn({ err: loggableError(error) }, 'background job skipped: database unavailable');
          } else {
            log.error({ err: loggableError(error) }, 'background job failed');
          }
        } finally {
          running = false;
        }
      };
      void run();
      timers.push(setInterval(run, ms).unref());
    },
    stop() {
      stopped = true;
      for (const timer of timers) clearInterval(timer);
    },
  };
}
