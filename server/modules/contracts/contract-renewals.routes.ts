import { idParamSchema } from '@shared/contracts/common';
import { renewalListQuerySchema } from '@shared/contracts/renewals';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sendPage } from '../../lib/http';
import { publicOrigin } from '../../lib/public-url';
import { jsonSerializerCompiler } from '../../lib/response-schema';
import { listRenewalsDue, renewContract } from './contract-renewals.service';
import { contractResponse, renewalDueListResponse } from './contracts.response';

/** Renewals (product.md section 15): the contracts due for renewal, and renewing one into a draft. */
export async function contractRenewalsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // As for reading contracts: a rep their own, managers, admins and finance every contract.
  r.get(
    '/api/renewals',
    {
      config: { access: ['contract:read:any', 'contract:read:own'] },
      schema: {
        summary: 'List the contracts due for renewal',
        querystring: renewalListQuerySchema,
        response: { 200: renewalDueListResponse },
      },
      serializerCompiler: jsonSerializerCompiler,
    },
    async (request, reply) => sendPage(reply, await listRenewalsDue(app.db, request.user!, request.query)),
  );

  // As for editing a contract: a rep their own, managers and admins every contract.
  r.post(
    '/api/contracts/:id/renew',
    {
      config: {
        access: ['contract:write:any', 'contract:write:own'],
        conflict: 'The contract has no term, is not running, or has been renewed already.',
      },
      schema: { summary: 'Renew a contract into a draft', params: idParamSchema, response: { 201: contractResponse } },
      serializerCompiler: jsonSerializerCompiler,
    },
    async (request, reply) =>
      reply.status(201).send(
        await renewContract(
          {
            db: app.db,
            mailer: app.mailer,
            baseUrl: publicOrigin(app),
            storage: app.storage,
          },
          request.user!,
          request.params.id,
        ),
      ),
  );
}
