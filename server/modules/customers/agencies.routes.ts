import { agencyOfRecordSchema, agencyStatementQuerySchema, removeAgencyQuerySchema } from '@shared/contracts/agencies';
import { idParamSchema } from '@shared/contracts/common';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { readLetterhead } from '../../lib/company-profile';
import { jsonSerializerCompiler } from '../../lib/response-schema';
import {
  listAgenciesOfRecord,
  listAgencyAdvertisers,
  removeAgencyOfRecord,
  setAgencyOfRecord,
} from './agencies.service';
import { agencyStatementCsv } from './agency-statement.csv';
import { renderAgencyStatementPdf } from './agency-statement.pdf';
import { agencyStatementResponse } from './agency-statement.response';
import { getAgencyStatement, statementFilename, toAgencyStatement } from './agency-statement.service';
import { agencyOfRecordListResponse } from './customers.response';

/**
 * Agencies of record (product.md section 20): an advertiser's periods, set and ended by those who manage its
 * agency (a rep: their own customers, else 404), and an agency's advertisers. Each answer is the periods, newest
 * first: the advertiser's (PUT, DELETE, GET .../agency), or the agency's (GET .../advertisers).
 */
export async function agenciesRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const manage = ['agency:manage:any', 'agency:manage:own'] as const;
  const answers = { serializerCompiler: jsonSerializerCompiler };
  const periods = { 200: agencyOfRecordListResponse };

  r.get(
    '/api/customers/:id/agency',
    {
      config: { access: [...manage, 'agency:statement:any'] },
      schema: {
        summary: "List an advertiser's agencies of record",
        description: 'Every period of representation, newest first.',
        params: idParamSchema,
        response: periods,
      },
      ...answers,
    },
    async (request) => listAgenciesOfRecord(app.db, request.user!, request.params.id),
  );

  r.put(
    '/api/customers/:id/agency',
    {
      config: {
        access: [...manage],
        conflict: 'The advertiser already has an agency of record for some of these dates.',
      },
      schema: {
        summary: "Set an advertiser's agency of record",
        description:
          "Changes the agency's period that overlaps the dates, or adds one; the commission is the agency's own " +
          "unless given. Answers the advertiser's agencies of record, newest first.",
        params: idParamSchema,
        body: agencyOfRecordSchema,
        response: periods,
      },
      ...answers,
    },
    async (request) => setAgencyOfRecord(app.db, request.user!, request.params.id, request.body),
  );

  r.delete(
    '/api/customers/:id/agency',
    {
      config: { access: [...manage] },
      schema: {
        summary: "End an advertiser's agency of record",
        description:
          "Ends the representation covering today (or the given agency's): begun before today, it ends yesterday; " +
          "else it is deleted. Answers the advertiser's agencies of record, newest first; 404 when there is none.",
        params: idParamSchema,
        querystring: removeAgencyQuerySchema,
        response: periods,
      },
      ...answers,
    },
    async (request) => removeAgencyOfRecord(app.db, request.user!, request.params.id, request.query.agencyId),
  );

  r.get(
    '/api/agencies/:id/advertisers',
    {
      config: { access: ['agency:statement:any', 'agency:statement:own', 'agency:statement:self'] },
      schema: {
        summary: "List an agency's advertisers",
        description: 'Every period in which the agency represents or represented an advertiser, newest first.',
        params: idParamSchema,
        response: periods,
      },
      ...answers,
    },
    async (request) => listAgencyAdvertisers(app.db, request.user!, request.params.id),
  );

  r.get(
    '/api/agencies/:id/statement',
    {
      config: { access: ['agency:statement:any', 'agency:statement:own', 'agency:statement:self'] },
      schema: {
        summary: "Get an agency's statement",
        description:
          'For a range of business days (at most 366): the opening balance, every invoice billed to the agency and ' +
          'the credit notes, payments and refunds on them with the running balance, the closing balance (what its ' +
          'invoices still owed at `to`), its aging and the commission totals. `format=pdf` answers the PDF ' +
          '(application/pdf), `format=csv` the CSV (text/csv), both as attachments; JSON otherwise.',
        params: idParamSchema,
        querystring: agencyStatementQuerySchema,
        produces: ['application/json', 'application/pdf', 'text/csv'],
        response: { 200: agencyStatementResponse },
      },
      ...answers,
    },
    async (request, reply) => {
      const { format, ...range } = request.query;
      const data = await getAgencyStatement(app.db, request.user!, request.params.id, range);
      if (format === 'json') return toAgencyStatement(data);
      reply.header('Cache-Control', 'private, no-store');
      if (format === 'csv') {
        return reply
          .header('Content-Type', 'text/csv; charset=utf-8')
          .header('Content-Disposition', `attachment; filename="${statementFilename(data, 'csv')}"`)
          .send(agencyStatementCsv(data));
      }
      const pdf = await renderAgencyStatementPdf({ ...data, letterhead: await readLetterhead(app.db, app.storage) });
      return reply
        .type('application/pdf')
        .header('Content-Disposition', `attachment; filename="${statementFilename(data, 'pdf')}"`)
        .send(pdf);
    },
  );
}
