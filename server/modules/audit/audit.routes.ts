import { auditQuerySchema } from '@shared/contracts/audit';
import { listQuerySchema } from '@shared/contracts/common';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sendPage } from '../../lib/http';
import { jsonSerializerCompiler } from '../../lib/response-schema';
import { auditListResponse } from './audit.response';
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
      schema: {
        summary: 'List audit events',
        querystring: listQuerySchema.pick({ limit: true, offset: true }).extend(auditQuerySchema.shape),
        response: { 200: auditListResponse },
      },
      // The answer is declared (lib/response-schema.ts): only these fields are ever sent.
      serializerCompiler: jsonSerializerCompiler,
    },
    async (request, reply) => sendPage(reply, await listAudit(app.db, request.query)),
  );
}
