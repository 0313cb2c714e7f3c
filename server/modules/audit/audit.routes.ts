import { auditQuerySchema } from '@shared/contracts/audit';
import { listQuerySchema } from '@shared/contracts/common';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sendPage } from '../../lib/http';
import { listAudit } from './audit.service';

/**
 * GET /api/audit: the audit trail (admin-level), newest first, filterable by entity, record, user and
 * date, with each event's field-level changes; the total in X-Total-Count.
 */
export async function auditRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/audit',
    {
      config: { access: ['audit:read'] },
      schema: { querystring: listQuerySchema.pick({ limit: true, offset: true }).extend(auditQuerySchema.shape) },
    },
    async (request, reply) => sendPage(reply, await listAudit(app.db, request.query)),
  );
}
