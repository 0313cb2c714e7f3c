import { idParamSchema } from '@shared/contracts/common';
import { setPasswordSchema } from '@shared/contracts/invitations';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { publicOrigin } from '../../lib/public-url';
import { jsonSerializerCompiler } from '../../lib/response-schema';
import { accessLinkResponse, setPasswordResponse } from './invitations.response';
import { type AccessDeps, inviteCustomer, sendPasswordReset, setPasswordWithToken } from './invitations.service';

/** Attempts per client address and minute: plenty for a person, too few for automated use of the public route. */
export const SET_PASSWORD_LIMIT = { max: 30, timeWindow: 60_000 } as const;

/** Set-password links: the portal invitation, the password reset, and the public set-password call. */
export async function invitationsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  /** Links point at the configured public origin, never at request headers. */
  const deps = (): AccessDeps => ({ db: app.db, mailer: app.mailer, baseUrl: publicOrigin(app) });
  // Every answer is declared (lib/response-schema.ts): only these fields are ever sent.
  const answers = { serializerCompiler: jsonSerializerCompiler };
  const accessLink = { 200: accessLinkResponse };

  r.post(
    '/api/auth/set-password',
    {
      config: { access: 'public', rateLimit: SET_PASSWORD_LIMIT },
      schema: {
        summary: "Set a password with a link's token",
        body: setPasswordSchema,
        response: { 200: setPasswordResponse },
      },
      ...answers,
    },
    async (request) => setPasswordWithToken(app.db, request.body),
  );

  r.post(
    '/api/customers/:id/invite',
    {
      config: {
        access: ['customer:write'],
        conflict:
          "The customer's client portal account is deactivated, or the customer's e-mail already belongs to another account.",
      },
      schema: { summary: 'Invite a customer to the client portal', params: idParamSchema, response: accessLink },
      ...answers,
    },
    async (request) => inviteCustomer(deps(), request.user!, request.params.id),
  );

  r.post(
    '/api/users/:id/send-password-reset',
    {
      config: { access: ['user:manage'], conflict: 'The account is deactivated.' },
      schema: { summary: 'Send a user a password reset link', params: idParamSchema, response: accessLink },
      ...answers,
    },
    async (request) => sendPasswordReset(deps(), request.user!, request.params.id),
  );
}
