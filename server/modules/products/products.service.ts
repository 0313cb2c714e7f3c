import type { ListQuery } from '@shared/contracts/common';
import {
  type AdType,
  adTypesMatching,
  type DeleteProductResult,
  type PriceMetric,
  type Product,
  type ProductChanges,
  type ProductValues,
} from '@shared/contracts/products';
import { centsToAmount } from '@shared/money';
import { and, asc, count, eq, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { contractLineItems, packageItems, products } from '../../db/schema';
import { recordAudit } from '../../lib/audit';
import { notFound } from '../../lib/errors';
import { likePattern } from '../../lib/http';
import type { SessionUser } from '../auth/sessions';

type Actor = SessionUser;
type ProductRow = typeof products.$inferSelect;

/** The expression of the products_search_idx trigram index, so the GIN index serves the search. */
const searchText = sql`lower(${products.name} || ' ' || coalesce(${products.description}, '') || ' ' || ${products.adType})`;

export function toProduct(row: ProductRow): Product {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    adType: row.adType as AdType,
    defaultPrice: centsToAmount(row.defaultPriceCents),
    priceMetric: row.priceMetric as PriceMetric,
    defaultDuration: row.defaultDuration,
    seasonalPrice: row.seasonalPriceCents === null ? null : centsToAmount(row.seasonalPriceCents),
    inventoryRequired: row.inventoryRequired,
    isActive: row.isActive,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toColumns(values: ProductChanges) {
  return {
    name: values.name,
    description: values.description,
    adType: values.adType,
    defaultPriceCents: values.defaultPrice,
    priceMetric: values.priceMetric,
    defaultDuration: values.defaultDuration,
    seasonalPriceCents: values.seasonalPrice,
    inventoryRequired: values.inventoryRequired,
    isActive: values.isActive,
  };
}

/**
 * Searches name, description and ad type; text matching an ad type's label ("pre-roll") also finds that
 * type. Both are conditions on the indexed expression (the ad type value is part of it).
 */
export async function listProducts(
  db: Db,
  query: ListQuery & { active?: boolean; adType?: AdType },
): Promise<{ rows: Product[]; total: number }> {
  const conditions: (SQL | undefined)[] = [];
  const q = query.q?.replaceAll('\u0000', '').trim();
  if (q) {
    const patterns = [likePattern(q), ...adTypesMatching(q).map((type) => likePattern(type))];
    conditions.push(or(...patterns.map((pattern) => sql`${searchText} like ${pattern}`)));
  }
  if (query.active !== undefined) conditions.push(eq(products.isActive, query.active));
  if (query.adType) conditions.push(eq(products.adType, query.adType));
  const where = and(...conditions);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(products)
      .where(where)
      .orderBy(asc(products.name), asc(products.id))
      .limit(query.limit)
      .offset(query.offset),
    db.select({ total: count() }).from(products).where(where),
  ]);
  return { rows: rows.map(toProduct), total };
}

export async function getProduct(db: Db, id: string): Promise<Product> {
  const [row] = await db.select().from(products).where(eq(products.id, id)).limit(1);
  if (!row) throw notFound('Product');
  return toProduct(row);
}

export async function createProduct(db: Db, actor: Actor, input: ProductValues): Promise<Product> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(products)
      .values(toColumns(input) as typeof products.$inferInsert)
      .returning();
    const product = toProduct(row);
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'product.created',
      entity: 'product',
      entityId: row.id,
      after: product,
    });
    return product;
  });
}

export async function updateProduct(db: Db, actor: Actor, id: string, changes: ProductChanges): Promise<Product> {
  return db.transaction(async (tx) => {
    const [existing] = await tx.select().from(products).where(eq(products.id, id)).for('update');
    if (!existing) throw notFound('Product');
    const before = toProduct(existing);
    if (Object.keys(changes).length === 0) return before;
    const [row] = await tx
      .update(products)
      .set({ ...toColumns(changes), updatedAt: new Date() })
      .where(eq(products.id, id))
      .returning();
    const after = toProduct(row);
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'product.updated',
      entity: 'product',
      entityId: id,
      before,
      after,
    });
    return after;
  });
}

/**
 * Deletes an unused product; a product that a contract line item or a package item uses is archived
 * (isActive false) instead, so those records keep it. The row lock makes a contract or package that adds
 * the product meanwhile wait, and be counted.
 */
export async function deleteProduct(db: Db, actor: Actor, id: string): Promise<DeleteProductResult> {
  return db.transaction(async (tx) => {
    const [existing] = await tx.select().from(products).where(eq(products.id, id)).for('update');
    if (!existing) throw notFound('Product');
    const before = toProduct(existing);
    const [[{ contractLines }], [{ packageLines }]] = await Promise.all([
      tx.select({ contractLines: count() }).from(contractLineItems).where(eq(contractLineItems.productId, id)),
      tx.select({ packageLines: count() }).from(packageItems).where(eq(packageItems.productId, id)),
    ]);
    if (contractLines === 0 && packageLines === 0) {
      await tx.delete(products).where(eq(products.id, id));
      await recordAudit(tx, { actorId: actor.id, action: 'product.deleted', entity: 'product', entityId: id, before });
      return { message: 'Product deleted', archived: false };
    }
    const [row] = await tx
      .update(products)
      .set({ isActive: false, updatedAt: new Date() })
      .where(eq(products.id, id))
      .returning();
    const after = toProduct(row);
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'product.archived',
      entity: 'product',
      entityId: id,
      before,
      after,
    });
    const uses = [
      contractLines ? `${contractLines} contract line item${contractLines === 1 ? '' : 's'}` : null,
      packageLines ? `${packageLines} package item${packageLines === 1 ? '' : 's'}` : null,
    ].filter(Boolean);
    return {
      ...after,
      archived: true,
      message: `This product is used by ${uses.join(' and ')}, so it was archived instead of deleted`,
    };
  });
}
