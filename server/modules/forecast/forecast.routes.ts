import { forecastQuerySchema, forecastTargetsSchema } from '@shared/contracts/forecast';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { jsonSerializerCompiler } from '../../lib/response-schema';
import { forecastResponse, targetsSavedResponse } from './forecast.response';
import { forecastCsv, getForecast, saveTargets } from './forecast.service';

/** The forecast by flight month (product.md section 19): its figures, its CSV, and the reps' targets. */
export async function forecastRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const read = { access: ['deal:any', 'deal:own'] } as const;
  const answers = { serializerCompiler: jsonSerializerCompiler };

  r.get(
    '/api/forecast',
    {
      config: read,
      schema: {
        summary: 'Get the forecast by rep and month',
        querystring: forecastQuerySchema,
        response: { 200: forecastResponse },
      },
      ...answers,
    },
    async (request) => getForecast(app.db, request.user!, request.query),
  );

  r.get(
    '/api/forecast/export',
    {
      config: read,
      schema: { summary: 'Export the forecast as CSV', querystring: forecastQuerySchema, produces: ['text/csv'] },
    },
    async (request, reply) => {
      const csv = forecastCsv(await getForecast(app.db, request.user!, request.query));
      return reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', 'attachment; filename="forecast.csv"')
        .header('Cache-Control', 'no-store')
        .send(csv);
    },
  );

  r.put(
    '/api/forecast/targets',
    {
      config: { access: ['forecast:targets'] },
      schema: {
        summary: "Set reps' monthly targets",
        body: forecastTargetsSchema,
        response: { 200: targetsSavedResponse },
      },
      ...answers,
    },
    async (request) => saveTargets(app.db, request.user!, request.body),
  );
}
