import { reportQuerySchema } from '@shared/contracts/reports';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { jsonSerializerCompiler } from '../../lib/response-schema';
import { reportCsv } from './reports.csv';
import { reportResponse } from './reports.response';
import { buildReport } from './reports.service';

/** GET /api/reports and its CSV export: every contract for report:read:any, a rep's own for report:read:own. */
export async function reportsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const access = ['report:read:any', 'report:read:own'] as const;

  // The report's answer is declared (lib/response-schema.ts): only these fields are ever sent. The CSV is not JSON.
  r.get(
    '/api/reports',
    {
      config: { access },
      schema: { summary: 'Get the report', querystring: reportQuerySchema, response: { 200: reportResponse } },
      serializerCompiler: jsonSerializerCompiler,
    },
    async (request) => buildReport(app.db, request.user!, request.query.range),
  );

  r.get(
    '/api/reports/export',
    {
      config: { access },
      schema: { summary: 'Export the report as CSV', querystring: reportQuerySchema, produces: ['text/csv'] },
    },
    async (request, reply) => {
      const report = await buildReport(app.db, request.user!, request.query.range);
      return reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="report-${report.range}-${report.from}.csv"`)
        .header('Cache-Control', 'no-store')
        .send(reportCsv(report));
    },
  );
}
