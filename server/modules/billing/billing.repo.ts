import type { Adjustment, AgencyTerms, BillableContract, BillableLine } from '@shared/billing';
import type { PriceMetric } from '@shared/contracts/product-vocabulary';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  contractAdjustments,
  contractLineItems,
  contracts,
  invoiceLines,
  invoices,
  packages,
  products,
} from '../../db/schema';
import { prepared } from '../../lib/prepared';

export type ContractRow = typeof contracts.$inferSelect;

export async function selectContract(db: Db, id: string): Promise<ContractRow | undefined> {
  const [row] = await db.select().from(contracts).where(eq(contracts.id, id)).limit(1);
  return row;
}

/**
 * A contract's agency terms as shared/billing.ts takes them (product.md section 20): null unless it is billed to
 * an agency with a commission and a billing mode.
 */
export function agencyTermsOf(
  contract: Pick<ContractRow, 'agencyCommissionBp' | 'agencyBillingMode'>,
): AgencyTerms | null {
  return contract.agencyCommissionBp === null || contract.agencyBillingMode === null
    ? null
    : { commissionBp: contract.agencyCommissionBp, billingMode: contract.agencyBillingMode };
}

/**
 * The lines as sold (their snapshots), package, setup fee and agency terms a contract bills, as shared/billing.ts
 * takes them.
 */
export async function selectBillableContract(db: Db, contract: ContractRow): Promise<BillableContract> {
  const [lines, pkg] = await Promise.all([
    db
      .select({
        description: products.name,
        productId: contractLineItems.productId,
        priceMetric: contractLineItems.priceMetric,
        quantity: contractLineItems.quantity,
        unitPriceCents: contractLineItems.unitPriceCents,
        discountCents: contractLineItems.discountCents,
        seasonalPriceCents: contractLineItems.seasonalPriceCents,
        flightStart: contractLineItems.flightStart,
        flightEnd: contractLineItems.flightEnd,
      })
      .from(contractLineItems)
      .innerJoin(products, eq(products.id, contractLineItems.productId))
      .where(eq(contractLineItems.contractId, contract.id))
      .orderBy(asc(contractLineItems.position), asc(contractLineItems.id)),
    contract.packageId
      ? db
          .select({ name: packages.name })
          .from(packages)
          .where(eq(packages.id, contract.packageId))
          .limit(1)
          .then((rows) => rows[0])
      : Promise.resolve(undefined),
  ]);
  return {
    lines: lines.map((line) => ({ ...line, priceMetric: line.priceMetric as PriceMetric })),
    packageName: pkg?.name ?? null,
    packagePriceCents: contract.packagePriceCents,
    setupFeeCents: contract.setupFeeCents,
    agency: agencyTermsOf(contract),
  };
}

/** The invoices of one contract by period (the schedule marks the periods already issued). */
export async function selectContractInvoiceRefs(db: Db, contractId: string) {
  return db
    .select({
      id: invoices.id,
      number: invoices.number,
      status: invoices.status,
      periodIndex: invoices.periodIndex,
      subtotalCents: invoices.subtotalCents,
      setupFeeCents: invoices.setupFeeCents,
      agencyCommissionCents: invoices.agencyCommissionCents,
      agencyBillingMode: invoices.agencyBillingMode,
      taxCents: invoices.taxCents,
      totalCents: invoices.totalCents,
      inSeason: invoices.inSeason,
    })
    .from(invoices)
    .where(eq(invoices.contractId, contractId))
    .orderBy(asc(invoices.periodStart));
}

/** The adjustment lines (amendments' charges and credits) of these invoices, in one statement, in their order. */
export async function selectAdjustmentLinesOf(db: Db, invoiceIds: readonly string[]) {
  if (invoiceIds.length === 0) return [];
  return db
    .select({
      invoiceId: invoiceLines.invoiceId,
      description: invoiceLines.description,
      coversStart: invoiceLines.coversStart,
      coversEnd: invoiceLines.coversEnd,
      amountCents: invoiceLines.amountCents,
    })
    .from(invoiceLines)
    .where(and(inArray(invoiceLines.invoiceId, [...invoiceIds]), eq(invoiceLines.kind, 'adjustment')))
    .orderBy(asc(invoiceLines.invoiceId), asc(invoiceLines.position));
}

export async function selectAnyInvoiceId(db: Db, contractId: string): Promise<string | undefined> {
  const [row] = await db.select({ id: invoices.id }).from(invoices).where(eq(invoices.contractId, contractId)).limit(1);
  return row?.id;
}

/** The periods of a contract's invoices (not voided) that end on or after a day: those an amendment may touch. */
export async function selectInvoicedPeriods(tx: Db, contractId: string, from: string) {
  return tx
    .select({ start: invoices.periodStart, end: invoices.periodEnd })
    .from(invoices)
    .where(
      and(
        eq(invoices.contractId, contractId),
        sql`${invoices.status} <> 'void'`,
        sql`${invoices.periodEnd} >= ${from}::date`,
      ),
    )
    .orderBy(asc(invoices.periodStart));
}

/** A contract's amendment charges and credits not yet on an invoice, in the order the next invoice lists them. */
export async function selectPendingAdjustments(db: Db, contractId: string): Promise<Adjustment[]> {
  return db
    .select({
      description: contractAdjustments.description,
      productId: contractAdjustments.productId,
      coversStart: contractAdjustments.coversStart,
      coversEnd: contractAdjustments.coversEnd,
      amountCents: contractAdjustments.amountCents,
    })
    .from(contractAdjustments)
    .where(and(eq(contractAdjustments.contractId, contractId), isNull(contractAdjustments.invoiceId)))
    .orderBy(asc(contractAdjustments.coversStart), asc(contractAdjustments.createdAt), asc(contractAdjustments.id));
}

/**
 * The lines as sold of several contracts in one statement (with the products' names), in each contract's
 * order, as shared/billing.ts takes them: for previews of many contracts at once (lists, the client portal).
 * Prepared once per database, the contracts' ids as one array parameter (docs/decisions/017-performance.md).
 */
export async function selectBillableLinesOf(
  db: Db,
  contractIds: readonly string[],
): Promise<Map<string, BillableLine[]>> {
  const byContract = new Map<string, BillableLine[]>(contractIds.map((id) => [id, []]));
  if (contractIds.length === 0) return byContract;
  const rows = await prepared(db, 'billable_lines_of', prepareBillableLinesOf).execute({ ids: [...contractIds] });
  for (const { contractId, ...line } of rows) {
    byContract.get(contractId)?.push({ ...line, priceMetric: line.priceMetric as PriceMetric });
  }
  return byContract;
}

const prepareBillableLinesOf = (db: Db) =>
  db
    .select({
      contractId: contractLineItems.contractId,
      description: products.name,
      productId: contractLineItems.productId,
      priceMetric: contractLineItems.priceMetric,
      quantity: contractLineItems.quantity,
      unitPriceCents: contractLineItems.unitPriceCents,
      discountCents: contractLineItems.discountCents,
      seasonalPriceCents: contractLineItems.seasonalPriceCents,
      flightStart: contractLineItems.flightStart,
      flightEnd: contractLineItems.flightEnd,
    })
    .from(contractLineItems)
    .innerJoin(products, eq(products.id, contractLineItems.productId))
    .where(sql`${contractLineItems.contractId} = any(${sql.placeholder('ids')}::uuid[])`)
    .orderBy(asc(contractLineItems.contractId), asc(contractLineItems.position), asc(contractLineItems.id))
    .prepare('billable_lines_of');

export type FirstInvoiceRef = {
  id: string;
  number: string;
  periodStart: string;
  dueDate: string;
  subtotalCents: number;
  taxCents: number;
  totalCents: number;
};

/**
 * Of each of several contracts, in one statement: its first invoice where it is issued (the invoice of the
 * period starting on the contract's start date, found by invoices_contract_period_key) and its last invoiced
 * period (absent: none invoiced yet).
 */
export async function selectInvoiceRefsOf(
  db: Db,
  contracts: readonly Pick<ContractRow, 'id' | 'startDate'>[],
): Promise<{ firstInvoices: Map<string, FirstInvoiceRef>; lastInvoiced: Map<string, number> }> {
  const firstInvoices = new Map<string, FirstInvoiceRef>();
  const lastInvoiced = new Map<string, number>();
  if (contracts.length === 0) return { firstInvoices, lastInvoiced };
  const rows = await prepared(db, 'invoice_refs_of', prepareInvoiceRefsOf).execute({
    ids: contracts.map((c) => c.id),
    starts: contracts.map((c) => c.startDate),
  });
  for (const { contractId, last, ...invoice } of rows) {
    if (last !== null) lastInvoiced.set(contractId, last);
    if (invoice.id !== null) firstInvoices.set(contractId, invoice as FirstInvoiceRef);
  }
  return { firstInvoices, lastInvoiced };
}

const prepareInvoiceRefsOf = (db: Db) =>
  db
    .select({
      contractId: sql<string>`refs.contract_id`,
      last: sql<
        number | null
      >`(select max(l.period_index) from invoices l where l.contract_id = refs.contract_id)`.mapWith(Number),
      id: invoices.id,
      number: invoices.number,
      periodStart: invoices.periodStart,
      dueDate: invoices.dueDate,
      subtotalCents: invoices.subtotalCents,
      taxCents: invoices.taxCents,
      totalCents: invoices.totalCents,
    })
    .from(
      sql`unnest(${sql.placeholder('ids')}::uuid[], ${sql.placeholder('starts')}::date[]) as refs(contract_id, start_date)`,
    )
    .leftJoin(invoices, sql`${invoices.contractId} = refs.contract_id and ${invoices.periodStart} = refs.start_date`)
    .prepare('invoice_refs_of');

/** The last invoiced period of each of several contracts (absent: none invoiced yet). */
export async function selectLastInvoicedPeriodsOf(
  db: Db,
  contractIds: readonly string[],
): Promise<Map<string, number>> {
  if (contractIds.length === 0) return new Map();
  const rows = await prepared(db, 'last_invoiced_periods_of', prepareLastInvoicedPeriodsOf).execute({
    ids: [...contractIds],
  });
  return new Map(rows.map((row) => [row.contractId, row.last]));
}

const prepareLastInvoicedPeriodsOf = (db: Db) =>
  db
    .select({ contractId: invoices.contractId, last: sql<number>`max(${invoices.periodIndex})`.mapWith(Number) })
    .from(invoices)
    .where(sql`${invoices.contractId} = any(${sql.placeholder('ids')}::uuid[])`)
    .groupBy(invoices.contractId)
    .prepare('last_invoiced_periods_of');

/** The amendment charges and credits not yet invoiced of several contracts, each in its next invoice's order. */
export async function selectPendingAdjustmentsOf(
  db: Db,
  contractIds: readonly string[],
): Promise<Map<string, Adjustment[]>> {
  const byContract = new Map<string, Adjustment[]>();
  if (contractIds.length === 0) return byContract;
  const rows = await db
    .select({
      contractId: contractAdjustments.contractId,
      description: contractAdjustments.description,
      productId: contractAdjustments.productId,
      coversStart: contractAdjustments.coversStart,
      coversEnd: contractAdjustments.coversEnd,
      amountCents: contractAdjustments.amountCents,
    })
    .from(contractAdjustments)
    .where(and(inArray(contractAdjustments.contractId, [...contractIds]), isNull(contractAdjustments.invoiceId)))
    .orderBy(asc(contractAdjustments.coversStart), asc(contractAdjustments.createdAt), asc(contractAdjustments.id));
  for (const { contractId, ...adjustment } of rows) {
    const list = byContract.get(contractId) ?? [];
    list.push(adjustment);
    byContract.set(contractId, list);
  }
  return byContract;
}
