import { randomUUID } from 'node:crypto';
import type { Package } from '@shared/contracts/packages';
import type { Product } from '@shared/contracts/products';
import type { Role } from '@shared/roles';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, contracts, customers, packageItems, packages } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';

let ctx: TestContext;
let preRoll: Product;
let banner: Product;
beforeAll(async () => {
  ctx = await buildTestApp();
  preRoll = await newProduct({ name: 'Holiday Pre-roll', adType: 'pre_roll', defaultPrice: 1200 });
  banner = await newProduct({ name: 'Homepage Banner', adType: 'banner', defaultPrice: 450.25 });
});
afterAll(() => ctx.close());

async function newProduct(fields: Record<string, unknown>): Promise<Product> {
  const response = await ctx.injectAs('admin', { method: 'POST', url: '/api/products', payload: fields });
  expect(response.statusCode).toBe(201);
  return response.json();
}

const create = (role: Role, payload: unknown) =>
  ctx.injectAs(role, { method: 'POST', url: '/api/packages', payload: payload as object });

async function newPackage(fields: Record<string, unknown> = {}): Promise<Package> {
  const response = await create('sales', { name: `Package ${randomUUID().slice(0, 8)}`, price: 100, ...fields });
  expect(response.statusCode).toBe(201);
  return response.json();
}

const packageCount = async () => (await ctx.db.select({ n: count() }).from(packages))[0].n;
const itemCount = async () => (await ctx.db.select({ n: count() }).from(packageItems))[0].n;
const auditOf = (entityId: string) =>
  ctx.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.entity, 'package'), eq(auditEvents.entityId, entityId)));

describe('POST /api/packages', () => {
  it('creates a package with product and custom items in order, and audits it', async () => {
    const sales = await ctx.as('sales');
    const response = await ctx.injectAs(sales, {
      method: 'POST',
      url: '/api/packages',
      payload: {
        name: ' Holiday Blitz ',
        description: 'Everything for December',
        price: '2999.99',
        items: [
          { productId: banner.id, quantity: 2, customPrice: 400, notes: 'Top slot' },
          { productName: 'Santa photo booth sponsorship', customDescription: 'Logo on the booth' },
          { productId: preRoll.id, productName: 'Pre-roll (30s cut)', quantity: '3' },
        ],
      },
    });
    expect(response.statusCode).toBe(201);
    const body: Package = response.json();
    expect(body).toEqual({
      id: expect.any(String),
      name: 'Holiday Blitz',
      description: 'Everything for December',
      price: 2999.99,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      items: [
        {
          id: expect.any(String),
          productId: banner.id,
          productName: null,
          quantity: 2,
          customPrice: 400,
          customDescription: null,
          notes: 'Top slot',
          product: banner,
        },
        {
          id: expect.any(String),
          productId: null,
          productName: 'Santa photo booth sponsorship',
          quantity: 1,
          customPrice: null,
          customDescription: 'Logo on the booth',
          notes: null,
          product: null,
        },
        {
          id: expect.any(String),
          productId: preRoll.id,
          productName: 'Pre-roll (30s cut)',
          quantity: 3,
          customPrice: null,
          customDescription: null,
          notes: null,
          product: preRoll,
        },
      ],
    });
    const [row] = await ctx.db.select().from(packages).where(eq(packages.id, body.id));
    expect(row.priceCents).toBe(299999);
    const [audit] = await auditOf(body.id);
    expect(audit).toMatchObject({ action: 'package.created', actorId: sales.id, after: body });
  });

  it('creates a package without items', async () => {
    const response = await create('sales_manager', { name: 'Empty shell', price: 0 });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ items: [], price: 0, description: null });
  });

  it.each([
    ['no name', { price: 10 }, 'Package name is required'],
    ['a blank name', { name: ' ', price: 10 }, 'Package name is required'],
    ['an oversized name', { name: 'p'.repeat(201), price: 10 }, 'Package name cannot be longer than 200 characters'],
    ['no price', { name: 'P' }, 'Price is required'],
    ['an empty price', { name: 'P', price: '' }, 'Price is required'],
    ['a negative price', { name: 'P', price: -1 }, 'Price must be positive'],
    ['a price with three decimals', { name: 'P', price: 1.234 }, 'Price must be an amount in dollars'],
    ['items that are not a list', { name: 'P', price: 1, items: 'many' }, 'Items must be a list'],
    [
      'too many items',
      { name: 'P', price: 1, items: Array.from({ length: 101 }, () => ({ productName: 'x' })) },
      'A package can have at most 100 items',
    ],
    [
      'an item with neither product nor name',
      { name: 'P', price: 1, items: [{ quantity: 1 }] },
      'Choose a product or enter a custom name',
    ],
    [
      'an item with a quantity of 0',
      { name: 'P', price: 1, items: [{ productName: 'x', quantity: 0 }] },
      'Quantity must be at least 1',
    ],
    [
      'a fractional quantity',
      { name: 'P', price: 1, items: [{ productName: 'x', quantity: 1.5 }] },
      'Quantity must be a whole number',
    ],
    [
      'a huge quantity',
      { name: 'P', price: 1, items: [{ productName: 'x', quantity: 1e9 }] },
      'Quantity cannot exceed 10,000',
    ],
    [
      'a negative custom price',
      { name: 'P', price: 1, items: [{ productName: 'x', customPrice: -5 }] },
      'Custom price cannot be negative',
    ],
    ['a malformed product id', { name: 'P', price: 1, items: [{ productId: 'abc' }] }, 'Choose a valid product'],
    ['an item that is not an object', { name: 'P', price: 1, items: ['x'] }, 'expected object'],
    [
      'an oversized custom name',
      { name: 'P', price: 1, items: [{ productName: 'c'.repeat(201) }] },
      'Custom name cannot be longer than 200 characters',
    ],
  ])('refuses %s with 400 and stores nothing', async (_case, payload, message) => {
    const [packagesBefore, itemsBefore] = [await packageCount(), await itemCount()];
    const response = await create('admin', payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
    expect([await packageCount(), await itemCount()]).toEqual([packagesBefore, itemsBefore]);
  });

  it('names the item of an invalid field', async () => {
    const response = await create('admin', { name: 'P', price: 1, items: [{ productName: 'ok' }, { quantity: 0 }] });
    expect(response.json().fieldErrors).toMatchObject({ 'items.1.quantity': ['Quantity must be at least 1'] });
  });

  it('refuses an unknown product with 400 and stores nothing', async () => {
    const before = await packageCount();
    const response = await create('admin', {
      name: 'P',
      price: 1,
      items: [{ productName: 'fine' }, { productId: randomUUID() }],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Item 2: the chosen product does not exist');
    expect(response.json().fieldErrors).toEqual({ 'items.1.productId': ['Item 2: the chosen product does not exist'] });
    expect(await packageCount()).toBe(before);
  });

  it('refuses to add an archived product', async () => {
    const archived = await newProduct({ name: 'Old Overlay', adType: 'overlay', defaultPrice: 10, isActive: false });
    const response = await create('admin', { name: 'P', price: 1, items: [{ productId: archived.id }] });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Item 1: Old Overlay is archived and cannot be added to a package');
  });

  it.each(['finance', 'client'] as const)('is refused to %s', async (role) => {
    expect((await create(role, { name: 'P', price: 1 })).statusCode).toBe(403);
  });
});

describe('GET /api/packages', () => {
  it('lists packages with their items and products, searched and paged', async () => {
    const tag = randomUUID().slice(0, 8);
    const a = await newPackage({ name: `Alpha ${tag}`, items: [{ productId: preRoll.id }, { productName: 'Flyer' }] });
    const b = await newPackage({ name: `Beta`, description: `For ${tag} season`, items: [{ productId: banner.id }] });
    const c = await newPackage({ name: `Gamma ${tag}` });
    await newPackage({ name: 'Unrelated' });

    const response = await ctx.injectAs('finance', { method: 'GET', url: `/api/packages?q=${tag.toUpperCase()}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-total-count']).toBe('3');
    const rows: Package[] = response.json();
    expect(rows.map((p) => p.id)).toEqual([a.id, b.id, c.id]);
    expect(rows[0].items.map((i) => i.product?.name ?? i.productName)).toEqual(['Holiday Pre-roll', 'Flyer']);
    expect(rows[1].items).toEqual(b.items);
    expect(rows[2].items).toEqual([]);

    const page = await ctx.injectAs('sales', { method: 'GET', url: `/api/packages?q=${tag}&limit=1&offset=1` });
    expect(page.headers['x-total-count']).toBe('3');
    expect(page.json()).toEqual([b]);
  });

  it('does not fail on a NUL character in the search text', async () => {
    expect((await ctx.injectAs('sales', { method: 'GET', url: '/api/packages?q=%00' })).statusCode).toBe(200);
  });

  it('is refused to clients', async () => {
    expect((await ctx.injectAs('client', { method: 'GET', url: '/api/packages' })).statusCode).toBe(403);
  });
});

describe('GET /api/packages/:id', () => {
  it('answers the package, 404 for an unknown id', async () => {
    const pkg = await newPackage({ items: [{ productId: banner.id, quantity: 4 }] });
    const found = await ctx.injectAs('sales_manager', { method: 'GET', url: `/api/packages/${pkg.id}` });
    expect(found.json()).toEqual(pkg);
    const unknown = await ctx.injectAs('sales', { method: 'GET', url: `/api/packages/${randomUUID()}` });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Package not found');
  });
});

describe('PUT /api/packages/:id', () => {
  it('replaces the fields and the items, in the new order, and audits before and after', async () => {
    const pkg = await newPackage({
      name: 'Before',
      price: 10,
      items: [{ productId: preRoll.id }, { productName: 'Old custom' }],
    });
    const manager = await ctx.as('sales_manager');
    const response = await ctx.injectAs(manager, {
      method: 'PUT',
      url: `/api/packages/${pkg.id}`,
      payload: {
        name: 'After',
        price: 20.5,
        items: [{ productName: 'New custom', quantity: 5 }, { productId: banner.id }],
      },
    });
    expect(response.statusCode).toBe(200);
    const body: Package = response.json();
    expect(body).toMatchObject({ id: pkg.id, name: 'After', description: null, price: 20.5, createdAt: pkg.createdAt });
    expect(body.items.map((i) => [i.productName, i.productId, i.quantity])).toEqual([
      ['New custom', null, 5],
      [null, banner.id, 1],
    ]);
    expect(await ctx.db.select().from(packageItems).where(eq(packageItems.packageId, pkg.id))).toHaveLength(2);
    const audit = (await auditOf(pkg.id)).find((a) => a.action === 'package.updated');
    expect(audit).toMatchObject({ actorId: manager.id, before: pkg, after: body });
  });

  it('keeps an archived product the package already has, but refuses adding another', async () => {
    const product = await newProduct({ name: 'Soon archived', adType: 'in_category', defaultPrice: 5 });
    const other = await newProduct({ name: 'Also archived', adType: 'ad_on_pause', defaultPrice: 5, isActive: false });
    const pkg = await newPackage({ items: [{ productId: product.id }] });
    await ctx.injectAs('admin', { method: 'PATCH', url: `/api/products/${product.id}`, payload: { isActive: false } });

    const kept = await ctx.injectAs('sales', {
      method: 'PUT',
      url: `/api/packages/${pkg.id}`,
      payload: { name: 'Renamed', price: 1, items: [{ productId: product.id, quantity: 2 }] },
    });
    expect(kept.statusCode).toBe(200);
    const added = await ctx.injectAs('sales', {
      method: 'PUT',
      url: `/api/packages/${pkg.id}`,
      payload: { name: 'Renamed', price: 1, items: [{ productId: product.id }, { productId: other.id }] },
    });
    expect(added.statusCode).toBe(400);
    expect(added.json().message).toBe('Item 2: Also archived is archived and cannot be added to a package');
  });

  it.each([
    [{ price: 1 }, 'Package name is required'],
    [{ name: 'X', price: -0.5 }, 'Price must be positive'],
    [{ name: 'X', price: 1, items: [{ productName: 'y', quantity: -1 }] }, 'Quantity must be at least 1'],
    [{ name: 'X', price: 1, items: [{ productId: randomUUID() }] }, 'Item 1: the chosen product does not exist'],
  ])('refuses %j with 400 and changes nothing', async (payload, message) => {
    const pkg = await newPackage({ items: [{ productId: banner.id }] });
    const response = await ctx.injectAs('admin', { method: 'PUT', url: `/api/packages/${pkg.id}`, payload });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
    expect((await ctx.injectAs('admin', { method: 'GET', url: `/api/packages/${pkg.id}` })).json()).toEqual(pkg);
  });

  it('answers 404 for an unknown package and 403 for finance', async () => {
    const payload = { name: 'X', price: 1 };
    const unknown = await ctx.injectAs('admin', { method: 'PUT', url: `/api/packages/${randomUUID()}`, payload });
    expect(unknown.statusCode).toBe(404);
    const pkg = await newPackage();
    expect((await ctx.injectAs('finance', { method: 'PUT', url: `/api/packages/${pkg.id}`, payload })).statusCode).toBe(
      403,
    );
  });
});

describe('DELETE /api/packages/:id', () => {
  it('deletes an unused package with its items and audits it', async () => {
    const pkg = await newPackage({ items: [{ productId: banner.id }, { productName: 'Extra' }] });
    const sales = await ctx.as('sales');
    const response = await ctx.injectAs(sales, { method: 'DELETE', url: `/api/packages/${pkg.id}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Package deleted' });
    expect(await ctx.db.select().from(packageItems).where(eq(packageItems.packageId, pkg.id))).toHaveLength(0);
    const audit = (await auditOf(pkg.id)).find((a) => a.action === 'package.deleted');
    expect(audit).toMatchObject({ actorId: sales.id, before: pkg, after: null });
  });

  it('refuses with 409 while a contract uses it, and keeps it', async () => {
    const pkg = await newPackage({ items: [{ productId: banner.id }] });
    const [customer] = await ctx.db.insert(customers).values({ name: 'Shop', email: 'shop@example.test' }).returning();
    await ctx.db.insert(contracts).values(
      ['active', 'draft'].map((status) => ({
        customerId: customer.id,
        packageId: pkg.id,
        status,
        startDate: '2026-01-01',
        paymentMode: 'portal',
      })),
    );
    const response = await ctx.injectAs('admin', { method: 'DELETE', url: `/api/packages/${pkg.id}` });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe('This package is used by 2 contracts and cannot be deleted');
    expect((await ctx.injectAs('admin', { method: 'GET', url: `/api/packages/${pkg.id}` })).json()).toEqual(pkg);
  });

  it('answers 404 for an unknown package and 403 for finance', async () => {
    expect((await ctx.injectAs('admin', { method: 'DELETE', url: `/api/packages/${randomUUID()}` })).statusCode).toBe(
      404,
    );
    const pkg = await newPackage();
    expect((await ctx.injectAs('finance', { method: 'DELETE', url: `/api/packages/${pkg.id}` })).statusCode).toBe(403);
  });
});
