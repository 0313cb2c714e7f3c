import {
  accountingExportRequestSchema,
  accountingSettingsSchema,
  exportFileQuerySchema,
} from '@shared/contracts/accounting';
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
  exportZipOf,
  getAccountingSettings,
  getExport,
  listExports,
  saveAccountingSettings,
} from './accounting.service';

/**
 * The accounting export (product.md sections 16 and 17, decisions 043 and 050): batches made, listed and
 * downloaded (part by part, or all parts in one zip) by finance and admins; the account codes and date format
 * they use, read by them and set by admins (the Settings screen's "Accounting" tab).
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
      config: {
        ...exporting,
        conflict: 'Account codes the export needs are not set, or another batch took some of its documents just now.',
      },
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

  // A part's file, the same bytes on every download.
  r.get(
    '/api/accounting/exports/:id/file',
    {
      config: {
        ...exporting,
        conflict: 'The batch has several parts and no part was asked for: download each part, or the zip.',
      },
      schema: {
        summary: "Download an accounting export batch's file or one of its parts",
        description:
          "The CSV of part `part` (from 1) as it was made. Without `part`, the batch's file when it has one part; a batch of several parts answers 409 naming them and the zip. A part the batch does not have is 404.",
        params: idParamSchema,
        querystring: exportFileQuerySchema,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const file = await exportFileOf(app.db, request.params.id, request.query.part);
      return reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="${file.fileName}"`)
        .header('Cache-Control', 'private, no-store')
        .send(file.content);
    },
  );

  // Every part of a batch in one zip, each entry its part's file and bytes.
  r.get(
    '/api/accounting/exports/:id/zip',
    {
      config: exporting,
      schema: {
        summary: 'Download all parts of an accounting export batch as a zip',
        description: "A zip holding each part's CSV under its file name, the same bytes as `.../file?part=N`.",
        params: idParamSchema,
        produces: ['application/zip'],
      },
    },
    async (request, reply) => {
      const zip = await exportZipOf(app.db, request.params.id);
      return reply
        .header('Content-Type', 'application/zip')
        .header('Content-Disposition', `attachment; filename="${zip.fileName}"`)
        .header('Cache-Control', 'private, no-store')
        .send(Buffer.from(zip.content.buffer, zip.content.byteOffset, zip.content.byteLength));
    },
  );
}
