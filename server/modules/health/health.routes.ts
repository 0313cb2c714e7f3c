import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { loggableError } from '../../lib/db-errors';
import type { Mailer } from '../../lib/mailer';
import { jsonSerializerCompiler } from '../../lib/response-schema';
import { healthResponse } from './health.response';
import { billingHealth, databaseAnswers, jobsHealth, outboxHealth } from './system-checks';

export { DATABASE_PROBE_TIMEOUT_MS, databaseAnswers } from './system-checks';
/** Extra checks run at most this often; between runs their last answer is reused. */
export const CHECK_CACHE_MS = 30_000;

/**
 * An extra line of the health answer (outbox, billing ...): 'ok', or a short word for what is wrong
 * ('stuck', 'failing'). Each one may read a table, so it runs at most once per CHECK_CACHE_MS, not once per
 * call: load balancers call health every few seconds.
 *
 * To add one: write `async function xCheck({ db, mailer }) { ... return 'ok' }` and add it to HEALTH_CHECKS
 * under the name the answer should carry (the admin dashboard's System Health card shows each non-ok line).
 */
export type HealthCheck = (deps: { db: Db; mailer: Mailer }) => Promise<string>;

/** The outbox, billing and jobs lines: what the System Health card reads (./system-checks.ts). */
export const HEALTH_CHECKS: Record<string, HealthCheck> = {
  outbox: outboxHealth,
  billing: billingHealth,
  jobs: jobsHealth,
};

/**
 * GET /api/health, for load balancers and the System Health card: 200 when the database answers
 * `select 1` within DATABASE_PROBE_TIMEOUT_MS (status 'ok', or 'degraded' when an extra check is not ok);
 * 503 with status 'down' when it does not.
 */
export async function healthRoutes(app: FastifyInstance): Promise<void> {
  let cached: { at: number; lines: Record<string, string> } | null = null;

  async function checkLines(): Promise<Record<string, string>> {
    if (cached && Date.now() - cached.at < CHECK_CACHE_MS) return cached.lines;
    const names = Object.keys(HEALTH_CHECKS);
    const results = await Promise.allSettled(
      names.map((name) => HEALTH_CHECKS[name]({ db: app.db, mailer: app.mailer })),
    );
    const lines = Object.fromEntries(
      names.map((name, i) => {
        const result = results[i];
        if (result.status === 'rejected')
          app.log.warn({ err: loggableError(result.reason) }, `health check ${name} failed`);
        return [name, result.status === 'fulfilled' ? result.value : 'unknown'];
      }),
    );
    cached = { at: Date.now(), lines };
    return lines;
  }

  // Both answers are declared (lib/response-schema.ts): only these lines are ever sent.
  const answer = healthResponse(Object.keys(HEALTH_CHECKS));
  const options = {
    config: { access: 'public' as const },
    schema: { summary: "Check the server's health", response: { 200: answer, 503: answer } },
    serializerCompiler: jsonSerializerCompiler,
  };

  app.get('/api/health', options, async (_request, reply) => {
    if (!(await databaseAnswers(app.db))) {
      cached = null;
      const unknown = Object.fromEntries(Object.keys(HEALTH_CHECKS).map((name) => [name, 'unknown']));
      return reply
        .status(503)
        .header('Retry-After', '5')
        .header('Cache-Control', 'no-store')
        .send({ status: 'down', database: 'unreachable', ...unknown });
    }
    const lines = await checkLines();
    const ok = Object.values(lines).every((value) => value === 'ok');
    return reply.header('Cache-Control', 'no-store').send({ status: ok ? 'ok' : 'degraded', database: 'ok', ...lines });
  });
}
