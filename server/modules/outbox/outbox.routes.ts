import { listQuerySchema } from '@shared/contracts/common';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sendPage } from '../../lib/http';
import { listOutbox } from './outbox.service';

/** GET /api/outbox: every e-mail the product sent or keeps, newest first (admin-level). */
export async function outboxRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/outbox',
    { config: { access: ['outbox:read'] }, schema: { querystring: listQuerySchema } },
    async (request, reply) => sendPage(reply, await listOutbox(app.db, request.query)),
  );
}
