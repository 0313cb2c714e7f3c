import { idParamSchema } from '@shared/contracts/common';
import {
  dealCreateSchema,
  dealListQuerySchema,
  dealLoseSchema,
  dealMoveSchema,
  dealPatchSchema,
  pipelineSettingsSchema,
} from '@shared/contracts/deals';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendPage } from '../../lib/http';
import { publicOrigin } from '../../lib/public-url';
import { jsonSerializerCompiler, messageResponse } from '../../lib/response-schema';
import { registerAfterRenewal } from '../contracts/contract-renewals.service';
import { followContracts } from './deals.follow';
import { dealListResponse, dealResponse, pipelineSettingsResponse, pipelineSummaryResponse } from './deals.response';
import {
  createDeal,
  createDealContract,
  deleteDeal,
  getDeal,
  getPipelineSettings,
  listDeals,
  loseDeal,
  moveDeal,
  pipelineSummary,
  savePipelineSettings,
  updateDeal,
} from './deals.service';
import { linkRenewalDeal } from './renewal-deals.service';

/** DELETE's optional version: the deal as the caller last saw it. */
const deleteQuerySchema = z.object({
  version: z.coerce
    .number({ message: 'version must be a whole number' })
    .int('version must be a whole number')
    .min(1, 'version must be a whole number')
    .optional(),
});

/** The sales pipeline (product.md section 19): deals, their moves and contract, the board's summary, the settings. */
export async function dealsRoutes(app: FastifyInstance): Promise<void> {
  followContracts();
  registerAfterRenewal(linkRenewalDeal);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deals = { access: ['deal:any', 'deal:own'] } as const;
  const answers = { serializerCompiler: jsonSerializerCompiler };
  const deal = { 200: dealResponse };
  const stale = 'The deal was changed meanwhile (its version), or its stage does not allow this.';

  r.get(
    '/api/deals',
    {
      config: deals,
      schema: { summary: 'List deals', querystring: dealListQuerySchema, response: { 200: dealListResponse } },
      ...answers,
    },
    async (request, reply) => sendPage(reply, await listDeals(app.db, request.user!, request.query)),
  );

  r.post(
    '/api/deals',
    {
      config: deals,
      schema: { summary: 'Create a deal', body: dealCreateSchema, response: { 201: dealResponse } },
      ...answers,
    },
    async (request, reply) => reply.status(201).send(await createDeal(app.db, request.user!, request.body)),
  );

  r.get(
    '/api/deals/:id',
    { config: deals, schema: { summary: 'Get a deal', params: idParamSchema, response: deal }, ...answers },
    async (request) => getDeal(app.db, request.user!, request.params.id),
  );

  r.patch(
    '/api/deals/:id',
    {
      config: { ...deals, conflict: stale },
      schema: { summary: 'Change a deal', params: idParamSchema, body: dealPatchSchema, response: deal },
      ...answers,
    },
    async (request) => updateDeal(app.db, request.user!, request.params.id, request.body),
  );

  r.delete(
    '/api/deals/:id',
    {
      config: { ...deals, conflict: 'Only an open deal without a contract can be deleted.' },
      schema: {
        summary: 'Delete an open deal without a contract',
        params: idParamSchema,
        querystring: deleteQuerySchema,
        response: { 200: messageResponse },
      },
      ...answers,
    },
    async (request) => {
      await deleteDeal(app.db, request.user!, request.params.id, request.query.version);
      return { message: 'Deal deleted' };
    },
  );

  r.post(
    '/api/deals/:id/move',
    {
      config: { ...deals, conflict: stale },
      schema: { summary: 'Move a deal to another stage', params: idParamSchema, body: dealMoveSchema, response: deal },
      ...answers,
    },
    async (request) => moveDeal(app.db, request.user!, request.params.id, request.body),
  );

  r.post(
    '/api/deals/:id/lose',
    {
      config: { ...deals, conflict: stale },
      schema: {
        summary: 'Mark a deal lost, with its reason',
        params: idParamSchema,
        body: dealLoseSchema,
        response: deal,
      },
      ...answers,
    },
    async (request) => loseDeal(app.db, request.user!, request.params.id, request.body),
  );

  r.post(
    '/api/deals/:id/contract',
    {
      config: { ...deals, conflict: 'The deal already has a contract, or is closed.' },
      schema: { summary: "Draft the deal's contract", params: idParamSchema, response: { 201: dealResponse } },
      ...answers,
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await createDealContract(
            { db: app.db, mailer: app.mailer, baseUrl: publicOrigin(app), storage: app.storage },
            request.user!,
            request.params.id,
          ),
        ),
  );

  r.get(
    '/api/pipeline/summary',
    {
      config: deals,
      schema: {
        summary: "Each stage's count, total and weighted total",
        querystring: dealListQuerySchema,
        response: { 200: pipelineSummaryResponse },
      },
      ...answers,
    },
    async (request) => pipelineSummary(app.db, request.user!, request.query),
  );

  r.get(
    '/api/settings/pipeline',
    {
      config: { access: ['deal:any', 'deal:own', 'pipeline:settings'] },
      schema: {
        summary: "The pipeline's stages, lost reasons and rottenDays",
        response: { 200: pipelineSettingsResponse },
      },
      ...answers,
    },
    async () => getPipelineSettings(app.db),
  );

  r.put(
    '/api/settings/pipeline',
    {
      config: { access: ['pipeline:settings'], conflict: 'A stage removed still holds deals.' },
      schema: {
        summary: "Save the pipeline's stages, lost reasons and rottenDays",
        body: pipelineSettingsSchema,
        response: { 200: pipelineSettingsResponse },
      },
      ...answers,
    },
    async (request) => savePipelineSettings(app.db, request.user!, request.body),
  );
}
