import { listQuerySchema } from '@shared/contracts/common';
import { count, desc } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { outboxEmails } from '../../db/schema';
import { sendPage } from '../../lib/http';

/** GET /api/outbox: every e-mail the product sent or keeps, newest first (admin-level). */
export async function outboxRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/outbox',
    { config: { access: ['outbox:read'] }, schema: { querystring: listQuerySchema } },
    async (request, reply) => {
      const { limit, offset } = request.query;
      const [rows, [{ total }]] = await Promise.all([
        app.db.select().from(outboxEmails).orderBy(desc(outboxEmails.createdAt)).limit(limit).offset(offset),
        app.db.select({ total: count() }).from(outboxEmails),
      ]);
      return sendPage(reply, {
        total,
        rows: rows.map((m) => ({
          id: m.id,
          to: m.to,
          subject: m.subject,
          status: m.status,
          attempts: m.attempts,
          lastError: m.lastError,
          text: m.text,
          html: m.html,
          entity: m.entity,
          entityId: m.entityId,
          createdAt: m.createdAt.toISOString(),
          sentAt: m.sentAt?.toISOString() ?? null,
        })),
      });
    },
  );
}
