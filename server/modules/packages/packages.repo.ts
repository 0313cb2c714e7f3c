import type { PackageValues } from '@shared/contracts/packages';
import { asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { contracts, packageItems, packages, products } from '../../db/schema';
import { likePattern } from '../../lib/http';

export type PackageRow = typeof packages.$inferSelect;
export type PackageItemRow = typeof packageItems.$inferSelect;
export type ProductRow = typeof products.$inferSelect;

/** The expression of the packages_search_idx trigram index, so the GIN index serves the search. */
const searchText = sql`lower(${packages.name} || ' ' || coalesce(${packages.description}, ''))`;

/** A page of packages by name, and the number matching; `q` searches name and description. */
export async function selectPackagePage(
  db: Db,
  filter: { q?: string; limit: number; offset: number },
): Promise<{ rows: PackageRow[]; total: number }> {
  const where = filter.q ? sql`${searchText} like ${likePattern(filter.q)}` : undefined;
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(packages)
      .where(where)
      .orderBy(asc(packages.name), asc(packages.id))
      .limit(filter.limit)
      .offset(filter.offset),
    db.select({ total: count() }).from(packages).where(where),
  ]);
  return { rows, total };
}

/** The items of the given packages with their products (null when deleted), by package and saved order. */
export async function selectPackageItems(
  db: Db,
  packageIds: string[],
): Promise<{ item: PackageItemRow; product: ProductRow | null }[]> {
  return db
    .select({ item: packageItems, product: products })
    .from(packageItems)
    .leftJoin(products, eq(products.id, packageItems.productId))
    .where(inArray(packageItems.packageId, packageIds))
    .orderBy(asc(packageItems.packageId), asc(packageItems.position));
}

export async function selectPackage(db: Db, id: string): Promise<PackageRow | undefined> {
  const [row] = await db.select().from(packages).where(eq(packages.id, id)).limit(1);
  return row;
}

/** Locks the package row (FOR UPDATE) until the transaction ends; false when there is none. */
export async function lockPackage(tx: Db, id: string): Promise<boolean> {
  const [locked] = await tx.select({ id: packages.id }).from(packages).where(eq(packages.id, id)).for('update');
  return Boolean(locked);
}

/** The chosen products, locked against deletion (FOR KEY SHARE) until the transaction ends. */
export async function selectProductsForShare(
  tx: Db,
  ids: string[],
): Promise<{ id: string; name: string; isActive: boolean }[]> {
  return tx
    .select({ id: products.id, name: products.name, isActive: products.isActive })
    .from(products)
    .where(inArray(products.id, ids))
    .for('key share');
}

export async function insertPackage(tx: Db, values: typeof packages.$inferInsert): Promise<PackageRow> {
  const [row] = await tx.insert(packages).values(values).returning();
  return row;
}

export async function updatePackageRow(
  tx: Db,
  id: string,
  values: Pick<typeof packages.$inferInsert, 'name' | 'description' | 'priceCents'>,
): Promise<void> {
  await tx
    .update(packages)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(packages.id, id));
}

/** The package's items, in the given order (nothing to write for an empty list). */
export async function insertPackageItems(tx: Db, packageId: string, items: PackageValues['items']): Promise<void> {
  if (items.length === 0) return;
  await tx.insert(packageItems).values(
    items.map((item, position) => ({
      packageId,
      productId: item.productId,
      productName: item.productName,
      quantity: item.quantity,
      customPriceCents: item.customPrice,
      customDescription: item.customDescription,
      notes: item.notes,
      position,
    })),
  );
}

export async function deletePackageItems(tx: Db, packageId: string): Promise<void> {
  await tx.delete(packageItems).where(eq(packageItems.packageId, packageId));
}

export async function countContractsOfPackage(tx: Db, id: string): Promise<number> {
  const [{ n }] = await tx.select({ n: count() }).from(contracts).where(eq(contracts.packageId, id));
  return n;
}

export async function deletePackageRow(tx: Db, id: string): Promise<void> {
  await tx.delete(packages).where(eq(packages.id, id));
}
