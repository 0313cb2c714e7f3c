import { activityCreateSchema, activityListQuerySchema, activityPatchSchema } from '@shared/contracts/activities';
import { idParamSchema } from '@shared/contracts/common';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sendPage } from '../../lib/http';
import { jsonSerializerCompiler, messageResponse } from '../../lib/response-schema';
import { activityListResponse, activityResponse } from './activities.response';
import { completeActivity, createActivity, deleteActivity, listActivities, updateActivity } from './activities.service';

/**
 * Activities (product.md section 19): calls, meetings, e-mails, tasks and notes of a customer, optionally of a
 * deal and a contact. Reps see and change their own, managers and admins everyone's.
 */
export async function activitiesRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const config = { access: ['deal:any', 'deal:own'] } as const;
  const answers = { serializerCompiler: jsonSerializerCompiler };

  r.get(
    '/api/activities',
    {
      config,
      schema: {
        summary: 'List activities',
        description:
          'Filter by customer, deal, owner, done, and due: overdue (not done, due before now), today (due on the business day) or upcoming (the next 7 days).',
        querystring: activityListQuerySchema,
        response: { 200: activityListResponse },
      },
      ...answers,
    },
    async (request, reply) => sendPage(reply, await listActivities(app.db, request.user!, request.query)),
  );

  r.post(
    '/api/activities',
    {
      config,
      schema: { summary: 'Log an activity', body: activityCreateSchema, response: { 201: activityResponse } },
      ...answers,
    },
    async (request, reply) => reply.status(201).send(await createActivity(app.db, request.user!, request.body)),
  );

  r.patch(
    '/api/activities/:id',
    {
      config,
      schema: {
        summary: 'Change an activity',
        params: idParamSchema,
        body: activityPatchSchema,
        response: { 200: activityResponse },
      },
      ...answers,
    },
    async (request) => updateActivity(app.db, request.user!, request.params.id, request.body),
  );

  r.delete(
    '/api/activities/:id',
    {
      config,
      schema: { summary: 'Delete an activity', params: idParamSchema, response: { 200: messageResponse } },
      ...answers,
    },
    async (request) => {
      await deleteActivity(app.db, request.user!, request.params.id);
      return { message: 'Activity deleted' };
    },
  );

  r.post(
    '/api/activities/:id/complete',
    {
      config,
      schema: {
        summary: 'Mark an activity done',
        description: 'Idempotent: an activity already done is answered as it is.',
        params: idParamSchema,
        response: { 200: activityResponse },
      },
      ...answers,
    },
    async (request) => completeActivity(app.db, request.user!, request.params.id),
  );
}
