import {
  approvePayoutSchema,
  commissionExportQuerySchema,
  commissionListQuerySchema,
  commissionSummaryQuerySchema,
  payoutListQuerySchema,
  rejectPayoutSchema,
  requestPayoutSchema,
} from '@shared/contracts/commissions';
import { idParamSchema } from '@shared/contracts/common';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { businessToday } from '../../lib/business-day';
import { sendPage } from '../../lib/http';
import { publicOrigin } from '../../lib/public-url';
import { jsonSerializerCompiler } from '../../lib/response-schema';
import {
  commissionListResponse,
  commissionRepListResponse,
  commissionSummaryResponse,
  payoutListResponse,
  payoutResponse,
} from './commissions.response';
import {
  approvePayout,
  disbursePayout,
  exportCommissions,
  getPayout,
  getSummary,
  listCommissions,
  listPayouts,
  listReps,
  type PayoutDeps,
  rejectPayout,
  requestPayout,
} from './commissions.service';

export async function commissionsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const read = ['commission:read:any', 'commission:read:own'] as const;
  const review = ['payout:review'] as const;
  const deps = (): PayoutDeps => ({ db: app.db, mailer: app.mailer, baseUrl: publicOrigin(app) });
  // Every JSON answer is declared (lib/response-schema.ts): only these fields are ever sent. The CSV is not JSON.
  const answers = { serializerCompiler: jsonSerializerCompiler };
  const payout = { 200: payoutResponse };

  r.get(
    '/api/commissions/summary',
    {
      config: { access: read },
      schema: {
        summary: 'Get the commission totals',
        querystring: commissionSummaryQuerySchema,
        response: { 200: commissionSummaryResponse },
      },
      ...answers,
    },
    async (request) => getSummary(app.db, request.user!, request.query.repId),
  );

  r.get(
    '/api/commissions',
    {
      config: { access: read },
      schema: {
        summary: 'List commissions',
        querystring: commissionListQuerySchema,
        response: { 200: commissionListResponse },
      },
      ...answers,
    },
    async (request, reply) => sendPage(reply, await listCommissions(app.db, request.user!, request.query)),
  );

  r.get(
    '/api/commissions/export',
    {
      config: { access: read },
      schema: {
        summary: 'Export commissions as CSV',
        querystring: commissionExportQuerySchema,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const csv = await exportCommissions(app.db, request.user!, request.query);
      const day = businessToday();
      const name = `commissions-${request.query.status ?? 'all'}-${day}.csv`;
      return reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="${name}"`)
        .header('Cache-Control', 'no-store')
        .send(csv);
    },
  );

  r.get(
    '/api/commissions/reps',
    {
      config: { access: ['commission:read:any'] },
      schema: { summary: 'List the sales reps', response: { 200: commissionRepListResponse } },
      ...answers,
    },
    async () => listReps(app.db),
  );

  r.get(
    '/api/payouts',
    {
      config: { access: read },
      schema: { summary: 'List payouts', querystring: payoutListQuerySchema, response: { 200: payoutListResponse } },
      ...answers,
    },
    async (request, reply) => sendPage(reply, await listPayouts(app.db, request.user!, request.query)),
  );

  r.get(
    '/api/payouts/:id',
    {
      config: { access: read },
      schema: { summary: 'Get a payout', params: idParamSchema, response: payout },
      ...answers,
    },
    async (request) => getPayout(app.db, request.user!, request.params.id),
  );

  r.post(
    '/api/payouts/request',
    {
      config: {
        access: ['payout:request'],
        idempotent: true,
        conflict: 'Nothing is available to pay out, or the amount is more than is available.',
      },
      schema: { summary: 'Request a payout', body: requestPayoutSchema, response: { 201: payoutResponse } },
      ...answers,
    },
    async (request, reply) => reply.status(201).send(await requestPayout(deps(), request.user!, request.body)),
  );

  r.post(
    '/api/payouts/:id/approve',
    {
      config: {
        access: review,
        idempotent: true,
        conflict: 'The payout is no longer requested, or it changed while it was being reviewed.',
      },
      schema: { summary: 'Approve a payout', params: idParamSchema, body: approvePayoutSchema, response: payout },
      ...answers,
    },
    async (request) => approvePayout(deps(), request.user!, request.params.id, request.body),
  );

  r.post(
    '/api/payouts/:id/reject',
    {
      config: {
        access: review,
        idempotent: true,
        conflict: 'The payout is no longer requested, or it changed while it was being reviewed.',
      },
      schema: { summary: 'Reject a payout', params: idParamSchema, body: rejectPayoutSchema, response: payout },
      ...answers,
    },
    async (request) => rejectPayout(deps(), request.user!, request.params.id, request.body),
  );

  r.post(
    '/api/payouts/:id/disburse',
    {
      config: {
        access: review,
        idempotent: true,
        conflict: 'The payout is not approved, or it changed while it was being reviewed.',
      },
      schema: { summary: 'Disburse a payout', params: idParamSchema, response: payout },
      ...answers,
    },
    async (request) => disbursePayout(deps(), request.user!, request.params.id),
  );
}
