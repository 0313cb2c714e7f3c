import { canReadContract, canRecordDelivery } from '@shared/contracts/contract-access';
import { shortContractId } from '@shared/contracts/contract-vocabulary';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/errors';
import type { SessionUser } from '../sessions/sessions';
import { type ImportContractRow, type ImportLineRow, selectContractLines, selectContractsByRef } from './delivery.repo';

/**
 * The rows of a delivery import (CSV) and of a delivery push (JSON) name their contract and line the same
 * way, and are refused the same way: a contract by id or short id (one the caller may not read reads as
 * unknown), a line by id or product name; every bad row listed with its reasons, nothing applied.
 */

const UUID = z.uuid();

type ContractRef = ImportContractRow & { ref: string };

/** The contracts the rows name, by id and short id, and their lines: two queries for all the rows. */
export type References = {
  contractsByRef: Map<string, ContractRef[]>;
  linesByContract: Map<string, ImportLineRow[]>;
};

/**
 * The contracts these references name (by id or short id) and their lines, in two queries for all the rows.
 * (The caller's access to each is checked row by row: a contract the caller may not read reads as unknown.)
 */
export async function resolveReferences(db: Db, contractRefs: readonly string[]): Promise<References> {
  const refs = [...new Set(contractRefs.map((r) => r.trim().toLowerCase()).filter(Boolean))];
  const ids = refs.filter((r) => UUID.safeParse(r).success);
  const shorts = refs.filter((r) => r.length === 8 && /^[0-9a-f]{8}$/.test(r));
  const found = await selectContractsByRef(db, ids, shorts);
  const contractsByRef = new Map<string, ContractRef[]>();
  for (const c of found) {
    for (const ref of [c.id, shortContractId(c.id)]) {
      contractsByRef.set(ref, [...(contractsByRef.get(ref) ?? []), { ...c, ref }]);
    }
  }
  const lines = await selectContractLines(
    db,
    found.map((c) => c.id),
  );
  const linesByContract = new Map<string, ImportLineRow[]>();
  for (const line of lines) {
    linesByContract.set(line.contract_id, [...(linesByContract.get(line.contract_id) ?? []), line]);
  }
  return { contractsByRef, linesByContract };
}

/** The CPM line a row names, or why the row cannot record delivery on it. */
export function resolveLine(
  refs: References,
  actor: SessionUser,
  contractText: string | undefined,
  lineText: string | undefined,
): { contract: ImportContractRow; line: ImportLineRow } | string {
  const contractRef = (contractText ?? '').trim();
  if (contractRef === '') return 'Contract is required';
  const contracts = refs.contractsByRef.get(contractRef.toLowerCase()) ?? [];
  // Whoever may record delivery for a contract may name it (an API key limited to delivery writes included).
  const readable = contracts.filter(
    (c) =>
      canReadContract(actor, { salesRepId: c.sales_rep_id }) ||
      canRecordDelivery(actor, { salesRepId: c.sales_rep_id }),
  );
  if (readable.length === 0) return `Unknown contract ${contractRef}`;
  if (readable.length > 1) return `Short id ${contractRef} matches several contracts: use the contract's full id`;
  const [contract] = readable;
  if (contract.status === 'draft') return `Contract ${contractRef} is a draft: nothing of it was billed`;
  if (!canRecordDelivery(actor, { salesRepId: contract.sales_rep_id })) {
    return `You don't have permission to record delivery for contract ${contractRef}`;
  }
  const lineRef = (lineText ?? '').trim();
  const lines = refs.linesByContract.get(contract.id) ?? [];
  const matches = UUID.safeParse(lineRef).success
    ? lines.filter((l) => l.id === lineRef.toLowerCase())
    : lines.filter((l) => l.product_name.trim().toLowerCase() === lineRef.toLowerCase());
  if (lineRef === '') return 'Line is required';
  if (matches.length === 0) return `Contract ${contractRef} has no line ${lineRef}`;
  if (matches.length > 1)
    return `${lineRef} names ${matches.length} lines of contract ${contractRef}: use the line's id`;
  const [line] = matches;
  if (line.price_metric !== 'cpm') {
    return `${line.product_name} is not a CPM line: delivery is recorded for CPM lines only`;
  }
  return { contract, line };
}

/** Reasons per row number, collected while checking rows. */
export class RowErrors {
  readonly byRow = new Map<number, string[]>();

  add(row: number, message: string): void {
    this.byRow.set(row, [...(this.byRow.get(row) ?? []), message]);
  }

  has(row: number): boolean {
    return this.byRow.has(row);
  }

  get size(): number {
    return this.byRow.size;
  }
}

/**
 * 400 (or 409) naming every bad row: "row 3": [reasons], ordered by row, and nothing applied. `source` words
 * the summary: a file "cannot be imported", a request's rows "cannot be recorded".
 */
export function rowErrors(code: 'VALIDATION' | 'CONFLICT', errors: RowErrors, source: 'file' | 'request'): AppError {
  const ordered = [...errors.byRow.entries()].sort(([a], [b]) => a - b);
  const [firstRow, firstReasons] = ordered[0];
  const count = ordered.length === 1 ? '1 row' : `${ordered.length} rows`;
  const what = source === 'file' ? 'of the file cannot be imported' : 'of the request cannot be recorded';
  const message = `${count} ${what}, so nothing was recorded. Row ${firstRow}: ${firstReasons[0]}`;
  return new AppError(code, message, {
    fieldErrors: Object.fromEntries(ordered.map(([row, reasons]) => [`row ${row}`, reasons])),
  });
}
