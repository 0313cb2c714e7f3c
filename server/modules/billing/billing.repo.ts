import type { BillableContract } from '@shared/billing';
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { contractLineItems, contracts, invoices, packages, products } from '../../db/schema';

export type ContractRow = typeof contracts.$inferSelect;

export async function selectContract(db: Db, id: string): Promise<ContractRow | undefined> {
  const [row] = await db.select().from(contracts).where(eq(contracts.id, id)).limit(1);
  return row;
}

/** The lines, package and setup fee a contract bills, as shared/billing.ts takes them. */
export async function selectBillableContract(db: Db, contract: ContractRow): Promise<BillableContract> {
  const [lines, pkg] = await Promise.all([
    db
      .select({
        description: products.name,
        productId: contractLineItems.productId,
        quantity: contractLineItems.quantity,
        unitPriceCents: contractLineItems.unitPriceCents,
        discountCents: contractLineItems.discountCents,
        seasonalPriceCents: products.seasonalPriceCents,
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
    lines,
    packageName: pkg?.name ?? null,
    packagePriceCents: contract.packagePriceCents,
    setupFeeCents: contract.setupFeeCents,
  };
}

/** The invoices of one contract by period (the schedule marks the periods already issued). */
export async function selectContractInvoiceRefs(db: Db, contractId: string) {
  return db
    .select({ id: invoices.id, number: invoices.number, status: invoices.status, periodIndex: invoices.periodIndex })
    .from(invoices)
    .where(eq(invoices.contractId, contractId))
    .orderBy(asc(invoices.periodStart));
}

export async function selectAnyInvoiceId(db: Db, contractId: string): Promise<string | undefined> {
  const [row] = await db.select({ id: invoices.id }).from(invoices).where(eq(invoices.contractId, contractId)).limit(1);
  return row?.id;
}
