import { Readable } from 'node:stream';
import { dayFromNumber, dayNumber } from '@shared/calendar-date';
import type {
  AgencyStatement,
  AgencyStatementEntry,
  AgencyStatementQuery,
  StatementEntryKind,
} from '@shared/contracts/agencies';
import { AGING_BUCKETS } from '@shared/contracts/receivables-vocabulary';
import { type Cents, centsToAmount, sumCents } from '@shared/money';
import { can } from '@shared/permissions';
import type { Db } from '../../db/client';
import { businessToday, getBusinessTimeZone } from '../../lib/business-day';
import { readLetterhead } from '../../lib/company-profile';
import { notFound } from '../../lib/errors';
import { enqueueEmail } from '../../lib/mailer';
import type { Storage } from '../../lib/storage';
import type { SessionUser } from '../sessions/sessions';
import { isOwnCustomer } from './agency-of-record.repo';
import { agencyStatementCsv } from './agency-statement.csv';
import { agencyStatementEmail } from './agency-statement.emails';
import { renderAgencyStatementPdf } from './agency-statement.pdf';
import {
  claimStatementRun,
  type StatementAgencyRow,
  type StatementEntryRow,
  type StatementFigures,
  selectAgenciesWithActivity,
  selectStatementAgency,
  selectStatementEntries,
  selectStatementFigures,
} from './agency-statement.repo';

/**
 * The agency statement (product.md section 20; decision 060, "Statements"): for a range of business days, the
 * opening balance, every invoice billed to the agency and every credit note, payment and refund on them, each with
 * the running balance, the closing balance (the sum of what its invoices still owed at `to`), its aging, and the
 * commission totals. The rule of what counts lives in agency-statement.repo.ts. Reading a statement writes nothing.
 */

/** A statement in cents, as the JSON, the CSV, the PDF and the monthly e-mail are made from it. */
export type StatementData = {
  agency: StatementAgencyRow;
  from: string;
  to: string;
  figures: StatementFigures;
  entries: (StatementEntryRow & { balanceCents: Cents })[];
  totals: { invoicedCents: Cents; creditedCents: Cents; paidCents: Cents; refundedCents: Cents };
};

/**
 * `agency:statement:any` every agency; `agency:statement:own` a rep's own customer (the rule of GET
 * /api/agencies/{id}/advertisers: isOwnCustomer); `agency:statement:self` the agency's own client users.
 */
async function readsStatement(db: Db, actor: SessionUser, agencyId: string): Promise<boolean> {
  if (can(actor, 'agency:statement:any')) return true;
  if (can(actor, 'agency:statement:self') && actor.customerId === agencyId) return true;
  return can(actor, 'agency:statement:own') && isOwnCustomer(db, agencyId, actor.id);
}

const sumOf = (entries: StatementEntryRow[], kind: StatementEntryKind) =>
  sumCents(entries.filter((entry) => entry.kind === kind).map((entry) => Math.abs(entry.deltaCents)));

/** The statement of an agency (no access check: the monthly job's, and the route's after its check). */
export async function buildStatement(
  db: Db,
  agency: StatementAgencyRow,
  range: { from: string; to: string },
): Promise<StatementData> {
  const query = { agencyId: agency.id, from: range.from, to: range.to, timeZone: getBusinessTimeZone() };
  const [figures, rows] = await Promise.all([selectStatementFigures(db, query), selectStatementEntries(db, query)]);
  let balance = figures.openingCents;
  const entries = rows.map((row) => {
    balance += row.deltaCents;
    return { ...row, balanceCents: balance };
  });
  return {
    agency,
    from: range.from,
    to: range.to,
    figures,
    entries,
    totals: {
      invoicedCents: sumOf(rows, 'invoice'),
      creditedCents: sumOf(rows, 'credit_note'),
      paidCents: sumOf(rows, 'payment'),
      refundedCents: sumOf(rows, 'refund'),
    },
  };
}

/** GET /api/agencies/{id}/statement: the statement, for those who may read it; 404 for anyone else. */
export async function getAgencyStatement(
  db: Db,
  actor: SessionUser,
  agencyId: string,
  query: Pick<AgencyStatementQuery, 'from' | 'to'>,
): Promise<StatementData> {
  const agency = await selectStatementAgency(db, agencyId);
  if (agency?.kind !== 'agency' || !(await readsStatement(db, actor, agencyId))) throw notFound('Agency');
  return buildStatement(db, agency, query);
}

/** The statement as JSON: amounts in dollars. */
export function toAgencyStatement(data: StatementData): AgencyStatement {
  const { figures, totals } = data;
  const entries: AgencyStatementEntry[] = data.entries.map((entry) => ({
    date: entry.date,
    kind: entry.kind,
    number: entry.number,
    invoiceId: entry.invoiceId,
    invoiceNumber: entry.invoiceNumber,
    issueDate: entry.issueDate,
    dueDate: entry.dueDate,
    advertiserId: entry.advertiserId,
    advertiserName: entry.advertiserName,
    contractId: entry.contractId,
    contractName: entry.contractName,
    amount: centsToAmount(entry.deltaCents),
    documentAmount: centsToAmount(entry.documentCents),
    commission: centsToAmount(entry.commissionCents),
    commissionMode: entry.commissionMode,
    method: entry.method,
    balance: centsToAmount(entry.balanceCents),
  }));
  return {
    agencyId: data.agency.id,
    agencyName: data.agency.name,
    from: data.from,
    to: data.to,
    openingBalance: centsToAmount(figures.openingCents),
    entries,
    invoiced: centsToAmount(totals.invoicedCents),
    credited: centsToAmount(totals.creditedCents),
    paid: centsToAmount(totals.paidCents),
    refunded: centsToAmount(totals.refundedCents),
    closingBalance: centsToAmount(figures.closingCents),
    aging: Object.fromEntries(
      AGING_BUCKETS.map((bucket) => [bucket, centsToAmount(figures.agingCents[bucket])]),
    ) as AgencyStatement['aging'],
    commission: {
      netDeducted: centsToAmount(figures.netCommissionCents),
      grossOwed: centsToAmount(figures.grossCommissionCents),
      total: centsToAmount(figures.netCommissionCents + figures.grossCommissionCents),
    },
  };
}

/** The previous calendar month of a business day: its first and last days ("2026-11-01", "2026-11-30"). */
export function previousMonth(today: string): { from: string; to: string } {
  const firstOfThisMonth = `${today.slice(0, 7)}-01`;
  const to = dayFromNumber(dayNumber(firstOfThisMonth) - 1);
  return { from: `${to.slice(0, 7)}-01`, to };
}

/** The attachment name of a statement: `statement-<agency>-<from>-<to>.csv` (the agency's name as a slug). */
export function statementFilename(data: Pick<StatementData, 'agency' | 'from' | 'to'>, extension: 'pdf' | 'csv') {
  const slug =
    data.agency.name
      .normalize('NFKD')
      .replace(/[^\w\s-]/g, '')
      .trim()
      .toLowerCase()
      .replace(/[\s_-]+/g, '-')
      .slice(0, 60) || data.agency.id.slice(-8);
  return `statement-${slug}-${data.from}-${data.to}.${extension}`;
}

export type MonthlyStatementDeps = { db: Db; storage: Storage; today?: string };

/**
 * The job of the 1st (jobs.ts, 'agency-statements'): each agency with something to state for the previous month
 * (an invoice billed to it in the month, or a balance at its end) is sent that month's statement, PDF and CSV
 * attached, at its billing contact. Once per agency and month across instances and runs: the agency's row of
 * agency_statement_runs is inserted (on conflict, nothing) in the transaction that queues its e-mail, and only a
 * run that inserted it sends; a failure rolls both back, and the next run tries again. Answers how many it queued.
 * Safe at any time: run later in the month it sends what the 1st did not (after downtime), and nothing twice.
 */
export async function sendMonthlyAgencyStatements(deps: MonthlyStatementDeps): Promise<number> {
  const { db, storage } = deps;
  const month = previousMonth(deps.today ?? businessToday());
  const agencyIds = await selectAgenciesWithActivity(db, { ...month, timeZone: getBusinessTimeZone() });
  if (agencyIds.length === 0) return 0;
  const letterhead = await readLetterhead(db, storage);
  let queued = 0;
  for (const agencyId of agencyIds) {
    const sent = await db.transaction(async (tx) => {
      if (!(await claimStatementRun(tx, agencyId, month.from))) return false;
      const agency = await selectStatementAgency(tx, agencyId);
      if (!agency) return false;
      const data = await buildStatement(tx, agency, month);
      const pdf = await renderAgencyStatementPdf({ ...data, letterhead });
      const attachments = [
        {
          filename: statementFilename(data, 'pdf'),
          contentType: 'application/pdf',
          storageKey: await storage.put(Readable.from([pdf])),
        },
        {
          filename: statementFilename(data, 'csv'),
          contentType: 'text/csv; charset=utf-8',
          storageKey: await storage.put(Readable.from([Buffer.from(agencyStatementCsv(data), 'utf8')])),
        },
      ];
      await enqueueEmail(
        tx,
        agencyStatementEmail({
          data,
          recipient: { name: agency.name, email: agency.billingEmail, contactPerson: agency.billingName },
          sender: letterhead.company,
          attachments,
        }),
      );
      return true;
    });
    if (sent) queued++;
  }
  return queued;
}
