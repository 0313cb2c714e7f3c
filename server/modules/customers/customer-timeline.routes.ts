import { idParamSchema } from '@shared/contracts/common';
import { customerTimelineQuerySchema } from '@shared/contracts/customer-timeline';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { jsonSerializerCompiler } from '../../lib/response-schema';
import { customerTimelineResponse } from './customer-timeline.response';
import { customerTimeline } from './customer-timeline.service';

/** The customer's story (product.md section 19), for staff: every customer's, as they read every customer. */
export async function customerTimelineRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/customers/:id/timeline',
    {
      config: { access: ['customer:read:any'] },
      schema: {
        summary: "The customer's story, newest first, paged by time",
        params: idParamSchema,
        querystring: customerTimelineQuerySchema,
        response: { 200: customerTimelineResponse },
      },
      serializerCompiler: jsonSerializerCompiler,
    },
    async (request) => customerTimeline(app.db, request.params.id, request.query),
  );
}
