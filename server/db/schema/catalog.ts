import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const products = pgTable(
  'products',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    description: text('description'),
    adType: text('ad_type').notNull(),
    defaultPriceCents: bigint('default_price_cents', { mode: 'number' }).notNull(),
    priceMetric: text('price_metric').notNull().default('monthly'),
    /** Default run length in days. */
    defaultDuration: integer('default_duration'),
    /** Price for billing periods starting October to December, when set. */
    seasonalPriceCents: bigint('seasonal_price_cents', { mode: 'number' }),
    inventoryRequired: boolean('inventory_required').notNull().default(false),
    /** Units (slots) an inventory product runs per day (product.md section 13); null for other products. */
    capacity: integer('capacity'),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('products_search_idx').using(
      'gin',
      sql`(lower(${t.name} || ' ' || coalesce(${t.description}, '') || ' ' || ${t.adType})) gin_trgm_ops`,
    ),
    index('products_name_idx').on(t.name),
    check(
      'products_capacity_check',
      sql`(${t.inventoryRequired} and ${t.capacity} between 1 and 1000) or (not ${t.inventoryRequired} and ${t.capacity} is null)`,
    ),
    check('products_price_check', sql`${t.defaultPriceCents} >= 0 and coalesce(${t.seasonalPriceCents}, 0) >= 0`),
  ],
);

export const packages = pgTable(
  'packages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    description: text('description'),
    priceCents: bigint('price_cents', { mode: 'number' }).notNull(),
    createdBy: uuid('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('packages_search_idx').using(
      'gin',
      sql`(lower(${t.name} || ' ' || coalesce(${t.description}, ''))) gin_trgm_ops`,
    ),
    check('packages_price_check', sql`${t.priceCents} >= 0`),
  ],
);

export const packageItems = pgTable(
  'package_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    packageId: uuid('package_id')
      .notNull()
      .references(() => packages.id, { onDelete: 'cascade' }),
    productId: uuid('product_id').references(() => products.id, { onDelete: 'restrict' }),
    /** A custom item name, for items that are not a catalog product. */
    productName: text('product_name'),
    quantity: integer('quantity').notNull().default(1),
    customPriceCents: bigint('custom_price_cents', { mode: 'number' }),
    customDescription: text('custom_description'),
    notes: text('notes'),
    position: integer('position').notNull().default(0),
  },
  (t) => [
    index('package_items_package_idx').on(t.packageId, t.position),
    index('package_items_product_idx').on(t.productId),
    check('package_items_quantity_check', sql`${t.quantity} >= 1`),
  ],
);
