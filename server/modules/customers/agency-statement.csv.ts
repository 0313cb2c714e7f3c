import { STATEMENT_COMMISSION_LABELS, STATEMENT_ENTRY_LABELS } from '@shared/contracts/agencies';
import { AGING_BUCKET_LABELS, AGING_BUCKETS } from '@shared/contracts/receivables-vocabulary';
import { type Cents, centsToPlain } from '@shared/money';
import { csvCell } from '../commissions/commissions.csv';
import type { StatementData } from './agency-statement.service';

export const STATEMENT_CSV_HEADER = [
  'Date',
  'Type',
  'Number',
  'Invoice',
  'Advertiser',
  'Contract',
  'Issue Date',
  'Due Date',
  'Document Amount',
  'Amount',
  'Agency Commission',
  'Commission Mode',
  'Balance',
] as const;

const SHORT_MODE = { net: 'Net', gross: 'Gross' } as const;

/**
 * The statement as CSV (RFC 4180, CRLF line ends), in one table: the opening balance, one line per entry (its
 * signed amount and the running balance), the closing balance, then the aging of the closing balance and the
 * commission totals, each a line of its own with its amount in the Amount column. Amounts as plain numbers.
 */
export function agencyStatementCsv(data: StatementData): string {
  const blank = (cells: Partial<Record<(typeof STATEMENT_CSV_HEADER)[number], string>>) =>
    STATEMENT_CSV_HEADER.map((column) => cells[column] ?? '');
  const summary = (date: string, type: string, amount: Cents, balance = false) =>
    blank({
      Date: date,
      Type: type,
      Amount: centsToPlain(amount),
      ...(balance ? { Balance: centsToPlain(amount) } : {}),
    });
  const { figures } = data;
  const lines: string[][] = [[...STATEMENT_CSV_HEADER]];
  lines.push(summary(data.from, 'Opening balance', figures.openingCents, true));
  for (const entry of data.entries) {
    lines.push(
      blank({
        Date: entry.date,
        Type: STATEMENT_ENTRY_LABELS[entry.kind],
        Number: entry.number ?? '',
        Invoice: entry.invoiceNumber,
        Advertiser: entry.advertiserName,
        Contract: entry.contractName,
        'Issue Date': entry.issueDate,
        'Due Date': entry.dueDate,
        'Document Amount': centsToPlain(entry.documentCents),
        Amount: centsToPlain(entry.deltaCents),
        'Agency Commission': entry.kind === 'invoice' ? centsToPlain(entry.commissionCents) : '',
        'Commission Mode': entry.commissionMode ? SHORT_MODE[entry.commissionMode] : '',
        Balance: centsToPlain(entry.balanceCents),
      }),
    );
  }
  lines.push(summary(data.to, 'Closing balance', figures.closingCents, true));
  for (const bucket of AGING_BUCKETS) {
    lines.push(summary(data.to, `Aging: ${AGING_BUCKET_LABELS[bucket]}`, figures.agingCents[bucket]));
  }
  lines.push(summary(data.to, STATEMENT_COMMISSION_LABELS.net, figures.netCommissionCents));
  lines.push(summary(data.to, STATEMENT_COMMISSION_LABELS.gross, figures.grossCommissionCents));
  lines.push(
    summary(data.to, STATEMENT_COMMISSION_LABELS.total, figures.netCommissionCents + figures.grossCommissionCents),
  );
  return `${lines.map((cells) => cells.map(csvCell).join(',')).join('\r\n')}\r\n`;
}
