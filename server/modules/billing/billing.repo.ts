import type { Adjustment, BillableContract } from '@shared/billing';
import type { PriceMetric } from '@shared/contracts/product-vocabulary';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { contractAdjustments, contractLineItems, contracts, invoices, packages, products } from '../../db/schema';

export type ContractRow = typeof contracts.$inferSelect;

export async function selectContract(db: Db, id: string): Promise<ContractRow | undefined> {
  const [row] = await db.select().from(contracts).where(eq(contracts.id, id)).limit(1);
  return row;
}

/** The lines as sold (their snapshots), package and setup fee a contract bills, as shared/billing.ts takes them. */
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
      taxCents: invoices.taxCents,
      totalCents: invoices.totalCents,
      inSeason: invoices.inSeason,
    })
    .from(invoices)
    .where(eq(invoices.contractId, contractId))
    .orderBy(asc(invoices.periodStart));
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
