import { idParamSchema, listQuerySchema } from '@shared/contracts/common';
import { createProductSchema, productListQuerySchema, updateProductSchema } from '@shared/contracts/products';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sendPage } from '../../lib/http';
import { jsonSerializerCompiler } from '../../lib/response-schema';
import { deleteProductResponse, productListResponse, productResponse } from './products.response';
import { createProduct, deleteProduct, getProduct, listProducts, updateProduct } from './products.service';

export async function productsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const read = { access: ['product:read'] } as const;
  const write = { access: ['product:write'] } as const;
  // Every answer is declared (lib/response-schema.ts): only these fields are ever sent.
  const answers = { serializerCompiler: jsonSerializerCompiler };
  const product = { 200: productResponse };

  r.get(
    '/api/products',
    {
      config: read,
      schema: {
        summary: 'List products',
        querystring: listQuerySchema.extend(productListQuerySchema.shape),
        response: { 200: productListResponse },
      },
      ...answers,
    },
    async (request, reply) => sendPage(reply, await listProducts(app.db, request.query)),
  );

  r.get(
    '/api/products/:id',
    { config: read, schema: { summary: 'Get a product', params: idParamSchema, response: product }, ...answers },
    async (request) => getProduct(app.db, request.params.id),
  );

  r.post(
    '/api/products',
    {
      config: write,
      schema: { summary: 'Create a product', body: createProductSchema, response: { 201: productResponse } },
      ...answers,
    },
    async (request, reply) => reply.status(201).send(await createProduct(app.db, request.user!, request.body)),
  );

  r.patch(
    '/api/products/:id',
    {
      config: { ...write, conflict: 'The capacity asked for is below the units already sold or held on a day.' },
      schema: { summary: 'Update a product', params: idParamSchema, body: updateProductSchema, response: product },
      ...answers,
    },
    async (request) => updateProduct(app.db, request.user!, request.params.id, request.body),
  );

  /** Deletes an unused product; archives one in use (200 with the archived product and a message). */
  r.delete(
    '/api/products/:id',
    {
      config: write,
      schema: {
        summary: 'Delete or archive a product',
        params: idParamSchema,
        response: { 200: deleteProductResponse },
      },
      ...answers,
    },
    async (request) => deleteProduct(app.db, request.user!, request.params.id),
  );
}
