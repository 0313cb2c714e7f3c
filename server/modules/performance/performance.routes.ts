import { idParamSchema, listQuerySchema } from '@shared/contracts/common';
import { performanceBodySchema, performanceParamsSchema } from '@shared/contracts/performance';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sendPage } from '../../lib/http';
import { jsonSerializerCompiler, messageResponse } from '../../lib/response-schema';
import { performanceEntryResponse, performanceListResponse } from './performance.response';
import {
  deletePerformance,
  listClientPerformance,
  listContractPerformance,
  recordPerformance,
} from './performance.service';

/** Campaign figures per contract and month: entered by staff on the contract page, read on the portal. */
export async function performanceRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const see = ['contract:read:any', 'contract:read:own', 'portal:access'] as const;
  const write = ['performance:write'] as const;
  // Every answer is declared (lib/response-schema.ts): only these fields are ever sent.
  const answers = { serializerCompiler: jsonSerializerCompiler };
  const list = { 200: performanceListResponse };

  r.get(
    '/api/contracts/:id/performance',
    {
      config: { access: see },
      schema: { params: idParamSchema, querystring: listQuerySchema, response: list },
      ...answers,
    },
    async (request, reply) =>
      sendPage(reply, await listContractPerformance(app.db, request.user!, request.params.id, request.query)),
  );

  r.get(
    '/api/client/performance',
    { config: { access: ['portal:access'] }, schema: { querystring: listQuerySchema, response: list }, ...answers },
    async (request, reply) => sendPage(reply, await listClientPerformance(app.db, request.user!, request.query)),
  );

  r.put(
    '/api/contracts/:id/performance/:month',
    {
      config: { access: write },
      schema: {
        params: performanceParamsSchema,
        body: performanceBodySchema,
        response: { 200: performanceEntryResponse },
      },
      ...answers,
    },
    async (request) => recordPerformance(app.db, request.user!, request.params.id, request.params.month, request.body),
  );

  r.delete(
    '/api/contracts/:id/performance/:month',
    {
      config: { access: write },
      schema: { params: performanceParamsSchema, response: { 200: messageResponse } },
      ...answers,
    },
    async (request) => {
      await deletePerformance(app.db, request.user!, request.params.id, request.params.month);
      return { message: 'Performance figures deleted' };
    },
  );
}
