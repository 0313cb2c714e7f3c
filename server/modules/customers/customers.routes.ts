import { idParamSchema, listQuerySchema } from '@shared/contracts/common';
import { createCustomerSchema, updateCustomerSchema } from '@shared/contracts/customers';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sendPage } from '../../lib/http';
import { createCustomer, deleteCustomer, getCustomer, listCustomers, updateCustomer } from './customers.service';

export async function customersRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const read = { access: ['customer:read:any', 'customer:read:own'] } as const;
  const write = { access: ['customer:write'] } as const;
  const remove = { access: ['customer:delete'] } as const;

  r.get('/api/customers', { config: read, schema: { querystring: listQuerySchema } }, async (request, reply) =>
    sendPage(reply, await listCustomers(app.db, request.user!, request.query)),
  );

  r.get('/api/customers/:id', { config: read, schema: { params: idParamSchema } }, async (request) =>
    getCustomer(app.db, request.user!, request.params.id),
  );

  r.post('/api/customers', { config: write, schema: { body: createCustomerSchema } }, async (request, reply) => {
    const customer = await createCustomer(app.db, request.user!, request.body);
    return reply.status(201).send(customer);
  });

  r.patch(
    '/api/customers/:id',
    { config: write, schema: { params: idParamSchema, body: updateCustomerSchema } },
    async (request) => updateCustomer(app.db, request.user!, request.params.id, request.body),
  );

  r.delete('/api/customers/:id', { config: remove, schema: { params: idParamSchema } }, async (request) => {
    await deleteCustomer(app.db, request.user!, request.params.id);
    return { message: 'Customer deleted' };
  });
}
