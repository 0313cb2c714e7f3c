import { idParamSchema, listQuerySchema } from '@shared/contracts/common';
import { packageSchema } from '@shared/contracts/packages';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sendPage } from '../../lib/http';
import { createPackage, deletePackage, getPackage, listPackages, replacePackage } from './packages.service';

export async function packagesRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const read = { access: ['package:read'] } as const;
  const write = { access: ['package:write'] } as const;

  r.get('/api/packages', { config: read, schema: { querystring: listQuerySchema } }, async (request, reply) =>
    sendPage(reply, await listPackages(app.db, request.query)),
  );

  r.get('/api/packages/:id', { config: read, schema: { params: idParamSchema } }, async (request) =>
    getPackage(app.db, request.params.id),
  );

  r.post('/api/packages', { config: write, schema: { body: packageSchema } }, async (request, reply) => {
    const created = await createPackage(app.db, request.user!, request.body);
    return reply.status(201).send(created);
  });

  /** Replaces the package, its items included. */
  r.put(
    '/api/packages/:id',
    { config: write, schema: { params: idParamSchema, body: packageSchema } },
    async (request) => replacePackage(app.db, request.user!, request.params.id, request.body),
  );

  r.delete('/api/packages/:id', { config: write, schema: { params: idParamSchema } }, async (request) => {
    await deletePackage(app.db, request.user!, request.params.id);
    return { message: 'Package deleted' };
  });
}
