import { idParamSchema, listQuerySchema } from '@shared/contracts/common';
import {
  DELIVERY_MESSAGES,
  deliveryBodySchema,
  deliveryParamsSchema,
  deliveryPushSchema,
  MAX_IMPORT_BYTES,
} from '@shared/contracts/delivery';
import type { FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { badRequest } from '../../lib/errors';
import { sendPage } from '../../lib/http';
import { publicOrigin } from '../../lib/public-url';
import { jsonSerializerCompiler } from '../../lib/response-schema';
import { importDelivery } from './delivery.import';
import { pushDelivery, pushValidationError } from './delivery.push';
import {
  deliveryImportResponse,
  deliveryListResponse,
  deliveryPeriodResponse,
  deliveryPushResponse,
} from './delivery.response';
import { type DeliveryDeps, listClientDelivery, listContractDelivery, recordDelivery } from './delivery.service';

/**
 * Delivery of CPM lines (product.md sections 12 and 16): read by whoever sees the contract (the client its
 * own, and on the portal's performance card); recorded by staff who may change the contract, one period at a
 * time or by CSV import, and pushed as JSON by an ad server (a delivery-write API key) or staff.
 */
export async function deliveryRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const see = ['contract:read:any', 'contract:read:own', 'portal:access'] as const;
  const write = ['delivery:write:any', 'delivery:write:own'] as const;
  const answers = { serializerCompiler: jsonSerializerCompiler };
  const deps = (): DeliveryDeps => ({ db: app.db, mailer: app.mailer, baseUrl: publicOrigin(app) });

  r.get(
    '/api/contracts/:id/delivery',
    {
      config: { access: see },
      schema: {
        summary: "List a contract's delivery by period",
        params: idParamSchema,
        querystring: listQuerySchema,
        response: { 200: deliveryListResponse },
      },
      ...answers,
    },
    async (request, reply) =>
      sendPage(reply, await listContractDelivery(app.db, request.user!, request.params.id, request.query)),
  );

  r.get(
    '/api/client/performance',
    {
      config: { access: ['portal:access'] },
      schema: {
        summary: "Get the delivery of the client's contracts",
        querystring: listQuerySchema,
        response: { 200: deliveryListResponse },
      },
      ...answers,
    },
    async (request, reply) => sendPage(reply, await listClientDelivery(app.db, request.user!, request.query)),
  );

  r.put(
    '/api/contracts/:id/delivery/:lineId/:month',
    {
      config: {
        access: write,
        conflict: 'The period is settled already, or its invoice changed while the under-delivery was being credited.',
      },
      schema: {
        summary: "Record a period's delivery",
        params: deliveryParamsSchema,
        body: deliveryBodySchema,
        response: { 200: deliveryPeriodResponse },
      },
      ...answers,
    },
    async (request) => {
      const { id, lineId, month } = request.params;
      return recordDelivery(deps(), request.user!, id, lineId, month, request.body);
    },
  );

  // The push: rows the body's schema refuses are answered row by row, as a file's rows are (delivery.push.ts).
  r.post(
    '/api/delivery',
    {
      // Settling a short period issues a credit note: a retried push with its Idempotency-Key answers again.
      config: { access: write, idempotent: true, conflict: 'A row names a period that is settled already.' },
      attachValidation: true,
      bodyLimit: MAX_IMPORT_BYTES,
      schema: { summary: 'Push delivery rows', body: deliveryPushSchema, response: { 200: deliveryPushResponse } },
      ...answers,
    },
    async (request) => {
      const invalid = request.validationError;
      if (invalid) {
        throw pushValidationError(
          hasZodFastifySchemaValidationErrors(invalid) ? invalid.validation : [{ message: invalid.message }],
        );
      }
      return pushDelivery(deps(), request.user!, request.body.rows);
    },
  );

  // The import takes the CSV as the raw body, read here up to 5 MB: a larger file is refused with 400.
  await app.register(async (csv) => {
    csv.addContentTypeParser('text/csv', (_request, payload, done) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let refused = false;
      payload.on('data', (chunk: Buffer) => {
        if (refused) return;
        size += chunk.length;
        if (size > MAX_IMPORT_BYTES) {
          refused = true;
          payload.resume();
          done(badRequest(DELIVERY_MESSAGES.tooLarge), undefined);
          return;
        }
        chunks.push(chunk);
      });
      payload.on('end', () => {
        if (!refused) done(null, Buffer.concat(chunks).toString('utf8'));
      });
      payload.on('error', (error) => {
        if (!refused) done(error, undefined);
      });
    });
    csv.withTypeProvider<ZodTypeProvider>().post(
      '/api/delivery/import',
      {
        config: { access: write, idempotent: true, conflict: 'A row names a period that is settled already.' },
        bodyLimit: MAX_IMPORT_BYTES * 4,
        schema: {
          summary: 'Import delivery from a CSV file',
          documentedBody: {
            'text/csv': {
              type: 'string',
              maxLength: MAX_IMPORT_BYTES,
              description: `${DELIVERY_MESSAGES.columns}: one row per line and month; all rows are recorded, or none.`,
            },
          },
          response: { 200: deliveryImportResponse },
        },
        ...answers,
      },
      async (request) => {
        if (typeof request.body !== 'string') throw badRequest(DELIVERY_MESSAGES.csvOnly);
        return importDelivery(deps(), request.user!, request.body);
      },
    );
  });
}
