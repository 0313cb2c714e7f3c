import { COMMISSION_STATUS_LABELS, type CommissionStatus } from '@shared/contracts/commissions';
import { shortContractId } from '@shared/contracts/contract-vocabulary';
import { centsToAmount } from '@shared/money';
import type { CommissionHistoryRow } from './commissions.repo';

export const COMMISSION_CSV_HEADER = [
  'Date',
  'Sales Rep',
  'Contract',
  'Contract Title',
  'Customer',
  'Invoice',
  'Rate (%)',
  'Amount',
  'Status',
] as const;

/** The commission history as CSV (RFC 4180, CRLF line ends), one line per commission row. */
export function commissionsCsv(rows: CommissionHistoryRow[]): string {
  const lines = [COMMISSION_CSV_HEADER.map(csvCell).join(',')];
  for (const row of rows) {
    lines.push(
      [
        row.earnedAt.toISOString().slice(0, 10),
        `${row.repFirstName ?? ''} ${row.repLastName ?? ''}`.trim(),
        shortContractId(row.contractId),
        row.contractTitle ?? row.contractDescription ?? '',
        row.customerName ?? '',
        row.invoiceNumber ?? '',
        percent(row.rateBp),
        centsToAmount(Number(row.amountCents)).toFixed(2),
        COMMISSION_STATUS_LABELS[row.status as CommissionStatus] ?? row.status,
      ]
        .map(csvCell)
        .join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** Basis points as a percent with up to two decimals: 500 -> "5", 1250 -> "12.5", 825 -> "8.25". */
function percent(bp: number): string {
  const whole = Math.trunc(bp / 100);
  const rest = String(bp % 100)
    .padStart(2, '0')
    .replace(/0+$/, '');
  return rest ? `${whole}.${rest}` : String(whole);
}

const NUMBER = /^-?\d+(\.\d+)?$/;
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV cell: quoted when it holds a comma, quote or line break; text that a spreadsheet would run as
 * a formula (starting with = + - @, tab or CR) is prefixed with a single quote. Plain numbers, such as
 * the negative amount of an adjustment, stay numbers.
 */
export function csvCell(value: string): string {
  let text = value;
  if (FORMULA_START.test(text) && !NUMBER.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
