import { dashboardStatsQuerySchema } from '@shared/contracts/dashboard';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { jsonSerializerCompiler } from '../../lib/response-schema';
import { dashboardStatsResponse } from './dashboard.response';
import { dashboardStats } from './dashboard.service';

/** GET /api/dashboard/stats: a sales rep (or anyone asking with mine=true) gets their own figures. */
export async function dashboardRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/dashboard/stats',
    {
      config: { access: ['report:read:any', 'report:read:own'] },
      schema: {
        summary: 'Get the dashboard figures',
        querystring: dashboardStatsQuerySchema,
        response: { 200: dashboardStatsResponse },
      },
      // The answer is declared (lib/response-schema.ts): only these fields are ever sent.
      serializerCompiler: jsonSerializerCompiler,
    },
    async (request) => dashboardStats(app.db, request.user!, request.query.mine === 'true'),
  );
}
