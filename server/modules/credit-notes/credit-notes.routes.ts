import { idParamSchema } from '@shared/contracts/common';
import {
  creditNoteBodySchema,
  creditNoteListQuerySchema,
  creditRefundBodySchema,
} from '@shared/contracts/credit-notes';
import { centsToAmount } from '@shared/money';
import { basisPointsToPercent } from '@shared/rates';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { readLetterhead } from '../../lib/company-profile';
import { sendPage } from '../../lib/http';
import { publicOrigin } from '../../lib/public-url';
import { jsonSerializerCompiler } from '../../lib/response-schema';
import { contractDisplayName } from '../invoices/invoices.emails';
import { creditNoteListResponse, creditNoteResponse, customerCreditResponse } from '../invoices/invoices.response';
import { getCreditNote, invoiceFacts, listCreditNotes } from '../invoices/invoices.service';
import { renderCreditNotePdf } from './credit-notes.pdf';
import { type CreditDeps, getCustomerCredit, issueCreditNote, refundCustomerCredit } from './credit-notes.service';

/**
 * Credit notes (product.md section 14): finance and admins issue them on an invoice; everyone who reads
 * invoices lists and downloads them in their scope (a client its own). A customer's credit balance, and
 * finance's refund of it.
 */
export async function creditNotesRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // The company's logo, printed in the PDF's header.
  const read = ['invoice:read:any', 'invoice:read:own', 'invoice:read:client'] as const;
  const answers = { serializerCompiler: jsonSerializerCompiler };
  const deps = (): CreditDeps => ({ db: app.db, mailer: app.mailer, baseUrl: publicOrigin(app) });

  r.post(
    '/api/invoices/:id/credit-notes',
    {
      config: {
        access: ['invoice:manage'],
        idempotent: true,
        conflict: 'The invoice is void or fully credited already, or it changed while the credit was being issued.',
      },
      schema: {
        summary: 'Issue a credit note on an invoice',
        params: idParamSchema,
        body: creditNoteBodySchema,
        response: { 201: creditNoteResponse },
      },
      ...answers,
    },
    async (request, reply) =>
      reply.code(201).send(await issueCreditNote(deps(), request.user!, request.params.id, request.body)),
  );

  r.get(
    '/api/credit-notes',
    {
      config: { access: read },
      schema: {
        summary: 'List credit notes',
        querystring: creditNoteListQuerySchema,
        response: { 200: creditNoteListResponse },
      },
      ...answers,
    },
    async (request, reply) => sendPage(reply, await listCreditNotes(app.db, request.user!, request.query)),
  );

  r.get(
    '/api/credit-notes/:id',
    {
      config: { access: read },
      schema: { summary: 'Get a credit note', params: idParamSchema, response: { 200: creditNoteResponse } },
      ...answers,
    },
    async (request) => getCreditNote(app.db, request.user!, request.params.id),
  );

  r.get(
    '/api/credit-notes/:id/pdf',
    {
      config: { access: read },
      schema: { summary: "Download a credit note's PDF", params: idParamSchema, produces: ['application/pdf'] },
    },
    async (request, reply) => {
      const creditNote = await getCreditNote(app.db, request.user!, request.params.id);
      const facts = await invoiceFacts(app.db, creditNote.invoiceId);
      const pdf = await renderCreditNotePdf({
        // The seller as of today: a credit note PDF is made when it is asked for.
        letterhead: await readLetterhead(app.db, app.storage),
        creditNote,
        invoice: {
          number: facts.invoice.number,
          periodStart: facts.invoice.periodStart,
          periodEnd: facts.invoice.periodEnd,
          total: centsToAmount(facts.invoice.totalCents),
          taxLabel: facts.invoice.taxLabel,
          taxRate: basisPointsToPercent(facts.invoice.taxRateBp),
          taxIncluded: facts.invoice.taxIncluded,
        },
        customer: facts.customer,
        contractName: contractDisplayName(facts.contract),
      });
      return reply
        .type('application/pdf')
        .header('Content-Disposition', `attachment; filename="${creditNote.number}.pdf"`)
        .header('Cache-Control', 'private, no-store')
        .send(pdf);
    },
  );

  r.get(
    '/api/customers/:id/credit',
    {
      config: { access: ['invoice:read:any', 'invoice:read:client'] },
      schema: {
        summary: "Get a customer's credit balance",
        params: idParamSchema,
        response: { 200: customerCreditResponse },
      },
      ...answers,
    },
    async (request) => getCustomerCredit(app.db, request.user!, request.params.id),
  );

  r.post(
    '/api/customers/:id/credit-refunds',
    {
      config: {
        access: ['invoice:manage'],
        idempotent: true,
        conflict: 'The customer has no credit balance to refund.',
      },
      schema: {
        summary: "Refund a customer's credit balance",
        params: idParamSchema,
        body: creditRefundBodySchema,
        response: { 200: customerCreditResponse },
      },
      ...answers,
    },
    async (request) => refundCustomerCredit(deps(), request.user!, request.params.id, request.body),
  );
}
