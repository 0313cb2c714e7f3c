import { idParamSchema, listQuerySchema } from '@shared/contracts/common';
import { packageSchema } from '@shared/contracts/packages';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sendPage } from '../../lib/http';
import { jsonSerializerCompiler, messageResponse } from '../../lib/response-schema';
import { packageListResponse, packageResponse } from './packages.response';
import { createPackage, deletePackage, getPackage, listPackages, replacePackage } from './packages.service';

export async function packagesRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const read = { access: ['package:read'] } as const;
  const write = { access: ['package:write'] } as const;
  // Every answer is declared (lib/response-schema.ts): only these fields are ever sent.
  const answers = { serializerCompiler: jsonSerializerCompiler };
  const pkg = { 200: packageResponse };

  r.get(
    '/api/packages',
    {
      config: read,
      schema: { summary: 'List packages', querystring: listQuerySchema, response: { 200: packageListResponse } },
      ...answers,
    },
    async (request, reply) => sendPage(reply, await listPackages(app.db, request.query)),
  );

  r.get(
    '/api/packages/:id',
    { config: read, schema: { summary: 'Get a package', params: idParamSchema, response: pkg }, ...answers },
    async (request) => getPackage(app.db, request.params.id),
  );

  r.post(
    '/api/packages',
    {
      config: write,
      schema: { summary: 'Create a package', body: packageSchema, response: { 201: packageResponse } },
      ...answers,
    },
    async (request, reply) => reply.status(201).send(await createPackage(app.db, request.user!, request.body)),
  );

  /** Replaces the package, its items included. */
  r.put(
    '/api/packages/:id',
    {
      config: write,
      schema: { summary: 'Replace a package', params: idParamSchema, body: packageSchema, response: pkg },
      ...answers,
    },
    async (request) => replacePackage(app.db, request.user!, request.params.id, request.body),
  );

  r.delete(
    '/api/packages/:id',
    {
      config: { ...write, conflict: 'Contracts use the package.' },
      schema: { summary: 'Delete a package', params: idParamSchema, response: { 200: messageResponse } },
      ...answers,
    },
    async (request) => {
      await deletePackage(app.db, request.user!, request.params.id);
      return { message: 'Package deleted' };
    },
  );
}
