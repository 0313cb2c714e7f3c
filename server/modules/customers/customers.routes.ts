import { idParamSchema } from '@shared/contracts/common';
import { createCustomerSchema, customerListQuerySchema, updateCustomerSchema } from '@shared/contracts/customers';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sendPage } from '../../lib/http';
import { jsonSerializerCompiler, messageResponse } from '../../lib/response-schema';
import { agenciesRoutes } from './agencies.routes';
import { customerListResponse, customerResponse } from './customers.response';
import { createCustomer, deleteCustomer, getCustomer, listCustomers, updateCustomer } from './customers.service';

export async function customersRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const read = { access: ['customer:read:any', 'customer:read:own'] } as const;
  const write = { access: ['customer:write'] } as const;
  const remove = { access: ['customer:delete'] } as const;
  // Every answer is declared (lib/response-schema.ts): only these fields are ever sent.
  const answers = { serializerCompiler: jsonSerializerCompiler };
  const customer = { 200: customerResponse };

  r.get(
    '/api/customers',
    {
      config: read,
      schema: {
        summary: 'List customers',
        querystring: customerListQuerySchema,
        response: { 200: customerListResponse },
      },
      ...answers,
    },
    async (request, reply) => sendPage(reply, await listCustomers(app.db, request.user!, request.query)),
  );

  r.get(
    '/api/customers/:id',
    { config: read, schema: { summary: 'Get a customer', params: idParamSchema, response: customer }, ...answers },
    async (request) => getCustomer(app.db, request.user!, request.params.id),
  );

  r.post(
    '/api/customers',
    {
      config: write,
      schema: { summary: 'Create a customer', body: createCustomerSchema, response: { 201: customerResponse } },
      ...answers,
    },
    async (request, reply) => reply.status(201).send(await createCustomer(app.db, request.user!, request.body)),
  );

  r.patch(
    '/api/customers/:id',
    {
      config: { ...write, conflict: 'The kind of a customer with contracts (or agency periods) cannot change.' },
      schema: { summary: 'Update a customer', params: idParamSchema, body: updateCustomerSchema, response: customer },
      ...answers,
    },
    async (request) => updateCustomer(app.db, request.user!, request.params.id, request.body),
  );

  r.delete(
    '/api/customers/:id',
    {
      config: { ...remove, conflict: 'The customer has contracts.' },
      schema: { summary: 'Delete a customer', params: idParamSchema, response: { 200: messageResponse } },
      ...answers,
    },
    async (request) => {
      await deleteCustomer(app.db, request.user!, request.params.id);
      return { message: 'Customer deleted' };
    },
  );

  // Agencies of record (product.md section 20), in the same module: customer_agencies is the customers'.
  await agenciesRoutes(app);
}
