import multipart from '@fastify/multipart';
import { companyProfileSchema } from '@shared/contracts/company';
import { COMPANY_LOGO_PATH, COMPANY_MESSAGES, MAX_LOGO_BYTES } from '@shared/contracts/company-vocabulary';
import {
  agencySettingsSchema,
  contractSettingsUpdateSchema,
  notificationSettingsSchema,
  passwordChangeSchema,
  profileSchema,
  taxSettingsSchema,
} from '@shared/contracts/settings';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/errors';
import { jsonSerializerCompiler, messageResponse } from '../../lib/response-schema';
import { userResponse } from '../users/users.response';
import {
  agencySettingsResponse,
  companyLogoResponse,
  companyProfileResponse,
  contractSettingsResponse,
  notificationSettingsResponse,
  taxSettingsResponse,
} from './settings.response';
import {
  changePassword,
  getCompanyProfile,
  getNotificationSettings,
  getSettings,
  type LogoDeps,
  openCompanyLogo,
  readLogoUpload,
  saveCompanyLogo,
  saveCompanyProfile,
  saveContractSettings,
  saveNotificationSettings,
  saveSettings,
  updateProfile,
} from './settings.service';

/** The logo's limit plus room for the multipart framing. */
const MAX_LOGO_REQUEST_BYTES = MAX_LOGO_BYTES + 16 * 1024;

/** The logo upload's form as the API reference shows it (the multipart parser reads it; no schema validates it). */
const logoForm = {
  type: 'object',
  required: ['file'],
  properties: {
    file: {
      type: 'string',
      format: 'binary',
      description: 'A PNG or JPEG image of at most 1 MB and 2,000 pixels a side (the type is read from the content).',
    },
  },
};

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

  // Agency settings (product.md section 20): the monthly statements on or off.
  const agencies = { response: { 200: agencySettingsResponse } };
  r.get(
    '/api/settings/agencies',
    { config: read, schema: { summary: 'Get the agency settings', ...agencies }, ...answers },
    () => getSettings(app.db, 'agencies'),
  );
  r.put(
    '/api/settings/agencies',
    {
      config: write,
      schema: { summary: 'Update the agency settings', body: agencySettingsSchema, ...agencies },
      ...answers,
    },
    (request) => saveSettings(app.db, request.user!, 'agencies', request.body),
  );

  // The company profile (product.md section 17): admins read and change it; documents print it.
  const company = { access: ['company:manage'] } as const;
  const profile = { response: { 200: companyProfileResponse } };
  r.get(
    '/api/settings/company',
    { config: company, schema: { summary: 'Get the company profile', ...profile }, ...answers },
    () => getCompanyProfile(app.db),
  );
  r.put(
    '/api/settings/company',
    {
      config: company,
      schema: { summary: 'Update the company profile', body: companyProfileSchema, ...profile },
      ...answers,
    },
    (request) => saveCompanyProfile(app.db, request.user!, request.body),
  );
  await app.register(async (scope) => companyLogoRoutes(scope, { db: app.db, storage: app.storage }));

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

/**
 * The logo: PUT (admins; a multipart form with one `file`, parsed in this scope only) and GET, public: the
 * logo is printed on every document the business sends, so anything that shows the business may show it.
 */
async function companyLogoRoutes(scope: FastifyInstance, deps: LogoDeps): Promise<void> {
  await scope.register(multipart, {
    limits: { fileSize: MAX_LOGO_BYTES, files: 1, fields: 2, parts: 4, fieldSize: 1024, headerPairs: 50 },
  });
  // Any other body (an image sent as it is, say) reaches the handler unread, which answers what to send.
  scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  const r = scope.withTypeProvider<ZodTypeProvider>();
  r.put(
    COMPANY_LOGO_PATH,
    {
      config: { access: ['company:manage'] },
      schema: {
        summary: 'Upload the company logo',
        documentedBody: { 'multipart/form-data': logoForm },
        response: { 200: companyLogoResponse },
      },
      serializerCompiler: jsonSerializerCompiler,
    },
    async (request, reply) => {
      try {
        // A body that announces more than the limit can hold is refused before it is read.
        if (Number(request.headers['content-length']) > MAX_LOGO_REQUEST_BYTES) {
          throw new AppError('VALIDATION', COMPANY_MESSAGES.logoTooLarge, {
            fieldErrors: { file: [COMPANY_MESSAGES.logoTooLarge] },
          });
        }
        if (!request.isMultipart()) {
          throw new AppError('VALIDATION', COMPANY_MESSAGES.logoMissing, {
            fieldErrors: { file: [COMPANY_MESSAGES.logoMissing] },
          });
        }
        return await saveCompanyLogo(deps, request.user!, await readLogoUpload(request.parts()));
      } catch (error) {
        // What is left of a refused upload is not read: the connection closes after the answer.
        reply.header('connection', 'close');
        throw error;
      }
    },
  );
  r.get(
    COMPANY_LOGO_PATH,
    {
      config: { access: 'public' },
      schema: { summary: 'Get the company logo', produces: ['image/png', 'image/jpeg'] },
      compress: false,
    },
    async (request, reply) => {
      const { logo, bytes } = await openCompanyLogo(deps);
      const etag = `"${logo.sha256}"`;
      reply
        .header('ETag', etag)
        // Cached, and asked again each time: a new logo shows at once.
        .header('Cache-Control', 'public, no-cache')
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', "default-src 'none'; sandbox");
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      return reply.type(logo.contentType).header('Content-Length', String(bytes.length)).send(bytes);
    },
  );
}
