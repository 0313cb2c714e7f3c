import type { ListQuery } from '@shared/contracts/common';
import type { Package, PackageItem, PackageValues } from '@shared/contracts/packages';
import { centsToAmount } from '@shared/money';
import type { Db } from '../../db/client';
import { recordAudit } from '../../lib/audit';
import { assertNoFieldErrors, conflict, type FieldErrors, notFound } from '../../lib/errors';
import { toProduct } from '../products/products.service';
import type { SessionUser } from '../sessions/sessions';
import {
  countContractsOfPackage,
  deletePackageItems,
  deletePackageRow,
  insertPackage,
  insertPackageItems,
  lockPackage,
  type PackageRow,
  selectPackage,
  selectPackageItems,
  selectPackagePage,
  selectProductsForShare,
  updatePackageRow,
} from './packages.repo';

type Actor = SessionUser;

/** The items of many packages with their products, in one query, in saved order. */
async function loadItems(db: Db, packageIds: string[]): Promise<Map<string, PackageItem[]>> {
  const byPackage = new Map<string, PackageItem[]>(packageIds.map((id) => [id, []]));
  if (packageIds.length === 0) return byPackage;
  const rows = await selectPackageItems(db, packageIds);
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
  const { rows, total } = await selectPackagePage(db, { q, limit: query.limit, offset: query.offset });
  const items = await loadItems(
    db,
    rows.map((row) => row.id),
  );
  return { rows: rows.map((row) => toPackage(row, items.get(row.id) ?? [])), total };
}

async function readPackage(db: Db, id: string): Promise<Package | null> {
  const row = await selectPackage(db, id);
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
  const found = await selectProductsForShare(tx, ids);
  const byId = new Map(found.map((p) => [p.id, p]));
  const fieldErrors: FieldErrors = {};
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
  assertNoFieldErrors(fieldErrors);
}

export async function createPackage(db: Db, actor: Actor, input: PackageValues): Promise<Package> {
  return db.transaction(async (tx) => {
    await checkProducts(tx, input.items, new Set());
    const row = await insertPackage(tx, {
      name: input.name,
      description: input.description,
      priceCents: input.price,
      createdBy: actor.id,
    });
    await insertPackageItems(tx, row.id, input.items);
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
    if (!(await lockPackage(tx, id))) throw notFound('Package');
    const before = (await readPackage(tx, id))!;
    const keep = new Set(before.items.flatMap((item) => (item.productId ? [item.productId] : [])));
    await checkProducts(tx, input.items, keep);
    await updatePackageRow(tx, id, { name: input.name, description: input.description, priceCents: input.price });
    await deletePackageItems(tx, id);
    await insertPackageItems(tx, id, input.items);
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
    if (!(await lockPackage(tx, id))) throw notFound('Package');
    const n = await countContractsOfPackage(tx, id);
    if (n > 0) throw conflict(`This package is used by ${n} contract${n === 1 ? '' : 's'} and cannot be deleted`);
    const before = (await readPackage(tx, id))!;
    await deletePackageRow(tx, id);
    await recordAudit(tx, { actorId: actor.id, action: 'package.deleted', entity: 'package', entityId: id, before });
  });
}
