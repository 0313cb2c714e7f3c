import { idParamSchema, listQuerySchema } from '@shared/contracts/common';
import { createUserSchema, updateUserSchema, userListQuerySchema } from '@shared/contracts/users';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sendPage } from '../../lib/http';
import { arrayOf, jsonSerializerCompiler, messageResponse } from '../../lib/response-schema';
import { userResponse } from './users.response';
import { createUser, deleteUser, getUser, listUsers, updateUser } from './users.service';

export async function usersRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const access = ['user:manage'] as const;
  // A sales manager reads the team (read-only); the service leaves client accounts out for them.
  const read = ['user:read'] as const;
  // Every answer is declared (lib/response-schema.ts): a password hash can never be sent.
  const answers = { serializerCompiler: jsonSerializerCompiler };
  const user = { 200: userResponse };

  r.get(
    '/api/users',
    {
      config: { access: read },
      schema: {
        summary: 'List users',
        querystring: listQuerySchema.extend(userListQuerySchema.shape),
        response: { 200: arrayOf(userResponse) },
      },
      ...answers,
    },
    async (request, reply) => sendPage(reply, await listUsers(app.db, request.user!, request.query)),
  );

  r.get(
    '/api/users/:id',
    { config: { access: read }, schema: { summary: 'Get a user', params: idParamSchema, response: user }, ...answers },
    async (request) => getUser(app.db, request.user!, request.params.id),
  );

  r.post(
    '/api/users',
    {
      config: { access, conflict: 'A user with this email already exists.' },
      schema: { summary: 'Create a user', body: createUserSchema, response: { 201: userResponse } },
      ...answers,
    },
    async (request, reply) => reply.status(201).send(await createUser(app.db, request.user!, request.body)),
  );

  r.patch(
    '/api/users/:id',
    {
      config: {
        access,
        conflict:
          'Another user has this email, or the change would deactivate your own account or change your own role.',
      },
      schema: { summary: 'Update a user', params: idParamSchema, body: updateUserSchema, response: user },
      ...answers,
    },
    async (request) =>
      updateUser(app.db, request.user!, request.params.id, request.body, request.sessionId ?? undefined),
  );

  r.delete(
    '/api/users/:id',
    {
      config: { access, conflict: 'The user is the sales rep of contracts: deactivate the account instead.' },
      schema: { summary: 'Delete a user', params: idParamSchema, response: { 200: messageResponse } },
      ...answers,
    },
    async (request) => {
      await deleteUser(app.db, request.user!, request.params.id);
      return { message: 'User deleted' };
    },
  );
}
