import { loginSchema } from '@shared/contracts/auth';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { servedOverHttps } from '../../lib/public-url';
import { jsonSerializerCompiler, messageResponse } from '../../lib/response-schema';
import { deleteSession, SESSION_COOKIE } from '../sessions/sessions';
import { toUser } from '../users/users.dto';
import { userResponse } from '../users/users.response';
import { loginResponse } from './auth.response';
import { login } from './auth.service';

export async function authRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Every answer is declared (lib/response-schema.ts): only these fields are ever sent.
  const answers = { serializerCompiler: jsonSerializerCompiler };

  r.post(
    '/api/auth/login',
    {
      config: { access: 'public' },
      schema: { summary: 'Sign in', body: loginSchema, response: { 200: loginResponse } },
      ...answers,
    },
    async (request, reply) => {
      const result = await login(
        app.db,
        request.body,
        { ip: request.ip, userAgent: request.headers['user-agent'] },
        app.sessionPolicy,
      );
      reply.setCookie(SESSION_COOKIE, result.token, {
        httpOnly: true,
        sameSite: 'lax',
        secure: servedOverHttps(app.config),
        path: '/',
        expires: result.expiresAt,
      });
      return { token: result.token, user: result.user };
    },
  );

  r.post(
    '/api/auth/logout',
    { config: { access: 'public' }, schema: { summary: 'Sign out', response: { 200: messageResponse } }, ...answers },
    async (request, reply) => {
      if (request.sessionId) await deleteSession(app.db, request.sessionId);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return { message: 'Signed out' };
    },
  );

  r.get(
    '/api/auth/me',
    {
      config: { access: 'signed-in' },
      schema: { summary: 'Get the signed-in user', response: { 200: userResponse } },
      ...answers,
    },
    async (request) => toUser(request.user!),
  );
}
