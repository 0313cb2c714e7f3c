import { idParamSchema, listQuerySchema } from '@shared/contracts/common';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sendPage } from '../../lib/http';
import { jsonSerializerCompiler } from '../../lib/response-schema';
import { contractScheduleResponse } from '../billing/billing.response';
import {
  clientContractDetailResponse,
  clientContractListResponse,
  clientSummaryResponse,
} from './client-portal.response';
import {
  getClientContract,
  getClientContractSchedule,
  getClientSummary,
  listClientContracts,
} from './client-portal.service';

/**
 * The client portal's own routes: the signed-in client's figures and contracts (its linked customer's,
 * never drafts). Another customer's contract answers 404. Invoices, creatives and figures have their own.
 */
export async function clientPortalRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const access = ['portal:access'] as const;
  // Every answer is declared (lib/response-schema.ts): only these fields are ever sent.
  const answers = { serializerCompiler: jsonSerializerCompiler };

  r.get(
    '/api/client/summary',
    {
      config: { access },
      schema: { summary: "Get the client's account summary", response: { 200: clientSummaryResponse } },
      ...answers,
    },
    async (request) => getClientSummary(app.db, request.user!),
  );

  r.get(
    '/api/client/contracts',
    {
      config: { access },
      schema: {
        summary: "List the client's contracts",
        querystring: listQuerySchema,
        response: { 200: clientContractListResponse },
      },
      ...answers,
    },
    async (request, reply) => sendPage(reply, await listClientContracts(app.db, request.user!, request.query)),
  );

  r.get(
    '/api/client/contracts/:id',
    {
      config: { access },
      schema: {
        summary: "Get one of the client's contracts",
        params: idParamSchema,
        response: { 200: clientContractDetailResponse },
      },
      ...answers,
    },
    async (request) => getClientContract(app.db, request.user!, request.params.id),
  );

  // The contract's upcoming invoices from the billing engine, as the staff's contract page shows them.
  r.get(
    '/api/client/contracts/:id/schedule',
    {
      config: { access },
      schema: {
        summary: "Get the billing schedule of one of the client's contracts",
        params: idParamSchema,
        response: { 200: contractScheduleResponse },
      },
      ...answers,
    },
    async (request) => getClientContractSchedule(app.db, request.user!, request.params.id),
  );
}
