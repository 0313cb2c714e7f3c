import { createApiKeySchema } from '@shared/contracts/api-keys';
import { idParamSchema, listQuerySchema } from '@shared/contracts/common';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sendPage } from '../../lib/http';
import { jsonSerializerCompiler } from '../../lib/response-schema';
import { apiKeyListResponse, apiKeyResponse, createdApiKeyResponse } from './api-keys.response';
import { createApiKey, listKeys, revokeApiKey } from './api-keys.service';

/**
 * API keys of the business's other systems (product.md section 16): admins list, make and revoke them on the
 * Settings screen's "API keys" tab. A key never manages keys (plugins/authorize.ts refuses it).
 */
export async function apiKeysRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const config = { access: ['api-key:manage'] } as const;
  const answers = { serializerCompiler: jsonSerializerCompiler };

  r.get(
    '/api/api-keys',
    {
      config,
      schema: { summary: 'List API keys', querystring: listQuerySchema, response: { 200: apiKeyListResponse } },
      ...answers,
    },
    async (request, reply) => sendPage(reply, await listKeys(app.db, request.query)),
  );

  r.post(
    '/api/api-keys',
    {
      config,
      schema: { summary: 'Create an API key', body: createApiKeySchema, response: { 201: createdApiKeyResponse } },
      ...answers,
    },
    async (request, reply) => reply.status(201).send(await createApiKey(app.db, request.user!, request.body)),
  );

  r.post(
    '/api/api-keys/:id/revoke',
    {
      config: { ...config, conflict: 'The key is already revoked.' },
      schema: { summary: 'Revoke an API key', params: idParamSchema, response: { 200: apiKeyResponse } },
      ...answers,
    },
    (request) => revokeApiKey(app.db, request.user!, request.params.id),
  );
}
