import {
  notificationIdParamsSchema,
  notificationListQuerySchema,
  notificationListSchema,
  unreadCountSchema,
} from '@shared/contracts/notifications';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as service from './notifications.service';

/** The header bell: each signed-in user reads and marks only their own notifications. */
export async function notificationsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const access = ['notification:self'] as const;

  r.get(
    '/api/notifications',
    {
      config: { access },
      schema: {
        summary: 'List your notifications',
        querystring: notificationListQuerySchema,
        response: { 200: notificationListSchema },
      },
    },
    async (request) => service.listOwn(app.db, request.user!.id, request.query.limit),
  );

  r.post(
    '/api/notifications/:id/read',
    {
      config: { access },
      schema: {
        summary: 'Mark a notification as read',
        params: notificationIdParamsSchema,
        response: { 200: unreadCountSchema },
      },
    },
    async (request) => service.readOne(app.db, request.user!.id, request.params.id),
  );

  r.post(
    '/api/notifications/read-all',
    {
      config: { access },
      schema: { summary: 'Mark all your notifications as read', response: { 200: unreadCountSchema } },
    },
    async (request) => service.readAll(app.db, request.user!.id),
  );
}
