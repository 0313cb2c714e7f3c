import { idParamSchema, listQuerySchema } from '@shared/contracts/common';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sendPage } from '../../lib/http';
import { jsonSerializerCompiler } from '../../lib/response-schema';
import { outboxEmailResponse, outboxListResponse } from './outbox.response';
import { getOutboxEmail, listOutbox } from './outbox.service';

/** GET /api/outbox: every e-mail the product sent or keeps, newest first (admin-level). */
export async function outboxRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/outbox',
    {
      config: { access: ['outbox:read'] },
      schema: {
        summary: 'List the e-mails sent and queued',
        querystring: listQuerySchema,
        response: { 200: outboxListResponse },
      },
      // The answer is declared (lib/response-schema.ts): only these fields are ever sent.
      serializerCompiler: jsonSerializerCompiler,
    },
    async (request, reply) => sendPage(reply, await listOutbox(app.db, request.query)),
  );

  // One message opened on the Outbox screen: what was sent, links masked as in the list.
  r.get(
    '/api/outbox/:id',
    {
      config: { access: ['outbox:read'] },
      schema: { summary: 'Get an e-mail of the outbox', params: idParamSchema, response: { 200: outboxEmailResponse } },
      serializerCompiler: jsonSerializerCompiler,
    },
    async (request) => getOutboxEmail(app.db, request.params.id),
  );
}
