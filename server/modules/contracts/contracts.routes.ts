import { idParamSchema } from '@shared/contracts/common';
import {
  type ContractAction,
  cancelContractSchema,
  contractBodySchema,
  contractListQuerySchema,
} from '@shared/contracts/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sendPage } from '../../lib/http';
import {
  type ContractDeps,
  createContract,
  deleteContract,
  generatePaymentLink,
  getContract,
  listContracts,
  resendReceipt,
  transitionContract,
  updateContract,
} from './contracts.service';

export async function contractsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const read = ['contract:read:any', 'contract:read:own'] as const;
  const write = ['contract:write:any', 'contract:write:own'] as const;

  /** Links in e-mails and answers point at PUBLIC_URL, or else at the origin the request came to. */
  const deps = (request: FastifyRequest): ContractDeps => ({
    db: app.db,
    mailer: app.mailer,
    baseUrl: (app.config.PUBLIC_URL ?? `${request.protocol}://${request.host}`).replace(/\/+$/, ''),
  });

  r.get(
    '/api/contracts',
    { config: { access: read }, schema: { querystring: contractListQuerySchema } },
    async (request, reply) => sendPage(reply, await listContracts(app.db, request.user!, request.query)),
  );

  r.get('/api/contracts/:id', { config: { access: read }, schema: { params: idParamSchema } }, async (request) =>
    getContract(app.db, request.user!, request.params.id),
  );

  r.post(
    '/api/contracts',
    { config: { access: write }, schema: { body: contractBodySchema } },
    async (request, reply) => reply.status(201).send(await createContract(deps(request), request.user!, request.body)),
  );

  r.patch(
    '/api/contracts/:id',
    { config: { access: write }, schema: { params: idParamSchema, body: contractBodySchema } },
    async (request) => updateContract(deps(request), request.user!, request.params.id, request.body),
  );

  r.delete('/api/contracts/:id', { config: { access: write }, schema: { params: idParamSchema } }, async (request) => {
    await deleteContract(app.db, request.user!, request.params.id);
    return { message: 'Contract deleted' };
  });

  r.post(
    '/api/contracts/:id/generate-payment-link',
    { config: { access: write }, schema: { params: idParamSchema } },
    async (request) => generatePaymentLink(deps(request), request.user!, request.params.id),
  );

  const actions: Exclude<ContractAction, 'complete' | 'cancel'>[] = ['send', 'activate', 'pause', 'resume'];
  for (const action of actions) {
    r.post(
      `/api/contracts/:id/${action}`,
      { config: { access: write }, schema: { params: idParamSchema } },
      async (request) => transitionContract(deps(request), request.user!, request.params.id, action),
    );
  }

  r.post(
    '/api/contracts/:id/cancel',
    { config: { access: write }, schema: { params: idParamSchema, body: cancelContractSchema } },
    async (request) =>
      transitionContract(deps(request), request.user!, request.params.id, 'cancel', { reason: request.body.reason }),
  );

  r.post(
    '/api/contracts/:id/resend-receipt',
    { config: { access: write }, schema: { params: idParamSchema } },
    async (request) => resendReceipt(app.db, request.user!, request.params.id),
  );
}
