import { idParamSchema, listQuerySchema } from '@shared/contracts/common';
import { invoiceListQuerySchema, manualPaymentBodySchema, voidInvoiceSchema } from '@shared/contracts/invoices';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sendPage } from '../../lib/http';
import { jsonSerializerCompiler } from '../../lib/response-schema';
import { contractDisplayName } from './invoices.emails';
import { renderInvoicePdf } from './invoices.pdf';
import { contractScheduleResponse, invoiceListResponse, invoiceResponse } from './invoices.response';
import {
  contractSchedule,
  getInvoice,
  type InvoiceDeps,
  invoiceForPdf,
  listInvoices,
  recordManualPayment,
  voidInvoice,
} from './invoices.service';

/**
 * Invoices: the list and detail by role (product.md section 3), the client's own list, the PDF, manual
 * payments and void (finance and admin-level), and a contract's 12-month billing schedule.
 */
export async function invoicesRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const read = ['invoice:read:any', 'invoice:read:own', 'invoice:read:client'] as const;
  const manage = ['invoice:manage'] as const;
  const deps = (): InvoiceDeps => ({ db: app.db, mailer: app.mailer });
  // Every JSON answer is declared (lib/response-schema.ts): only these fields are ever sent. The PDF is not JSON.
  const answers = { serializerCompiler: jsonSerializerCompiler };
  const list = { 200: invoiceListResponse };
  const invoice = { 200: invoiceResponse };

  r.get(
    '/api/invoices',
    { config: { access: read }, schema: { querystring: invoiceListQuerySchema, response: list }, ...answers },
    async (request, reply) => sendPage(reply, await listInvoices(app.db, request.user!, request.query)),
  );

  // The client portal's list (ui-spec.md section 7): the client's own customer's invoices.
  r.get(
    '/api/client/invoices',
    {
      config: { access: ['invoice:read:client'] },
      schema: { querystring: listQuerySchema, response: list },
      ...answers,
    },
    async (request, reply) =>
      sendPage(
        reply,
        await listInvoices(app.db, request.user!, {
          ...request.query,
          status: undefined,
          overdue: false,
          periodFrom: undefined,
          periodTo: undefined,
        }),
      ),
  );

  r.get(
    '/api/invoices/:id',
    { config: { access: read }, schema: { params: idParamSchema, response: invoice }, ...answers },
    async (request) => getInvoice(app.db, request.user!, request.params.id),
  );

  r.get(
    '/api/invoices/:id/pdf',
    { config: { access: read }, schema: { params: idParamSchema } },
    async (request, reply) => {
      const { invoice, customer, contract } = await invoiceForPdf(app.db, request.user!, request.params.id);
      const pdf = await renderInvoicePdf({
        businessName: app.config.BUSINESS_NAME,
        invoice,
        customer,
        contractName: contractDisplayName(contract),
      });
      return reply
        .type('application/pdf')
        .header('Content-Disposition', `attachment; filename="${invoice.number}.pdf"`)
        .header('Cache-Control', 'private, no-store')
        .send(pdf);
    },
  );

  r.post(
    '/api/invoices/:id/payments',
    {
      config: { access: manage },
      schema: { params: idParamSchema, body: manualPaymentBodySchema, response: { 201: invoiceResponse } },
      ...answers,
    },
    async (request, reply) =>
      reply.status(201).send(await recordManualPayment(deps(), request.user!, request.params.id, request.body)),
  );

  r.post(
    '/api/invoices/:id/void',
    {
      config: { access: manage },
      schema: { params: idParamSchema, body: voidInvoiceSchema, response: invoice },
      ...answers,
    },
    async (request) => voidInvoice(deps(), request.user!, request.params.id, request.body.reason),
  );

  r.get(
    '/api/contracts/:id/schedule',
    {
      config: { access: ['contract:read:any', 'contract:read:own'] },
      schema: { params: idParamSchema, response: { 200: contractScheduleResponse } },
      ...answers,
    },
    async (request) => contractSchedule(app.db, request.user!, request.params.id),
  );
}
