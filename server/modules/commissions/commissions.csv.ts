import { COMMISSION_STATUS_LABELS, type CommissionStatus } from '@shared/contracts/commissions';
import { shortContractId } from '@shared/contracts/contract-vocabulary';
import { centsToPlain } from '@shared/money';
import { percentNumberText } from '@shared/rates';
import { businessDayOf } from '../../lib/business-day';
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

/**
 * The commission history as CSV (RFC 4180, CRLF line ends), one line per commission row; its date is the
 * business's day it was earned on (BUSINESS_TIMEZONE).
 */
export function commissionsCsv(rows: CommissionHistoryRow[]): string {
  const lines = [COMMISSION_CSV_HEADER.map(csvCell).join(',')];
  for (const row of rows) {
    lines.push(
      [
        businessDayOf(row.earnedAt),
        `${row.repFirstName ?? ''} ${row.repLastName ?? ''}`.trim(),
        shortContractId(row.contractId),
        row.contractTitle ?? row.contractDescription ?? '',
        row.customerName ?? '',
        row.invoiceNumber ?? '',
        percentNumberText(row.rateBp),
        centsToPlain(Number(row.amountCents)),
        COMMISSION_STATUS_LABELS[row.status as CommissionStatus] ?? row.status,
      ]
        .map(csvCell)
        .join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
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
