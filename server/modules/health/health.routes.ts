import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';

/** Database reachability and the e-mail outbox state, for load balancers and the System Health card. */
export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get('/api/health', { config: { access: 'public' } }, async (_request, reply) => {
    try {
      const result = await app.db.execute(
        sql`select count(*) filter (where status = 'failed')::int as failed,
                   count(*) filter (where status = 'queued' and next_attempt_at < now() - interval '1 hour')::int as stuck
            from outbox_emails`,
      );
      const row = (result as unknown as { rows: { failed: number; stuck: number }[] }).rows[0];
      const outboxOk = app.mailer.smtpEnabled ? row.failed === 0 && row.stuck === 0 : true;
      return { status: outboxOk ? 'ok' : 'degraded', database: 'ok', outbox: outboxOk ? 'ok' : 'stuck' };
    } catch {
      return reply.status(503).send({ status: 'down', database: 'unreachable', outbox: 'unknown' });
    }
  });
}
