import { accountingExportRequestSchema, accountingSettingsSchema } from '@shared/contracts/accounting';
import { idParamSchema, listQuerySchema } from '@shared/contracts/common';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sendPage } from '../../lib/http';
import { jsonSerializerCompiler } from '../../lib/response-schema';
import {
  accountingExportListResponse,
  accountingExportResponse,
  accountingSettingsResponse,
} from './accounting.response';
import {
  createExport,
  exportFileOf,
  getAccountingSettings,
  getExport,
  listExports,
  saveAccountingSettings,
} from './accounting.service';

/**
 * The accounting export (product.md section 16, decision 043): batches made, listed and downloaded by finance
 * and admins; the account codes they use, read by them and set by admins (the Settings screen's "Accounting"
 * tab).
 */
export async function accountingRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const exporting = { access: ['accounting:export'] } as const;
  // Every JSON answer is declared (lib/response-schema.ts): only these fields are ever sent. The file is not JSON.
  const answers = { serializerCompiler: jsonSerializerCompiler };
  const settings = { 200: accountingSettingsResponse };

  r.get(
    '/api/accounting/settings',
    { config: exporting, schema: { summary: 'Get the accounting settings', response: settings }, ...answers },
    () => getAccountingSettings(app.db),
  );
  r.put(
    '/api/accounting/settings',
    {
      config: { access: ['settings:write'] },
      schema: { summary: 'Update the accounting settings', body: accountingSettingsSchema, response: settings },
      ...answers,
    },
    (request) => saveAccountingSettings(app.db, request.user!, request.body),
  );

  r.get(
    '/api/accounting/exports',
    {
      config: exporting,
      schema: {
        summary: 'List accounting export batches',
        querystring: listQuerySchema,
        response: { 200: accountingExportListResponse },
      },
      ...answers,
    },
    async (request, reply) => sendPage(reply, await listExports(app.db, request.query)),
  );
  r.post(
    '/api/accounting/exports',
    {
      config: exporting,
      schema: {
        summary: 'Make an accounting export batch',
        body: accountingExportRequestSchema,
        response: { 201: accountingExportResponse },
      },
      ...answers,
    },
    async (request, reply) => reply.status(201).send(await createExport(app.db, request.user!, request.body)),
  );
  r.get(
    '/api/accounting/exports/:id',
    {
      config: exporting,
      schema: {
        summary: 'Get an accounting export batch',
        params: idParamSchema,
        response: { 200: accountingExportResponse },
      },
      ...answers,
    },
    (request) => getExport(app.db, request.params.id),
  );

  // The batch's file, the same bytes on every download.
  r.get(
    '/api/accounting/exports/:id/file',
    {
      config: exporting,
      schema: { summary: "Download an accounting export batch's file", params: idParamSchema, produces: ['text/csv'] },
    },
    async (request, reply) => {
      const file = await exportFileOf(app.db, request.params.id);
      return reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="${file.fileName}"`)
        .header('Cache-Control', 'private, no-store')
        .send(file.content);
    },
  );
}
