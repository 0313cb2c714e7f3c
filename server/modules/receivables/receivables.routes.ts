import { idParamSchema } from '@shared/contracts/common';
import { receivablesFilterSchema, receivablesQuerySchema } from '@shared/contracts/receivables';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { businessToday } from '../../lib/business-day';
import { sendPage } from '../../lib/http';
import { jsonSerializerCompiler } from '../../lib/response-schema';
import {
  customerReceivableResponse,
  receivableListResponse,
  receivablesOutlookResponse,
  receivablesSummaryResponse,
} from './receivables.response';
import {
  customerReceivable,
  exportReceivables,
  listReceivables,
  receivablesOutlook,
  receivablesSummary,
} from './receivables.service';

/** Who owes what (finance, admins, managers): the Receivables screen, its CSV, a customer's balance, the cash outlook. */
export async function receivablesRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const access = ['receivables:read'] as const;
  // Every JSON answer is declared (lib/response-schema.ts): only these fields are ever sent. The CSV is not JSON.
  const answers = { serializerCompiler: jsonSerializerCompiler };

  r.get(
    '/api/receivables',
    {
      config: { access },
      schema: {
        summary: 'List what each customer owes',
        querystring: receivablesQuerySchema,
        response: { 200: receivableListResponse },
      },
      ...answers,
    },
    async (request, reply) => sendPage(reply, await listReceivables(app.db, request.query)),
  );

  r.get(
    '/api/receivables/summary',
    {
      config: { access },
      schema: {
        summary: 'Get the receivables totals',
        querystring: receivablesFilterSchema,
        response: { 200: receivablesSummaryResponse },
      },
      ...answers,
    },
    async (request) => receivablesSummary(app.db, request.query),
  );

  r.get(
    '/api/receivables/export',
    {
      config: { access },
      schema: {
        summary: 'Export the receivables as CSV',
        querystring: receivablesFilterSchema,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const csv = await exportReceivables(app.db, request.query);
      const name = `receivables-${businessToday()}.csv`;
      return reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="${name}"`)
        .header('Cache-Control', 'no-store')
        .send(csv);
    },
  );

  r.get(
    '/api/receivables/outlook',
    {
      config: { access },
      schema: { summary: 'Get the cash outlook', response: { 200: receivablesOutlookResponse } },
      ...answers,
    },
    async () => receivablesOutlook(app.db),
  );

  r.get(
    '/api/receivables/customers/:id',
    {
      config: { access },
      schema: {
        summary: 'Get what a customer owes',
        params: idParamSchema,
        response: { 200: customerReceivableResponse },
      },
      ...answers,
    },
    async (request) => customerReceivable(app.db, request.params.id),
  );
}
