import { idParamSchema, listQuerySchema } from '@shared/contracts/common';
import { contactParamsSchema, contactPatchSchema, contactSchema } from '@shared/contracts/contacts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sendPage } from '../../lib/http';
import { jsonSerializerCompiler, messageResponse } from '../../lib/response-schema';
import { contactListResponse, contactResponse } from './contacts.response';
import { createContact, deleteContact, listContacts, updateContact } from './contacts.service';

/** A customer's contacts (product.md section 19): staff read them, those who change customers change them. */
export async function contactsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const read = { access: ['customer:read:any'] } as const;
  const write = { access: ['customer:write'] } as const;
  const raced = 'Another contact of the customer was made primary or billing at the same moment.';
  // Every answer is declared (lib/response-schema.ts): only these fields are ever sent.
  const answers = { serializerCompiler: jsonSerializerCompiler };

  r.get(
    '/api/customers/:id/contacts',
    {
      config: read,
      schema: {
        summary: "List a customer's contacts",
        params: idParamSchema,
        querystring: listQuerySchema,
        response: { 200: contactListResponse },
      },
      ...answers,
    },
    async (request, reply) => sendPage(reply, await listContacts(app.db, request.params.id, request.query)),
  );

  r.post(
    '/api/customers/:id/contacts',
    {
      config: { ...write, conflict: raced },
      schema: {
        summary: 'Add a contact to a customer',
        params: idParamSchema,
        body: contactSchema,
        response: { 201: contactResponse },
      },
      ...answers,
    },
    async (request, reply) =>
      reply.status(201).send(await createContact(app.db, request.user!, request.params.id, request.body)),
  );

  r.patch(
    '/api/customers/:id/contacts/:contactId',
    {
      config: { ...write, conflict: raced },
      schema: {
        summary: "Change a customer's contact (make it primary or billing)",
        params: contactParamsSchema,
        body: contactPatchSchema,
        response: { 200: contactResponse },
      },
      ...answers,
    },
    async (request) => updateContact(app.db, request.user!, request.params.id, request.params.contactId, request.body),
  );

  r.delete(
    '/api/customers/:id/contacts/:contactId',
    {
      config: write,
      schema: {
        summary: "Delete a customer's contact",
        params: contactParamsSchema,
        response: { 200: messageResponse },
      },
      ...answers,
    },
    async (request) => {
      await deleteContact(app.db, request.user!, request.params.id, request.params.contactId);
      return { message: 'Contact deleted' };
    },
  );
}
