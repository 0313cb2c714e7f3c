import { DUNNING_STAGE_LABELS } from '@shared/contracts/invoice-vocabulary';
import type { ReceivableRow } from '@shared/contracts/receivables';
import { plainAmount } from '@shared/money';
import { csvCell } from '../commissions/commissions.csv';

export const RECEIVABLES_CSV_HEADER = [
  'Customer',
  'Company',
  'Open Balance',
  'Current',
  '1-30 Days',
  '31-60 Days',
  '61-90 Days',
  '90+ Days',
  'Overdue',
  'Open Invoices',
  'Oldest Due Date',
  'Days Past Due',
  'Dunning Stage',
  'Credit Balance',
  'Last Payment Date',
  'Last Payment Amount',
] as const;

/** The Receivables rows as CSV (RFC 4180, CRLF line ends), one line per customer, amounts in dollars. */
export function receivablesCsv(rows: ReceivableRow[]): string {
  const lines = [RECEIVABLES_CSV_HEADER.map(csvCell).join(',')];
  for (const row of rows) {
    lines.push(
      [
        row.customerName,
        row.company ?? '',
        plainAmount(row.openBalance),
        plainAmount(row.aging.current),
        plainAmount(row.aging['1-30']),
        plainAmount(row.aging['31-60']),
        plainAmount(row.aging['61-90']),
        plainAmount(row.aging['90+']),
        plainAmount(row.overdue),
        String(row.openInvoices),
        row.oldestDueDate ?? '',
        String(row.daysPastDue),
        row.dunningStage ? DUNNING_STAGE_LABELS[row.dunningStage] : '',
        plainAmount(row.creditBalance),
        row.lastPaymentDate ?? '',
        row.lastPaymentAmount === null ? '' : plainAmount(row.lastPaymentAmount),
      ]
        .map(csvCell)
        .join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
