import type { ListQuery } from '@shared/contracts/common';
import { capacityBelowUseMessage, INVENTORY_MESSAGES } from '@shared/contracts/inventory';
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
import type { Db } from '../../db/client';
import type { products } from '../../db/schema';
import { recordAudit } from '../../lib/audit';
import { businessToday } from '../../lib/business-day';
import { badRequest, conflict, notFound } from '../../lib/errors';
import { busiestDayFrom } from '../inventory/inventory.service';
import type { SessionUser } from '../sessions/sessions';
import {
  countProductUses,
  deleteProductRow,
  insertProduct,
  lockProduct,
  type ProductRow,
  selectProduct,
  selectProductPage,
  updateProductRow,
} from './products.repo';

type Actor = SessionUser;

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
    capacity: row.capacity,
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
    capacity: values.capacity,
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
  const q = query.q?.replaceAll('\u0000', '').trim();
  const { rows, total } = await selectProductPage(db, {
    terms: q ? [q, ...adTypesMatching(q)] : [],
    active: query.active,
    adType: query.adType,
    limit: query.limit,
    offset: query.offset,
  });
  return { rows: rows.map(toProduct), total };
}

export async function getProduct(db: Db, id: string): Promise<Product> {
  const row = await selectProduct(db, id);
  if (!row) throw notFound('Product');
  return toProduct(row);
}

export async function createProduct(db: Db, actor: Actor, input: ProductValues): Promise<Product> {
  return db.transaction(async (tx) => {
    const row = await insertProduct(tx, toColumns(input) as typeof products.$inferInsert);
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
    const existing = await lockProduct(tx, id);
    if (!existing) throw notFound('Product');
    const before = toProduct(existing);
    if (Object.keys(changes).length === 0) return before;
    const capacity = await capacityAfter(tx, existing, changes);
    const row = await updateProductRow(tx, id, toColumns({ ...changes, capacity }));
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
 * The capacity an edit leaves (product.md section 13): none once the product stops tracking inventory;
 * otherwise the one sent or kept, which an inventory product must have (400), and which cannot go below the
 * units already booked or held on a day from today on (409 naming the day).
 */
async function capacityAfter(tx: Db, existing: ProductRow, changes: ProductChanges): Promise<number | null> {
  const tracked = changes.inventoryRequired ?? existing.inventoryRequired;
  if (!tracked) return null;
  const capacity = changes.capacity === undefined ? existing.capacity : changes.capacity;
  if (capacity === null) {
    throw badRequest(INVENTORY_MESSAGES.capacityRequired, { capacity: [INVENTORY_MESSAGES.capacityRequired] });
  }
  if (existing.inventoryRequired && existing.capacity !== null && capacity < existing.capacity) {
    const peak = await busiestDayFrom(tx, existing.id, businessToday());
    if (peak && peak.units > capacity) throw conflict(capacityBelowUseMessage(peak.units, peak.date));
  }
  return capacity;
}

/**
 * Deletes an unused product; a product that a contract line item or a package item uses is archived
 * (isActive false) instead, so those records keep it. The row lock makes a contract or package that adds
 * the product meanwhile wait, and be counted.
 */
export async function deleteProduct(db: Db, actor: Actor, id: string): Promise<DeleteProductResult> {
  return db.transaction(async (tx) => {
    const existing = await lockProduct(tx, id);
    if (!existing) throw notFound('Product');
    const before = toProduct(existing);
    const { contractLines, packageLines } = await countProductUses(tx, id);
    if (contractLines === 0 && packageLines === 0) {
      await deleteProductRow(tx, id);
      await recordAudit(tx, { actorId: actor.id, action: 'product.deleted', entity: 'product', entityId: id, before });
      return { message: 'Product deleted', archived: false };
    }
    const row = await updateProductRow(tx, id, { isActive: false });
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
