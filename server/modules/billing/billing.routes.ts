import { idParamSchema } from '@shared/contracts/common';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { jsonSerializerCompiler } from '../../lib/response-schema';
import { contractScheduleResponse } from './billing.response';
import { contractSchedule } from './billing.service';

/** A contract's next 12 billing periods with their figures, as the billing run will issue them. */
export async function billingRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/contracts/:id/schedule',
    {
      config: { access: ['contract:read:any', 'contract:read:own'] },
      schema: {
        summary: "Get a contract's billing schedule",
        params: idParamSchema,
        response: { 200: contractScheduleResponse },
      },
      // The answer is declared (lib/response-schema.ts): only these fields are ever sent.
      serializerCompiler: jsonSerializerCompiler,
    },
    async (request) => contractSchedule(app.db, request.user!, request.params.id),
  );
}
