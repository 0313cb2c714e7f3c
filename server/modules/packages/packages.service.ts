import type { ListQuery } from '@shared/contracts/common';
import type { Package, PackageItem, PackageValues } from '@shared/contracts/packages';
import { centsToAmount } from '@shared/money';
import { asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { contracts, packageItems, packages, products } from '../../db/schema';
import { recordAudit } from '../../lib/audit';
import { badRequest, conflict, notFound } from '../../lib/errors';
import { likePattern } from '../../lib/http';
import type { SessionUser } from '../auth/sessions';
import { toProduct } from '../products/products.service';

type Actor = SessionUser;
type PackageRow = typeof packages.$inferSelect;

/** The expression of the packages_search_idx trigram index, so the GIN index serves the search. */
const searchText = sql`lower(${packages.name} || ' ' || coalesce(${packages.description}, ''))`;

/** The items of many packages with their products, in one query, in saved order. */
async function loadItems(db: Db, packageIds: string[]): Promise<Map<string, PackageItem[]>> {
  const byPackage = new Map<string, PackageItem[]>(packageIds.map((id) => [id, []]));
  if (packageIds.length === 0) return byPackage;
  const rows = await db
    .select({ item: packageItems, product: products })
    .from(packageItems)
    .leftJoin(products, eq(products.id, packageItems.productId))
    .where(inArray(packageItems.packageId, packageIds))
    .orderBy(asc(packageItems.packageId), asc(packageItems.position));
  for (const { item, product } of rows) {
    byPackage.get(item.packageId)?.push({
      id: item.id,
      productId: item.productId,
      productName: item.productName,
      quantity: item.quantity,
      customPrice: item.customPriceCents === null ? null : centsToAmount(item.customPriceCents),
      customDescription: item.customDescription,
      notes: item.notes,
      product: product ? toProduct(product) : null,
    });
  }
  return byPackage;
}

function toPackage(row: PackageRow, items: PackageItem[]): Package {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    price: centsToAmount(row.priceCents),
    items,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** A page of packages, each with its items and their products: three queries whatever the page size. */
export async function listPackages(db: Db, query: ListQuery): Promise<{ rows: Package[]; total: number }> {
  const q = query.q?.replaceAll('\u0000', '').trim();
  const where = q ? sql`${searchText} like ${likePattern(q)}` : undefined;
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(packages)
      .where(where)
      .orderBy(asc(packages.name), asc(packages.id))
      .limit(query.limit)
      .offset(query.offset),
    db.select({ total: count() }).from(packages).where(where),
  ]);
  const items = await loadItems(
    db,
    rows.map((row) => row.id),
  );
  return { rows: rows.map((row) => toPackage(row, items.get(row.id) ?? [])), total };
}

async function readPackage(db: Db, id: string): Promise<Package | null> {
  const [row] = await db.select().from(packages).where(eq(packages.id, id)).limit(1);
  if (!row) return null;
  const items = await loadItems(db, [id]);
  return toPackage(row, items.get(id) ?? []);
}

export async function getPackage(db: Db, id: string): Promise<Package> {
  const found = await readPackage(db, id);
  if (!found) throw notFound('Package');
  return found;
}

/**
 * Every chosen product must exist; an archived product may stay in a package that already has it but
 * cannot be added anew. The products are locked against deletion until the transaction ends.
 */
async function checkProducts(tx: Db, items: PackageValues['items'], keep: ReadonlySet<string>): Promise<void> {
  const ids = [...new Set(items.flatMap((item) => (item.productId ? [item.productId] : [])))];
  if (ids.length === 0) return;
  const found = await tx
    .select({ id: products.id, name: products.name, isActive: products.isActive })
    .from(products)
    .where(inArray(products.id, ids))
    .for('key share');
  const byId = new Map(found.map((p) => [p.id, p]));
  const fieldErrors: Record<string, string[]> = {};
  items.forEach((item, index) => {
    if (!item.productId) return;
    const product = byId.get(item.productId);
    if (!product) {
      fieldErrors[`items.${index}.productId`] = [`Item ${index + 1}: the chosen product does not exist`];
    } else if (!product.isActive && !keep.has(product.id)) {
      fieldErrors[`items.${index}.productId`] = [
        `Item ${index + 1}: ${product.name} is archived and cannot be added to a package`,
      ];
    }
  });
  const messages = Object.values(fieldErrors).flat();
  if (messages.length) throw badRequest(messages.join('; '), fieldErrors);
}

async function insertItems(tx: Db, packageId: string, items: PackageValues['items']): Promise<void> {
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

export async function createPackage(db: Db, actor: Actor, input: PackageValues): Promise<Package> {
  return db.transaction(async (tx) => {
    await checkProducts(tx, input.items, new Set());
    const [row] = await tx
      .insert(packages)
      .values({ name: input.name, description: input.description, priceCents: input.price, createdBy: actor.id })
      .returning();
    await insertItems(tx, row.id, input.items);
    const created = (await readPackage(tx, row.id))!;
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'package.created',
      entity: 'package',
      entityId: row.id,
      after: created,
    });
    return created;
  });
}

/** PUT: the name, description and price are replaced, and the items with the given list, in its order. */
export async function replacePackage(db: Db, actor: Actor, id: string, input: PackageValues): Promise<Package> {
  return db.transaction(async (tx) => {
    const [locked] = await tx.select({ id: packages.id }).from(packages).where(eq(packages.id, id)).for('update');
    if (!locked) throw notFound('Package');
    const before = (await readPackage(tx, id))!;
    const keep = new Set(before.items.flatMap((item) => (item.productId ? [item.productId] : [])));
    await checkProducts(tx, input.items, keep);
    await tx
      .update(packages)
      .set({ name: input.name, description: input.description, priceCents: input.price, updatedAt: new Date() })
      .where(eq(packages.id, id));
    await tx.delete(packageItems).where(eq(packageItems.packageId, id));
    await insertItems(tx, id, input.items);
    const after = (await readPackage(tx, id))!;
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'package.updated',
      entity: 'package',
      entityId: id,
      before,
      after,
    });
    return after;
  });
}

/** Refused with 409 while a contract uses the package. The row lock makes a contract created meanwhile wait. */
export async function deletePackage(db: Db, actor: Actor, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [locked] = await tx.select({ id: packages.id }).from(packages).where(eq(packages.id, id)).for('update');
    if (!locked) throw notFound('Package');
    const [{ n }] = await tx.select({ n: count() }).from(contracts).where(eq(contracts.packageId, id));
    if (n > 0) throw conflict(`This package is used by ${n} contract${n === 1 ? '' : 's'} and cannot be deleted`);
    const before = (await readPackage(tx, id))!;
    await tx.delete(packages).where(eq(packages.id, id));
    await recordAudit(tx, { actorId: actor.id, action: 'package.deleted', entity: 'package', entityId: id, before });
  });
}
