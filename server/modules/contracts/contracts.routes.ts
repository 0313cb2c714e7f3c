import { idParamSchema } from '@shared/contracts/common';
import {
  addContractLineSchema,
  cancelContractSchema,
  contractBodySchema,
  contractListQuerySchema,
  endContractLineSchema,
} from '@shared/contracts/contract-api';
import type { ContractAction } from '@shared/contracts/contract-lifecycle';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendPage } from '../../lib/http';
import { publicOrigin } from '../../lib/public-url';
import { jsonSerializerCompiler, messageResponse } from '../../lib/response-schema';
import {
  addContractLine,
  endContractLine,
  previewAddContractLine,
  previewEndContractLine,
} from './contract-amendments.service';
import {
  amendmentPreviewResponse,
  contractListResponse,
  contractResponse,
  paymentLinkResponse,
} from './contracts.response';
import {
  type ContractDeps,
  createContract,
  deleteContract,
  generatePaymentLink,
  getContract,
  listContracts,
  resendContract,
  transitionContract,
  updateContract,
} from './contracts.service';

export async function contractsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const read = ['contract:read:any', 'contract:read:own'] as const;
  const write = ['contract:write:any', 'contract:write:own'] as const;

  /** Links in e-mails and answers point at the configured public origin, never at request headers. */
  const deps = (_request?: FastifyRequest): ContractDeps => ({
    db: app.db,
    mailer: app.mailer,
    baseUrl: publicOrigin(app),
    storage: app.storage,
  });

  // The two hottest reads answer through fast-json-stringify (lib/response-schema.ts).
  r.get(
    '/api/contracts',
    {
      config: { access: read },
      schema: {
        summary: 'List contracts',
        querystring: contractListQuerySchema,
        response: { 200: contractListResponse },
      },
      serializerCompiler: jsonSerializerCompiler,
    },
    async (request, reply) =>
      sendPage(reply, await listContracts(app.db, request.user!, request.query, publicOrigin(app))),
  );

  // ui-spec.md section 7's "my" variant of the list (the sales view): the same list as ?mine=true, that is
  // only the contracts the caller is the sales rep of (docs/decisions/018-ui-spec-conformance.md).
  r.get(
    '/api/contracts/my',
    {
      config: { access: read },
      schema: {
        summary: 'List the contracts you sell',
        querystring: contractListQuerySchema,
        response: { 200: contractListResponse },
      },
      serializerCompiler: jsonSerializerCompiler,
    },
    async (request, reply) =>
      sendPage(reply, await listContracts(app.db, request.user!, { ...request.query, mine: true }, publicOrigin(app))),
  );

  r.get(
    '/api/contracts/:id',
    {
      config: { access: read },
      schema: { summary: 'Get a contract', params: idParamSchema, response: { 200: contractResponse } },
      serializerCompiler: jsonSerializerCompiler,
    },
    async (request) => getContract(app.db, request.user!, request.params.id, publicOrigin(app)),
  );

  // Every other answer is declared too (lib/response-schema.ts): what is not declared is never sent.
  const answers = { serializerCompiler: jsonSerializerCompiler };
  const contract = { 200: contractResponse };

  r.post(
    '/api/contracts',
    {
      config: {
        access: write,
        idempotent: true,
        conflict:
          'An inventory product it sells is sold out on one of its days (when it is sent or made active at once).',
      },
      schema: { summary: 'Create a contract', body: contractBodySchema, response: { 201: contractResponse } },
      ...answers,
    },
    async (request, reply) => reply.status(201).send(await createContract(deps(request), request.user!, request.body)),
  );

  r.patch(
    '/api/contracts/:id',
    {
      config: {
        access: write,
        conflict:
          'The contract can no longer be edited (payment processing has started, or it is paused, canceled or completed), the status asked for cannot follow its current one, or an inventory product is sold out on one of its days.',
      },
      schema: { summary: 'Update a contract', params: idParamSchema, body: contractBodySchema, response: contract },
      ...answers,
    },
    async (request) => updateContract(deps(request), request.user!, request.params.id, request.body),
  );

  r.delete(
    '/api/contracts/:id',
    {
      config: {
        access: write,
        conflict:
          'The contract is sent, paused or completed, payment processing has started, or it has invoices: cancel it instead.',
      },
      schema: { summary: 'Delete a contract', params: idParamSchema, response: { 200: messageResponse } },
      ...answers,
    },
    async (request) => {
      await deleteContract(app.db, request.user!, request.params.id);
      return { message: 'Contract deleted' };
    },
  );

  r.post(
    '/api/contracts/:id/generate-payment-link',
    {
      config: {
        access: write,
        conflict: 'The contract is canceled or completed, is paid through the Client Portal, or bills nothing.',
      },
      schema: {
        summary: "Generate a contract's payment link",
        params: idParamSchema,
        response: { 200: paymentLinkResponse },
      },
      ...answers,
    },
    async (request) => generatePaymentLink(deps(request), request.user!, request.params.id),
  );

  const actions: Record<Exclude<ContractAction, 'complete' | 'cancel'>, string> = {
    send: 'Send a contract to its customer',
    activate: 'Activate a contract',
    pause: 'Pause a contract',
    resume: 'Resume a paused contract',
  };
  const refusals: Record<keyof typeof actions, string> = {
    send: 'The contract is not a draft or sent, it has no customer, its insertion order is already with the customer or signed, or an inventory product is sold out on one of its days.',
    activate: 'The contract is not a draft or sent, or an inventory product is sold out on one of its days.',
    pause: 'Only an active contract can be paused.',
    resume: 'Only a paused contract can be resumed.',
  };
  for (const [action, summary] of Object.entries(actions) as [keyof typeof actions, string][]) {
    // Activate and resume bill the contract at once: money, so they take an Idempotency-Key.
    const billsNow = action === 'activate' || action === 'resume';
    r.post(
      `/api/contracts/:id/${action}`,
      {
        config: { access: write, idempotent: billsNow, conflict: refusals[action] },
        schema: { summary, params: idParamSchema, response: contract },
        ...answers,
      },
      async (request) => transitionContract(deps(request), request.user!, request.params.id, action),
    );
  }

  // A sent contract e-mailed to its customer again.
  r.post(
    '/api/contracts/:id/resend',
    {
      config: { access: write, conflict: 'Only a sent contract can be sent again, and only to a customer it has.' },
      schema: { summary: 'Send a contract to its customer again', params: idParamSchema, response: contract },
      ...answers,
    },
    async (request) => resendContract(deps(request), request.user!, request.params.id),
  );

  r.post(
    '/api/contracts/:id/cancel',
    {
      config: { access: write, conflict: 'The contract is already canceled or completed.' },
      schema: { summary: 'Cancel a contract', params: idParamSchema, body: cancelContractSchema, response: contract },
      ...answers,
    },
    async (request) =>
      transitionContract(deps(request), request.user!, request.params.id, 'cancel', { reason: request.body.reason }),
  );

  // Amendments of a running contract: a line added or ended from today (product.md section 11).
  r.post(
    '/api/contracts/:id/lines',
    {
      config: {
        access: write,
        idempotent: true,
        conflict:
          "The contract's lines cannot be amended (it can still be edited, or it is not sent, active or paused), or an inventory product is sold out on one of the days asked for.",
      },
      schema: {
        summary: 'Add a line to a running contract',
        params: idParamSchema,
        body: addContractLineSchema,
        response: contract,
      },
      ...answers,
    },
    async (request) => {
      const amended = await addContractLine(deps(request), request.user!, request.params.id, request.body);
      app.mailer.kick(app.db);
      return amended;
    },
  );

  r.post(
    '/api/contracts/:id/lines/:lineId/end',
    {
      config: {
        access: write,
        idempotent: true,
        conflict:
          "The line already ends by then, or the contract's lines cannot be amended (it can still be edited, or it is not sent, active or paused).",
      },
      schema: {
        summary: "End a running contract's line",
        params: lineParamsSchema,
        body: endContractLineSchema,
        response: contract,
      },
      ...answers,
    },
    async (request) => {
      const { id, lineId } = request.params;
      const amended = await endContractLine(deps(request), request.user!, id, lineId, request.body);
      app.mailer.kick(app.db);
      return amended;
    },
  );

  // What an amendment will do, before it is confirmed: the same body, access and checks as the amendment,
  // which runs and is rolled back (nothing is written, no one is told).
  const preview = { 200: amendmentPreviewResponse };
  r.post(
    '/api/contracts/:id/lines/preview',
    {
      config: {
        access: write,
        conflict:
          "The amendment it previews would be refused: the contract's lines cannot be amended, or an inventory product is sold out on one of the days asked for.",
      },
      schema: {
        summary: 'Preview adding a line to a running contract',
        params: idParamSchema,
        body: addContractLineSchema,
        response: preview,
      },
      ...answers,
    },
    async (request) => previewAddContractLine(deps(request), request.user!, request.params.id, request.body),
  );

  r.post(
    '/api/contracts/:id/lines/:lineId/end/preview',
    {
      config: {
        access: write,
        conflict:
          "The amendment it previews would be refused: the line already ends by then, or the contract's lines cannot be amended.",
      },
      schema: {
        summary: "Preview ending a running contract's line",
        params: lineParamsSchema,
        body: endContractLineSchema,
        response: preview,
      },
      ...answers,
    },
    async (request) =>
      previewEndContractLine(deps(request), request.user!, request.params.id, request.params.lineId, request.body),
  );
}

const lineParamsSchema = idParamSchema.extend({ lineId: z.string().uuid('Not a valid id') });
