import { and, eq, getTableColumns, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { contractPauses, contracts, invoices } from '../../db/schema';

export type ContractRow = typeof contracts.$inferSelect;
export type ContractColumns = PgUpdateSetSource<typeof contracts>;

/** A filter on a contract aliased `r`: no insertion order version was ever sent for it. */
export const WITHOUT_INSERTION_ORDER = sql`not exists (select 1 from insertion_orders io where io.contract_id = r.id)`;

/**
 * ONE conditional UPDATE of the contracts named: only those whose status is one of `from` change. Each
 * row's status before the change is read in the same statement (a CTE that locks the rows), in id order
 * so that concurrent changes of several contracts take their locks in one order.
 */
export async function updateContractStatuses(
  tx: Db,
  ids: readonly string[],
  change: { from: readonly string[]; set: ContractColumns; onlyIf?: SQL },
): Promise<{ row: ContractRow; previousStatus: string }[]> {
  if (ids.length === 0) return [];
  const previous = tx.$with('previous').as(
    tx
      .select({ id: contracts.id, status: contracts.status })
      .from(contracts)
      .where(inArray(contracts.id, [...ids]))
      .orderBy(contracts.id)
      .for('update'),
  );
  return tx
    .with(previous)
    .update(contracts)
    .set({ ...change.set, updatedAt: new Date() })
    .from(previous)
    .where(and(eq(contracts.id, previous.id), inArray(previous.status, [...change.from]), change.onlyIf))
    .returning({ row: getTableColumns(contracts), previousStatus: previous.status });
}

export type ProviderIds = { customerId: string; subscriptionId: string };

/** The provider's customer and subscription ids, where the contract has none yet. */
export const recordProviderIds = (ids: ProviderIds): ContractColumns => ({
  stripeCustomerId: sql`coalesce(${contracts.stripeCustomerId}, ${ids.customerId})`,
  stripeSubscriptionId: sql`coalesce(${contracts.stripeSubscriptionId}, ${ids.subscriptionId})`,
});

/** A resumed contract keeps the day it first became active. */
export const keepFirstActivation = () => sql`coalesce(${contracts.activatedAt}, now())`;

/**
 * A pause opens an interval on its day; periods that start inside a manual one are not billed, those inside
 * a pause for non-payment are billed when it resumes.
 */
export async function openPause(
  tx: Db,
  contractIds: readonly string[],
  on: string,
  reason: 'manual' | 'non_payment',
): Promise<void> {
  if (contractIds.length === 0) return;
  await tx.insert(contractPauses).values(contractIds.map((contractId) => ({ contractId, pausedOn: on, reason })));
}

/** A resume closes the contract's open interval on its day. */
export async function closePause(tx: Db, contractIds: readonly string[], on: string): Promise<void> {
  if (contractIds.length === 0) return;
  await tx
    .update(contractPauses)
    .set({ resumedOn: on })
    .where(and(inArray(contractPauses.contractId, [...contractIds]), isNull(contractPauses.resumedOn)));
}

/**
 * Locks the contract row against other changes of it (FOR NO KEY UPDATE: rows that merely refer to it may
 * still be inserted). Answers whether it exists.
 */
export async function lockContractRow(tx: Db, contractId: string): Promise<boolean> {
  const rows = await tx
    .select({ id: contracts.id })
    .from(contracts)
    .where(eq(contracts.id, contractId))
    .for('no key update');
  return rows.length > 0;
}

/**
 * Locks the contracts of many invoices at once, as lockContractRow does, in contract id order (the order every
 * path that locks several contracts takes). Answers each invoice found with its contract and customer.
 */
export async function lockContractsOfInvoiceRows(
  tx: Db,
  invoiceIds: readonly string[],
): Promise<{ invoiceId: string; contractId: string; customerId: string }[]> {
  if (invoiceIds.length === 0) return [];
  return tx
    .select({ invoiceId: invoices.id, contractId: invoices.contractId, customerId: invoices.customerId })
    .from(contracts)
    .innerJoin(invoices, eq(invoices.contractId, contracts.id))
    .where(inArray(invoices.id, [...invoiceIds]))
    .orderBy(contracts.id)
    .for('no key update', { of: contracts });
}

/** Locks the contract an invoice belongs to, as lockContractRow does. Answers whether the invoice exists. */
export async function lockContractOfInvoiceRow(tx: Db, invoiceId: string): Promise<boolean> {
  const rows = await tx
    .select({ id: contracts.id })
    .from(contracts)
    .innerJoin(invoices, eq(invoices.contractId, contracts.id))
    .where(eq(invoices.id, invoiceId))
    .for('no key update', { of: contracts });
  return rows.length > 0;
}
