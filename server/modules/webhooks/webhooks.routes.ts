import { idParamSchema, listQuerySchema } from '@shared/contracts/common';
import { createWebhookSchema, updateWebhookSchema, webhookDeliveryParamsSchema } from '@shared/contracts/webhooks';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sendPage } from '../../lib/http';
import { jsonSerializerCompiler, messageResponse } from '../../lib/response-schema';
import {
  createdWebhookResponse,
  webhookDeliveryListResponse,
  webhookDeliveryResponse,
  webhookListResponse,
  webhookResponse,
  webhookSecretResponse,
} from './webhooks.response';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhookDeliveries,
  listWebhooks,
  resendWebhookDelivery,
  revealWebhookSecret,
  rotateWebhookSecret,
  sendWebhookTest,
  updateWebhook,
} from './webhooks.service';

/**
 * Webhook endpoints (product.md section 16, decision 042): admins register, change, disable and delete them,
 * rotate and reveal their secrets, read their delivery log, resend a delivery and send a test event. API keys
 * are refused (plugins/authorize.ts: credentials of other systems are for signed-in people).
 */
export async function webhooksRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const config = { access: ['webhook:manage'] } as const;
  const answers = { serializerCompiler: jsonSerializerCompiler };
  const deps = { db: app.db };

  r.get(
    '/api/webhooks',
    {
      config,
      schema: {
        summary: 'List webhook endpoints',
        querystring: listQuerySchema,
        response: { 200: webhookListResponse },
      },
      ...answers,
    },
    async (request, reply) => sendPage(reply, await listWebhooks(app.db, request.query)),
  );

  r.post(
    '/api/webhooks',
    {
      config,
      schema: {
        summary: 'Register a webhook endpoint',
        body: createWebhookSchema,
        response: { 201: createdWebhookResponse },
      },
      ...answers,
    },
    async (request, reply) => reply.status(201).send(await createWebhook(deps, request.user!, request.body)),
  );

  r.get(
    '/api/webhooks/:id',
    {
      config,
      schema: { summary: 'Get a webhook endpoint', params: idParamSchema, response: { 200: webhookResponse } },
      ...answers,
    },
    (request) => getWebhook(app.db, request.params.id),
  );

  r.patch(
    '/api/webhooks/:id',
    {
      config,
      schema: {
        summary: 'Update a webhook endpoint',
        params: idParamSchema,
        body: updateWebhookSchema,
        response: { 200: webhookResponse },
      },
      ...answers,
    },
    (request) => updateWebhook(deps, request.user!, request.params.id, request.body),
  );

  r.delete(
    '/api/webhooks/:id',
    {
      config,
      schema: { summary: 'Delete a webhook endpoint', params: idParamSchema, response: { 200: messageResponse } },
      ...answers,
    },
    async (request) => {
      await deleteWebhook(app.db, request.user!, request.params.id);
      return { message: 'Webhook endpoint deleted' };
    },
  );

  r.post(
    '/api/webhooks/:id/rotate-secret',
    {
      config,
      schema: {
        summary: "Rotate a webhook endpoint's secret",
        params: idParamSchema,
        response: { 200: webhookSecretResponse },
      },
      ...answers,
    },
    (request) => rotateWebhookSecret(app.db, request.user!, request.params.id),
  );

  r.get(
    '/api/webhooks/:id/secret',
    {
      config,
      schema: {
        summary: "Reveal a webhook endpoint's secret",
        params: idParamSchema,
        response: { 200: webhookSecretResponse },
      },
      ...answers,
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return revealWebhookSecret(app.db, request.user!, request.params.id);
    },
  );

  r.get(
    '/api/webhooks/:id/deliveries',
    {
      config,
      schema: {
        summary: "List a webhook endpoint's deliveries",
        params: idParamSchema,
        querystring: listQuerySchema,
        response: { 200: webhookDeliveryListResponse },
      },
      ...answers,
    },
    async (request, reply) => sendPage(reply, await listWebhookDeliveries(app.db, request.params.id, request.query)),
  );

  r.post(
    '/api/webhooks/:id/deliveries/:deliveryId/resend',
    {
      config,
      schema: {
        summary: 'Resend a webhook delivery',
        params: webhookDeliveryParamsSchema,
        response: { 202: webhookDeliveryResponse },
      },
      ...answers,
    },
    async (request, reply) =>
      reply
        .status(202)
        .send(await resendWebhookDelivery(app.db, request.user!, request.params.id, request.params.deliveryId)),
  );

  r.post(
    '/api/webhooks/:id/test',
    {
      config: { ...config, conflict: 'The endpoint is disabled.' },
      schema: {
        summary: 'Send a test event to a webhook endpoint',
        params: idParamSchema,
        response: { 202: webhookDeliveryResponse },
      },
      ...answers,
    },
    async (request, reply) => reply.status(202).send(await sendWebhookTest(app.db, request.user!, request.params.id)),
  );
}
