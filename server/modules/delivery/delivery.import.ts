import { canReadContract, canRecordDelivery } from '@shared/contracts/contract-access';
import { shortContractId } from '@shared/contracts/contract-vocabulary';
import {
  DELIVERY_MESSAGES,
  type DeliveryImportResult,
  MAX_FIGURE,
  MAX_IMPORT_ROWS,
  MONTH_PATTERN,
} from '@shared/contracts/delivery';
import { parse } from 'csv-parse/sync';
import { z } from 'zod';
import { businessToday } from '../../lib/business-day';
import { AppError, badRequest } from '../../lib/errors';
import type { SessionUser } from '../sessions/sessions';
import { type ImportContractRow, type ImportLineRow, selectContractLines, selectContractsByRef } from './delivery.repo';
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
const UUID = z.uuid();

export async function importDelivery(
  deps: DeliveryDeps,
  actor: SessionUser,
  csv: string,
): Promise<DeliveryImportResult> {
  const rows = parseCsv(csv);
  const errors = new Map<number, string[]>();
  const fail = (row: number, message: string) => errors.set(row, [...(errors.get(row) ?? []), message]);

  const refs = await resolveReferences(deps, rows);
  const entries: DeliveryEntry[] = [];
  const seen = new Map<string, number>();
  for (const { row, record } of rows) {
    const month = (record.month ?? '').trim();
    if (!MONTH_PATTERN.test(month)) fail(row, DELIVERY_MESSAGES.month);
    const impressions = figure(record.impressions, 'Impressions', true);
    if (typeof impressions === 'string') fail(row, impressions);
    const clicks = figure(record.clicks, 'Clicks', false);
    if (typeof clicks === 'string') fail(row, clicks);

    const contractRef = (record.contract ?? '').trim();
    const contracts = refs.contractsByRef.get(contractRef.toLowerCase()) ?? [];
    if (contractRef === '') {
      fail(row, 'Contract is required');
      continue;
    }
    const readable = contracts.filter((c) => canReadContract(actor, { salesRepId: c.sales_rep_id }));
    if (readable.length === 0) {
      fail(row, `Unknown contract ${contractRef}`);
      continue;
    }
    if (readable.length > 1) {
      fail(row, `Short id ${contractRef} matches several contracts: use the contract's full id`);
      continue;
    }
    const [contract] = readable;
    if (contract.status === 'draft') {
      fail(row, `Contract ${contractRef} is a draft: nothing of it was billed`);
      continue;
    }
    if (!canRecordDelivery(actor, { salesRepId: contract.sales_rep_id })) {
      fail(row, `You don't have permission to record delivery for contract ${contractRef}`);
      continue;
    }
    const lineRef = (record.line ?? '').trim();
    const lines = refs.linesByContract.get(contract.id) ?? [];
    const matches = UUID.safeParse(lineRef).success
      ? lines.filter((l) => l.id === lineRef.toLowerCase())
      : lines.filter((l) => l.product_name.trim().toLowerCase() === lineRef.toLowerCase());
    if (lineRef === '') {
      fail(row, 'Line is required');
      continue;
    }
    if (matches.length === 0) {
      fail(row, `Contract ${contractRef} has no line ${lineRef}`);
      continue;
    }
    if (matches.length > 1) {
      fail(row, `${lineRef} names ${matches.length} lines of contract ${contractRef}: use the line's id`);
      continue;
    }
    const [line] = matches;
    if (line.price_metric !== 'cpm') {
      fail(row, `${line.product_name} is not a CPM line: delivery is recorded for CPM lines only`);
      continue;
    }
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
  if (errors.size > 0) throw rowErrors(settledOnly ? 'CONFLICT' : 'VALIDATION', errors);

  const outcome = await applyDelivery(deps, actor, entries, (problems: DeliveryProblem[]) => {
    // Only settled periods in the way: a conflict (409); anything else is bad input (400).
    const refused = new Map<number, string[]>();
    for (const problem of problems) {
      const row = problem.entry.row ?? 0;
      refused.set(row, [...(refused.get(row) ?? []), problem.message]);
    }
    return rowErrors(problems.every((p) => p.settled) ? 'CONFLICT' : 'VALIDATION', refused);
  });
  const { changed: _changed, ...result } = outcome;
  return result;
}

/** 400 (or 409) naming every bad row: "row 3": [reasons], ordered by row, and nothing applied. */
function rowErrors(code: 'VALIDATION' | 'CONFLICT', errors: Map<number, string[]>): AppError {
  const ordered = [...errors.entries()].sort(([a], [b]) => a - b);
  const [firstRow, firstReasons] = ordered[0];
  const count = ordered.length === 1 ? '1 row' : `${ordered.length} rows`;
  const message = `${count} of the file cannot be imported, so nothing was recorded. Row ${firstRow}: ${firstReasons[0]}`;
  return new AppError(code, message, {
    fieldErrors: Object.fromEntries(ordered.map(([row, reasons]) => [`row ${row}`, reasons])),
  });
}

/** A whole figure of at least 0; clicks may be left blank. Answers the number, null (blank clicks) or why not. */
function figure(value: string | undefined, label: string, required: boolean): number | null | string {
  const text = (value ?? '').trim().replaceAll(',', '');
  if (text === '') return required ? `${label} is required` : null;
  if (/^-/.test(text)) return `${label} cannot be negative`;
  if (!/^\d+(\.0+)?$/.test(text)) {
    return /^\d*\.\d+$/.test(text) ? `${label} must be a whole number` : `${label} must be a number`;
  }
  const n = Number(text);
  if (n > MAX_FIGURE) return `${label} is too large`;
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

type ContractRef = ImportContractRow & { ref: string };

/**
 * The contracts the file names (by id or short id) and their lines, in two queries for the whole file.
 * (The caller's access to each is checked row by row: a contract the caller may not read reads as unknown.)
 */
async function resolveReferences(deps: DeliveryDeps, rows: readonly RawRow[]) {
  const refs = [...new Set(rows.map((r) => (r.record.contract ?? '').trim().toLowerCase()).filter(Boolean))];
  const ids = refs.filter((r) => UUID.safeParse(r).success);
  const shorts = refs.filter((r) => r.length === 8 && /^[0-9a-f]{8}$/.test(r));
  const found = await selectContractsByRef(deps.db, ids, shorts);
  const contractsByRef = new Map<string, ContractRef[]>();
  for (const c of found) {
    for (const ref of [c.id, shortContractId(c.id)]) {
      contractsByRef.set(ref, [...(contractsByRef.get(ref) ?? []), { ...c, ref }]);
    }
  }
  const lines = await selectContractLines(
    deps.db,
    found.map((c) => c.id),
  );
  const linesByContract = new Map<string, ImportLineRow[]>();
  for (const line of lines)
    linesByContract.set(line.contract_id, [...(linesByContract.get(line.contract_id) ?? []), line]);
  return { contractsByRef, linesByContract };
}
