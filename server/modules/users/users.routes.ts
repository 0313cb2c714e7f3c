import { idParamSchema, listQuerySchema } from '@shared/contracts/common';
import { createUserSchema, updateUserSchema, userListQuerySchema } from '@shared/contracts/users';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sendPage } from '../../lib/http';
import { createUser, deleteUser, getUser, listUsers, updateUser } from './users.service';

export async function usersRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const access = ['user:manage'] as const;

  r.get(
    '/api/users',
    { config: { access }, schema: { querystring: listQuerySchema.extend(userListQuerySchema.shape) } },
    async (request, reply) => sendPage(reply, await listUsers(app.db, request.query)),
  );

  r.get('/api/users/:id', { config: { access }, schema: { params: idParamSchema } }, async (request) =>
    getUser(app.db, request.params.id),
  );

  r.post('/api/users', { config: { access }, schema: { body: createUserSchema } }, async (request, reply) => {
    const user = await createUser(app.db, request.user!, request.body);
    return reply.status(201).send(user);
  });

  r.patch(
    '/api/users/:id',
    { config: { access }, schema: { params: idParamSchema, body: updateUserSchema } },
    async (request) =>
      updateUser(app.db, request.user!, request.params.id, request.body, request.sessionId ?? undefined),
  );

  r.delete('/api/users/:id', { config: { access }, schema: { params: idParamSchema } }, async (request) => {
    await deleteUser(app.db, request.user!, request.params.id);
    return { message: 'User deleted' };
  });
}
