import {
  contractSettingsUpdateSchema,
  notificationSettingsSchema,
  passwordChangeSchema,
  profileSchema,
  taxSettingsSchema,
} from '@shared/contracts/settings';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { jsonSerializerCompiler, messageResponse } from '../../lib/response-schema';
import { userResponse } from '../users/users.response';
import { contractSettingsResponse, notificationSettingsResponse, taxSettingsResponse } from './settings.response';
import {
  changePassword,
  getNotificationSettings,
  getSettings,
  saveContractSettings,
  saveNotificationSettings,
  saveSettings,
  updateProfile,
} from './settings.service';

export async function settingsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const read = { access: ['settings:read'] } as const;
  const write = { access: ['settings:write'] } as const;
  const self = { access: ['profile:self'] } as const;
  // Every answer is declared (lib/response-schema.ts): only these fields are ever sent.
  const answers = { serializerCompiler: jsonSerializerCompiler };
  const tax = { response: { 200: taxSettingsResponse } };
  const contracts = { response: { 200: contractSettingsResponse } };
  const notifications = { response: { 200: notificationSettingsResponse } };

  r.get('/api/settings/tax', { config: read, schema: { summary: 'Get the tax settings', ...tax }, ...answers }, () =>
    getSettings(app.db, 'tax'),
  );
  r.put(
    '/api/settings/tax',
    { config: write, schema: { summary: 'Update the tax settings', body: taxSettingsSchema, ...tax }, ...answers },
    (request) => saveSettings(app.db, request.user!, 'tax', request.body),
  );

  r.get(
    '/api/settings/contracts',
    { config: read, schema: { summary: 'Get the contract settings', ...contracts }, ...answers },
    () => getSettings(app.db, 'contracts'),
  );
  r.put(
    '/api/settings/contracts',
    {
      config: write,
      schema: { summary: 'Update the contract settings', body: contractSettingsUpdateSchema, ...contracts },
      ...answers,
    },
    (request) => saveContractSettings(app.db, request.user!, request.body),
  );

  r.get(
    '/api/settings/notifications',
    { config: self, schema: { summary: 'Get your notification settings', ...notifications }, ...answers },
    (request) => getNotificationSettings(app.db, request.user!.id),
  );
  r.put(
    '/api/settings/notifications',
    {
      config: self,
      schema: {
        summary: 'Update your notification settings',
        body: notificationSettingsSchema.partial(),
        ...notifications,
      },
      ...answers,
    },
    async (request) =>
      saveNotificationSettings(app.db, request.user!.id, {
        ...(await getNotificationSettings(app.db, request.user!.id)),
        ...request.body,
      }),
  );

  r.put(
    '/api/profile',
    {
      config: self,
      schema: { summary: 'Update your profile', body: profileSchema, response: { 200: userResponse } },
      ...answers,
    },
    (request) => updateProfile(app.db, request.user!, request.body),
  );
  r.put(
    '/api/profile/password',
    {
      config: self,
      schema: { summary: 'Change your password', body: passwordChangeSchema, response: { 200: messageResponse } },
      ...answers,
    },
    async (request) => {
      await changePassword(app.db, request.user!, request.sessionId!, request.body, { ip: request.ip });
      return { message: 'Password changed' };
    },
  );
}
