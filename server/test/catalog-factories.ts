import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client';
import { customers, packageItems, packages, products } from '../db/schema';

/** Customers, products and packages inserted directly, for tests of features that use the catalog. */

export async function createTestCustomer(db: Db, overrides: Partial<typeof customers.$inferInsert> = {}) {
  const suffix = randomUUID().slice(0, 8);
  const [row] = await db
    .insert(customers)
    .values({
      name: `Customer ${suffix}`,
      email: `customer-${suffix}@example.test`,
      company: `Company ${suffix}`,
      ...overrides,
    })
    .returning();
  return row;
}

export async function createTestProduct(db: Db, overrides: Partial<typeof products.$inferInsert> = {}) {
  const suffix = randomUUID().slice(0, 8);
  const [row] = await db
    .insert(products)
    .values({
      name: `Product ${suffix}`,
      adType: 'banner',
      defaultPriceCents: 100_00,
      priceMetric: 'monthly',
      ...overrides,
    })
    .returning();
  return row;
}

export async function createTestPackage(
  db: Db,
  overrides: Partial<typeof packages.$inferInsert> = {},
  items: Omit<typeof packageItems.$inferInsert, 'packageId'>[] = [],
) {
  const suffix = randomUUID().slice(0, 8);
  const [row] = await db
    .insert(packages)
    .values({ name: `Package ${suffix}`, description: 'A test package', priceCents: 500_00, ...overrides })
    .returning();
  if (items.length) {
    await db.insert(packageItems).values(items.map((item, position) => ({ position, ...item, packageId: row.id })));
  }
  return row;
}
