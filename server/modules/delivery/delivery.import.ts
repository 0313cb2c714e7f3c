import {
  DELIVERY_MESSAGES,
  type DeliveryImportResult,
  figureMessages,
  MAX_FIGURE,
  MAX_IMPORT_ROWS,
  MONTH_PATTERN,
} from '@shared/contracts/delivery';
import { parse } from 'csv-parse/sync';
import { businessToday } from '../../lib/business-day';
import { badRequest } from '../../lib/errors';
import type { SessionUser } from '../sessions/sessions';
import { RowErrors, resolveLine, resolveReferences, rowErrors } from './delivery.rows';
import {
  applyDelivery,
  type DeliveryDeps,
  type DeliveryEntry,
  type DeliveryProblem,
  periodProblems,
  periodsOf,
} from './delivery.service';

/**
 * POST /api/delivery/import (product.md section 12): a CSV of contract (id or short id), line (line id or
 * product name), month (YYYY-MM), impressions and clicks, validated whole. Every bad row is listed with its
 * reasons (400; 409 for settled periods the file would change) and nothing is applied; a valid file is
 * recorded in one transaction (delivery.service.ts applyDelivery), so importing it twice changes nothing
 * the second time.
 */

type CsvRecord = Record<string, string | undefined>;
type RawRow = { row: number; record: CsvRecord };

const REQUIRED = ['contract', 'line', 'month', 'impressions'] as const;

export async function importDelivery(
  deps: DeliveryDeps,
  actor: SessionUser,
  csv: string,
): Promise<DeliveryImportResult> {
  const rows = parseCsv(csv);
  const errors = new RowErrors();
  const fail = (row: number, message: string) => errors.add(row, message);

  const refs = await resolveReferences(
    deps.db,
    rows.map((r) => r.record.contract ?? ''),
  );
  const entries: DeliveryEntry[] = [];
  const seen = new Map<string, number>();
  for (const { row, record } of rows) {
    const month = (record.month ?? '').trim();
    if (!MONTH_PATTERN.test(month)) fail(row, DELIVERY_MESSAGES.month);
    const impressions = figure(record.impressions, 'Impressions', true);
    if (typeof impressions === 'string') fail(row, impressions);
    const clicks = figure(record.clicks, 'Clicks', false);
    if (typeof clicks === 'string') fail(row, clicks);

    const target = resolveLine(refs, actor, record.contract, record.line);
    if (typeof target === 'string') {
      fail(row, target);
      continue;
    }
    const { contract, line } = target;
    if (errors.has(row)) continue;
    const key = `${line.id}|${month}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      fail(row, `Row ${earlier} already gives ${line.product_name} for ${month}`);
      continue;
    }
    seen.set(key, row);
    entries.push({
      contractId: contract.id,
      lineId: line.id,
      month,
      impressions: impressions as number,
      clicks: clicks as number | null,
      row,
    });
  }
  // The periods are checked here too, so that the answer lists every bad row at once (the transaction that
  // records them checks them again, under the contracts' locks).
  const problems = periodProblems(entries, await periodsOf(deps.db, entries), businessToday());
  const settledOnly = errors.size === 0 && problems.length > 0 && problems.every((p) => p.settled);
  for (const problem of problems) fail(problem.entry.row ?? 0, problem.message);
  if (errors.size > 0) throw rowErrors(settledOnly ? 'CONFLICT' : 'VALIDATION', errors, 'file');

  const outcome = await applyDelivery(deps, actor, entries, (problems: DeliveryProblem[]) => {
    // Only settled periods in the way: a conflict (409); anything else is bad input (400).
    const refused = new RowErrors();
    for (const problem of problems) refused.add(problem.entry.row ?? 0, problem.message);
    return rowErrors(problems.every((p) => p.settled) ? 'CONFLICT' : 'VALIDATION', refused, 'file');
  });
  const { changed: _changed, ...result } = outcome;
  return result;
}

/** A whole figure of at least 0; clicks may be left blank. Answers the number, null (blank clicks) or why not. */
function figure(value: string | undefined, label: string, required: boolean): number | null | string {
  const says = figureMessages(label);
  const text = (value ?? '').trim().replaceAll(',', '');
  if (text === '') return required ? says.required : null;
  if (/^-/.test(text)) return says.negative;
  if (!/^\d+(\.0+)?$/.test(text)) return /^\d*\.\d+$/.test(text) ? says.whole : says.number;
  const n = Number(text);
  if (n > MAX_FIGURE) return says.tooLarge;
  return n;
}

/** The file's records with their line numbers (the header is line 1). */
function parseCsv(csv: string): RawRow[] {
  let records: { record: CsvRecord; info: { lines: number } }[];
  try {
    records = parse(csv, {
      bom: true,
      columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()),
      skip_empty_lines: true,
      relax_column_count: true,
      trim: true,
      info: true,
    }) as { record: CsvRecord; info: { lines: number } }[];
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw badRequest(`The file is not valid CSV: ${reason}`);
  }
  if (records.length === 0) {
    if (csv.trim() !== '' && !hasColumns(csv)) throw badRequest(DELIVERY_MESSAGES.columns);
    throw badRequest(DELIVERY_MESSAGES.emptyFile);
  }
  const columns = Object.keys(records[0].record);
  if (!REQUIRED.every((c) => columns.includes(c))) throw badRequest(DELIVERY_MESSAGES.columns);
  if (records.length > MAX_IMPORT_ROWS) throw badRequest(DELIVERY_MESSAGES.tooManyRows);
  return records.map(({ record, info }) => ({ row: info.lines, record }));
}

function hasColumns(csv: string): boolean {
  const header = (csv.split(/\r?\n/, 1)[0] ?? '').toLowerCase();
  return REQUIRED.every((c) => header.includes(c));
}
