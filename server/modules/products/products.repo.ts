import type { AdType } from '@shared/contracts/products';
import { and, asc, count, eq, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { contractLineItems, packageItems, products } from '../../db/schema';
import { likePattern } from '../../lib/http';

export type ProductRow = typeof products.$inferSelect;
type ProductColumns = Partial<typeof products.$inferInsert>;

/** The expression of the products_search_idx trigram index, so the GIN index serves the search. */
const searchText = sql`lower(${products.name} || ' ' || coalesce(${products.description}, '') || ' ' || ${products.adType})`;

/**
 * A page of products by name, and the number matching. A product matches when the indexed expression
 * contains any of `terms` (none: every product), and the active and ad type filters when given.
 */
export async function selectProductPage(
  db: Db,
  filter: { terms: string[]; active?: boolean; adType?: AdType; limit: number; offset: number },
): Promise<{ rows: ProductRow[]; total: number }> {
  const conditions: (SQL | undefined)[] = [];
  if (filter.terms.length) {
    conditions.push(or(...filter.terms.map((term) => sql`${searchText} like ${likePattern(term)}`)));
  }
  if (filter.active !== undefined) conditions.push(eq(products.isActive, filter.active));
  if (filter.adType) conditions.push(eq(products.adType, filter.adType));
  const where = and(...conditions);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(products)
      .where(where)
      .orderBy(asc(products.name), asc(products.id))
      .limit(filter.limit)
      .offset(filter.offset),
    db.select({ total: count() }).from(products).where(where),
  ]);
  return { rows, total };
}

export async function selectProduct(db: Db, id: string): Promise<ProductRow | undefined> {
  const [row] = await db.select().from(products).where(eq(products.id, id)).limit(1);
  return row;
}

/** The product, its row locked (FOR UPDATE) until the transaction ends. */
export async function lockProduct(tx: Db, id: string): Promise<ProductRow | undefined> {
  const [row] = await tx.select().from(products).where(eq(products.id, id)).for('update');
  return row;
}

export async function insertProduct(tx: Db, values: typeof products.$inferInsert): Promise<ProductRow> {
  const [row] = await tx.insert(products).values(values).returning();
  return row;
}

/** Sets the given columns (undefined ones are left as they are) and updatedAt. */
export async function updateProductRow(tx: Db, id: string, values: ProductColumns): Promise<ProductRow> {
  const [row] = await tx
    .update(products)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(products.id, id))
    .returning();
  return row;
}

/** How many contract line items and package items use the product. */
export async function countProductUses(tx: Db, id: string): Promise<{ contractLines: number; packageLines: number }> {
  const [[{ contractLines }], [{ packageLines }]] = await Promise.all([
    tx.select({ contractLines: count() }).from(contractLineItems).where(eq(contractLineItems.productId, id)),
    tx.select({ packageLines: count() }).from(packageItems).where(eq(packageItems.productId, id)),
  ]);
  return { contractLines, packageLines };
}

export async function deleteProductRow(tx: Db, id: string): Promise<void> {
  await tx.delete(products).where(eq(products.id, id));
}
