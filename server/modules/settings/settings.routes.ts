import {
  contractSettingsSchema,
  notificationSettingsSchema,
  passwordChangeSchema,
  profileSchema,
  taxSettingsSchema,
} from '@shared/contracts/settings';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  changePassword,
  getNotificationSettings,
  getSettings,
  saveNotificationSettings,
  saveSettings,
  updateProfile,
} from './settings.service';

export async function settingsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const read = { access: ['settings:read'] } as const;
  const write = { access: ['settings:write'] } as const;
  const self = { access: ['profile:self'] } as const;

  r.get('/api/settings/tax', { config: read }, () => getSettings(app.db, 'tax'));
  r.put('/api/settings/tax', { config: write, schema: { body: taxSettingsSchema } }, (request) =>
    saveSettings(app.db, request.user!, 'tax', request.body),
  );

  r.get('/api/settings/contracts', { config: read }, () => getSettings(app.db, 'contracts'));
  r.put('/api/settings/contracts', { config: write, schema: { body: contractSettingsSchema } }, (request) =>
    saveSettings(app.db, request.user!, 'contracts', request.body),
  );

  r.get('/api/settings/notifications', { config: self }, (request) =>
    getNotificationSettings(app.db, request.user!.id),
  );
  r.put(
    '/api/settings/notifications',
    { config: self, schema: { body: notificationSettingsSchema.partial() } },
    async (request) =>
      saveNotificationSettings(app.db, request.user!.id, {
        ...(await getNotificationSettings(app.db, request.user!.id)),
        ...request.body,
      }),
  );

  r.put('/api/profile', { config: self, schema: { body: profileSchema } }, (request) =>
    updateProfile(app.db, request.user!, request.body),
  );
  r.put('/api/profile/password', { config: self, schema: { body: passwordChangeSchema } }, async (request) => {
    await changePassword(app.db, request.user!, request.sessionId!, request.body);
    return { message: 'Password changed' };
  });
}
