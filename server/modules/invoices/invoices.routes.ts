import { idParamSchema, listQuerySchema } from '@shared/contracts/common';
import { invoiceListQuerySchema, receiptQuerySchema } from '@shared/contracts/invoices';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { businessToday } from '../../lib/business-day';
import { payLink, portalLink } from '../../lib/capability-links';
import { readLetterhead } from '../../lib/company-profile';
import { sendPage } from '../../lib/http';
import { publicOrigin } from '../../lib/public-url';
import { jsonSerializerCompiler, messageResponse } from '../../lib/response-schema';
import { contractDisplayName } from './invoices.emails';
import { renderInvoicePdf } from './invoices.pdf';
import { resendInvoice } from './invoices.resend';
import { invoiceListResponse, invoiceResponse, invoiceTimelineResponse } from './invoices.response';
import { getInvoice, getInvoiceTimeline, invoiceForPdf, listInvoices } from './invoices.service';
import { invoiceReceiptRecord, receiptPdf } from './receipts.service';

/**
 * Invoices: the list and detail by role (product.md section 3), the client's own list and the PDF. Manual
 * payments and voids are payment routes (payments.routes.ts); a contract's schedule is billing's.
 */
export async function invoicesRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // The company's logo, printed in the PDF's header.
  const read = ['invoice:read:any', 'invoice:read:own', 'invoice:read:client'] as const;
  // Every JSON answer is declared (lib/response-schema.ts): only these fields are ever sent. The PDF is not JSON.
  const answers = { serializerCompiler: jsonSerializerCompiler };
  const list = { 200: invoiceListResponse };
  const invoice = { 200: invoiceResponse };

  r.get(
    '/api/invoices',
    {
      config: { access: read },
      schema: { summary: 'List invoices', querystring: invoiceListQuerySchema, response: list },
      ...answers,
    },
    async (request, reply) => sendPage(reply, await listInvoices(app.db, request.user!, request.query)),
  );

  // The client portal's list (ui-spec.md section 7): the client's own customer's invoices.
  r.get(
    '/api/client/invoices',
    {
      config: { access: ['invoice:read:client'] },
      schema: { summary: "List the client's invoices", querystring: listQuerySchema, response: list },
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
    {
      config: { access: read },
      schema: { summary: 'Get an invoice', params: idParamSchema, response: invoice },
      ...answers,
    },
    async (request) => getInvoice(app.db, request.user!, request.params.id),
  );

  // What happened to the invoice, oldest first: read like the invoice itself.
  r.get(
    '/api/invoices/:id/timeline',
    {
      config: { access: read },
      schema: {
        summary: "Get an invoice's timeline",
        params: idParamSchema,
        response: { 200: invoiceTimelineResponse },
      },
      ...answers,
    },
    async (request) => getInvoiceTimeline(app.db, request.user!, request.params.id),
  );

  // "Resend": the invoice's e-mail again, while it is unpaid; for those who record payments and void.
  r.post(
    '/api/invoices/:id/resend',
    {
      config: { access: ['invoice:manage'], conflict: 'Only an unpaid invoice can be sent again.' },
      schema: {
        summary: 'Send an invoice to its customer again',
        params: idParamSchema,
        response: { 200: messageResponse },
      },
      ...answers,
    },
    async (request) =>
      resendInvoice({ db: app.db, mailer: app.mailer, baseUrl: publicOrigin(app) }, request.user!, request.params.id),
  );

  r.get(
    '/api/invoices/:id/pdf',
    {
      config: { access: read },
      schema: { summary: "Download an invoice's PDF", params: idParamSchema, produces: ['application/pdf'] },
    },
    async (request, reply) => {
      const { invoice, customer, contract } = await invoiceForPdf(app.db, request.user!, request.params.id);
      const baseUrl = publicOrigin(app);
      const pdf = await renderInvoicePdf({
        // The seller as of today: an invoice PDF is made when it is asked for.
        letterhead: await readLetterhead(app.db, app.storage),
        invoice,
        customer,
        // The contract's title, never its description (the rep's own words about it: internal).
        contractName: contractDisplayName({ id: contract.id, title: contract.title, description: null }),
        today: businessToday(),
        pay:
          contract.paymentMode === 'pay_link' && contract.payLinkToken
            ? { kind: 'pay_link', url: payLink(baseUrl, contract.payLinkToken) }
            : { kind: 'portal', url: portalLink(baseUrl) },
      });
      return reply
        .type('application/pdf')
        .header('Content-Disposition', `attachment; filename="${invoice.number}.pdf"`)
        .header('Cache-Control', 'private, no-store')
        .send(pdf);
    },
  );

  // A payment's receipt as a PDF (the one the payer downloads from the success page): read like the invoice.
  r.get(
    '/api/invoices/:id/receipt',
    {
      config: { access: read, conflict: 'The invoice has no payment to give a receipt for.' },
      schema: {
        summary: "A payment's receipt (PDF)",
        description: "The receipt of the payment named by `payment`, or of the invoice's latest payment.",
        params: idParamSchema,
        querystring: receiptQuerySchema,
        produces: ['application/pdf'],
      },
    },
    async (request, reply) => {
      const record = await invoiceReceiptRecord(app.db, request.user!, request.params.id, request.query.payment);
      const file = await receiptPdf(record, await readLetterhead(app.db, app.storage));
      return reply
        .type('application/pdf')
        .header('Content-Disposition', `attachment; filename="${file.filename}"`)
        .header('Cache-Control', 'private, no-store')
        .send(file.bytes);
    },
  );
}
