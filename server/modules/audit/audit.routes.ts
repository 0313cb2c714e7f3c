import { listQuerySchema } from '@shared/contracts/common';
import { type AuditEvent, auditQuerySchema } from '@shared/contracts/dashboard';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { auditEvents, users } from '../../db/schema';
import { sendPage } from '../../lib/http';

/** GET /api/audit: the audit trail, newest first, filterable by entity and record (admin-level). */
export async function auditRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/audit',
    { config: { access: ['audit:read'] }, schema: { querystring: listQuerySchema.extend(auditQuerySchema.shape) } },
    async (request, reply) => {
      const { entity, entityId, limit, offset } = request.query;
      const where = and(
        entity ? eq(auditEvents.entity, entity) : undefined,
        entityId ? eq(auditEvents.entityId, entityId) : undefined,
      );
      const [rows, [{ total }]] = await Promise.all([
        app.db
          .select({
            id: auditEvents.id,
            action: auditEvents.action,
            entity: auditEvents.entity,
            entityId: auditEvents.entityId,
            actorId: auditEvents.actorId,
            actorName: sql<string | null>`${users.firstName} || ' ' || ${users.lastName}`,
            createdAt: auditEvents.createdAt,
          })
          .from(auditEvents)
          .leftJoin(users, eq(users.id, auditEvents.actorId))
          .where(where)
          .orderBy(desc(auditEvents.createdAt), desc(auditEvents.id))
          .limit(limit)
          .offset(offset),
        app.db.select({ total: count() }).from(auditEvents).where(where),
      ]);
      const events: AuditEvent[] = rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
      return sendPage(reply, { rows: events, total });
    },
  );
}
