import { randomUUID } from 'node:crypto';
import type { Product } from '@shared/contracts/products';
import type { Role } from '@shared/roles';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditEvents,
  contractLineItems,
  contracts,
  customers,
  packageItems,
  packages,
  products,
} from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(() => ctx.close());

const create = (role: Role, payload: unknown) =>
  ctx.injectAs(role, { method: 'POST', url: '/api/products', payload: payload as object });

const valid = { name: 'Snow Globe Pre-roll', adType: 'pre_roll', defaultPrice: 1250.5 };

async function newProduct(fields: Record<string, unknown> = {}): Promise<Product> {
  const response = await create('admin', { ...valid, name: `Product ${randomUUID().slice(0, 8)}`, ...fields });
  expect(response.statusCode).toBe(201);
  return response.json();
}

const productCount = async () => (await ctx.db.select({ n: count() }).from(products))[0].n;
const auditOf = (entityId: string) =>
  ctx.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.entity, 'product'), eq(auditEvents.entityId, entityId)));

describe('POST /api/products', () => {
  it('creates a product with defaults, money in dollars out and cents stored, and audits it', async () => {
    const admin = await ctx.as('admin');
    const response = await ctx.injectAs(admin, { method: 'POST', url: '/api/products', payload: valid });
    expect(response.statusCode).toBe(201);
    const body: Product = response.json();
    expect(body).toEqual({
      id: expect.any(String),
      name: 'Snow Globe Pre-roll',
      description: null,
      adType: 'pre_roll',
      defaultPrice: 1250.5,
      priceMetric: 'monthly',
      defaultDuration: null,
      seasonalPrice: null,
      inventoryRequired: false,
      capacity: null,
      isActive: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const [row] = await ctx.db.select().from(products).where(eq(products.id, body.id));
    expect(row.defaultPriceCents).toBe(125050);
    const [audit] = await auditOf(body.id);
    expect(audit).toMatchObject({ action: 'product.created', actorId: admin.id, after: body });
  });

  it('takes every field, and amounts as numeric text', async () => {
    const response = await create('super_admin', {
      name: 'Holiday Movie Special',
      description: 'Sponsor a seasonal movie night',
      adType: 'ctn_special',
      defaultPrice: '2,500.00',
      priceMetric: 'flat',
      defaultDuration: '30',
      seasonalPrice: '3999.99',
      inventoryRequired: true,
      capacity: '2',
      isActive: false,
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      defaultPrice: 2500,
      priceMetric: 'flat',
      defaultDuration: 30,
      seasonalPrice: 3999.99,
      inventoryRequired: true,
      capacity: 2,
      isActive: false,
    });
  });

  it('treats empty optional fields as not set', async () => {
    const response = await create('admin', { ...valid, description: '', defaultDuration: '', seasonalPrice: '' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ description: null, defaultDuration: null, seasonalPrice: null });
  });

  it.each([
    ['no name', { adType: 'banner', defaultPrice: 10 }, 'Name is required'],
    ['a blank name', { ...valid, name: '  ' }, 'Name is required'],
    ['an oversized name', { ...valid, name: 'n'.repeat(201) }, 'Name cannot be longer than 200 characters'],
    [
      'an oversized description',
      { ...valid, description: 'd'.repeat(2001) },
      'Description cannot be longer than 2000 characters',
    ],
    ['no ad type', { name: 'X', defaultPrice: 10 }, 'Ad type is required'],
    ['an empty ad type', { ...valid, adType: '' }, 'Ad type is required'],
    ['an unknown ad type', { ...valid, adType: 'billboard' }, 'Ad type must be one of: pre_roll, mid_roll'],
    ['an ad type that is not text', { ...valid, adType: 3 }, 'Ad type must be one of'],
    ['no default price', { name: 'X', adType: 'banner' }, 'Default price is required'],
    ['an empty default price', { ...valid, defaultPrice: '' }, 'Default price is required'],
    ['a null default price', { ...valid, defaultPrice: null }, 'Default price is required'],
    ['a negative default price', { ...valid, defaultPrice: -5 }, 'Default price cannot be negative'],
    ['a negative default price as text', { ...valid, defaultPrice: '-0.01' }, 'Default price cannot be negative'],
    ['three decimals', { ...valid, defaultPrice: 10.001 }, 'at most two decimals'],
    ['a price that is not a number', { ...valid, defaultPrice: 'lots' }, 'at most two decimals'],
    ['a huge price', { ...valid, defaultPrice: 1e21 }, 'at most two decimals'],
    ['a price above the limit', { ...valid, defaultPrice: '100000000001' }, 'at most two decimals'],
    ['a boolean price', { ...valid, defaultPrice: true }, 'Default price is required'],
    ['an empty price metric', { ...valid, priceMetric: '' }, 'Price metric is required'],
    ['a null price metric', { ...valid, priceMetric: null }, 'Price metric is required'],
    ['an unknown price metric', { ...valid, priceMetric: 'weekly' }, 'Price metric must be one of: monthly, flat, cpm'],
    ['a zero duration', { ...valid, defaultDuration: 0 }, 'Default duration must be at least 1 day'],
    ['a fractional duration', { ...valid, defaultDuration: 1.5 }, 'Default duration must be a whole number of days'],
    ['a text duration', { ...valid, defaultDuration: 'a week' }, 'Default duration must be a whole number of days'],
    ['a huge duration', { ...valid, defaultDuration: 99999 }, 'Default duration cannot exceed 3650 days'],
    ['a negative seasonal price', { ...valid, seasonalPrice: -1 }, 'Seasonal price cannot be negative'],
    ['a malformed seasonal price', { ...valid, seasonalPrice: '12.345' }, 'Seasonal price must be an amount'],
    ['a text inventory flag', { ...valid, inventoryRequired: 'yes' }, 'Inventory required must be true or false'],
    ['a text active flag', { ...valid, isActive: 'no' }, 'Active must be true or false'],
    ['a NUL character', { ...valid, description: 'a\u0000b' }, 'Description contains an invalid character'],
  ])('refuses %s with 400 and stores nothing', async (_case, payload, message) => {
    const before = await productCount();
    const response = await create('admin', payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
    expect(await productCount()).toBe(before);
  });

  it('gives each invalid field its messages', async () => {
    const response = await create('admin', {});
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toEqual({
      name: ['Name is required'],
      adType: ['Ad type is required'],
      defaultPrice: ['Default price is required'],
    });
  });

  it.each(['sales_manager', 'sales', 'finance', 'client'] as const)('is refused to %s', async (role) => {
    const response = await create(role, valid);
    expect(response.statusCode).toBe(403);
  });
});

describe('GET /api/products', () => {
  it('searches name, description and ad type, including the ad type label', async () => {
    const tag = randomUUID().slice(0, 8);
    const byName = await newProduct({ name: `Tinsel ${tag}`, adType: 'banner' });
    const byDescription = await newProduct({ description: `Runs before ${tag} movies`, adType: 'overlay' });
    const preRoll = await newProduct({ name: `Fireplace ${tag}`, adType: 'pre_roll' });
    const midRoll = await newProduct({ name: `Cocoa ${tag}`, adType: 'mid_roll' });

    const search = async (q: string) => {
      const response = await ctx.injectAs('sales', {
        method: 'GET',
        url: `/api/products?q=${encodeURIComponent(q)}&limit=500`,
      });
      expect(response.statusCode).toBe(200);
      return response.json().map((p: Product) => p.id) as string[];
    };

    expect((await search(tag.toUpperCase())).sort()).toEqual(
      [byName.id, byDescription.id, preRoll.id, midRoll.id].sort(),
    );
    const byLabel = await search('Pre-roll');
    expect(byLabel).toContain(preRoll.id);
    expect(byLabel).not.toContain(midRoll.id);
    expect(await search('mid_roll')).toContain(midRoll.id);
    expect(await search('Timed QR')).not.toContain(preRoll.id);
  });

  it('filters by active and ad type, and pages with X-Total-Count', async () => {
    const tag = randomUUID().slice(0, 8);
    const active = await newProduct({ name: `A ${tag}`, adType: 'timed_qr' });
    const archived = await newProduct({ name: `B ${tag}`, adType: 'timed_qr', isActive: false });
    await newProduct({ name: `C ${tag}`, adType: 'banner' });

    const list = (query: string) => ctx.injectAs('finance', { method: 'GET', url: `/api/products?q=${tag}&${query}` });
    expect((await list('active=true')).json().map((p: Product) => p.id)).toEqual([active.id, expect.any(String)]);
    expect((await list('active=false')).json().map((p: Product) => p.id)).toEqual([archived.id]);
    const qr = await list('adType=timed_qr');
    expect(qr.headers['x-total-count']).toBe('2');
    expect(qr.json().map((p: Product) => p.id)).toEqual([active.id, archived.id]);

    const page = await list('limit=1&offset=1');
    expect(page.headers['x-total-count']).toBe('3');
    expect(page.json().map((p: Product) => p.name)).toEqual([`B ${tag}`]);
  });

  it.each([
    ['active=yes', 'active must be true or false'],
    ['adType=billboard', 'adType must be one of'],
    ['limit=0', 'limit must be at least 1'],
  ])('refuses %s with 400', async (query, message) => {
    const response = await ctx.injectAs('sales', { method: 'GET', url: `/api/products?${query}` });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
  });

  it('does not fail on a NUL character in the search text', async () => {
    expect((await ctx.injectAs('sales', { method: 'GET', url: '/api/products?q=%00' })).statusCode).toBe(200);
  });

  it('is refused to clients', async () => {
    expect((await ctx.injectAs('client', { method: 'GET', url: '/api/products' })).statusCode).toBe(403);
  });
});

describe('GET /api/products/:id', () => {
  it('answers the product, 404 for an unknown id', async () => {
    const product = await newProduct({ seasonalPrice: 99.99 });
    const found = await ctx.injectAs('sales_manager', { method: 'GET', url: `/api/products/${product.id}` });
    expect(found.statusCode).toBe(200);
    expect(found.json()).toEqual(product);
    const unknown = await ctx.injectAs('sales', { method: 'GET', url: `/api/products/${randomUUID()}` });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Product not found');
  });
});

describe('PATCH /api/products/:id', () => {
  it('changes only the given fields, clears with null, and audits before and after', async () => {
    const product = await newProduct({
      seasonalPrice: 1500,
      defaultDuration: 30,
      inventoryRequired: true,
      capacity: 2,
    });
    const admin = await ctx.as('admin');
    const response = await ctx.injectAs(admin, {
      method: 'PATCH',
      url: `/api/products/${product.id}`,
      payload: { defaultPrice: '999.99', seasonalPrice: null },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      name: product.name,
      adType: product.adType,
      defaultPrice: 999.99,
      seasonalPrice: null,
      defaultDuration: 30,
      inventoryRequired: true,
      isActive: true,
      priceMetric: 'monthly',
    });
    const audit = (await auditOf(product.id)).find((a) => a.action === 'product.updated');
    expect(audit).toMatchObject({ actorId: admin.id });
    expect(audit?.before).toMatchObject({ defaultPrice: 1250.5, seasonalPrice: 1500 });
    expect(audit?.after).toMatchObject({ defaultPrice: 999.99, seasonalPrice: null });
  });

  it('archives and restores with isActive', async () => {
    const product = await newProduct();
    const off = await ctx.injectAs('admin', {
      method: 'PATCH',
      url: `/api/products/${product.id}`,
      payload: { isActive: false },
    });
    expect(off.json().isActive).toBe(false);
    const on = await ctx.injectAs('admin', {
      method: 'PATCH',
      url: `/api/products/${product.id}`,
      payload: { isActive: true },
    });
    expect(on.json().isActive).toBe(true);
  });

  it.each([
    [{ name: '' }, 'Name is required'],
    [{ adType: 'billboard' }, 'Ad type must be one of'],
    [{ adType: '' }, 'Ad type is required'],
    [{ defaultPrice: -1 }, 'Default price cannot be negative'],
    [{ defaultPrice: null }, 'Default price is required'],
    [{ priceMetric: 'hourly' }, 'Price metric must be one of'],
    [{ defaultDuration: -3 }, 'Default duration must be at least 1 day'],
  ])('refuses %j with 400 and changes nothing', async (payload, message) => {
    const product = await newProduct();
    const response = await ctx.injectAs('admin', { method: 'PATCH', url: `/api/products/${product.id}`, payload });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
    expect((await ctx.injectAs('admin', { method: 'GET', url: `/api/products/${product.id}` })).json()).toEqual(
      product,
    );
  });

  it('answers 404 for an unknown product and 403 for sales', async () => {
    const unknown = await ctx.injectAs('admin', {
      method: 'PATCH',
      url: `/api/products/${randomUUID()}`,
      payload: { name: 'X' },
    });
    expect(unknown.statusCode).toBe(404);
    const product = await newProduct();
    const sales = await ctx.injectAs('sales', {
      method: 'PATCH',
      url: `/api/products/${product.id}`,
      payload: { name: 'X' },
    });
    expect(sales.statusCode).toBe(403);
  });
});

describe('DELETE /api/products/:id', () => {
  it('deletes an unused product and audits it', async () => {
    const product = await newProduct();
    const admin = await ctx.as('admin');
    const response = await ctx.injectAs(admin, { method: 'DELETE', url: `/api/products/${product.id}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Product deleted', archived: false });
    expect(await ctx.db.select().from(products).where(eq(products.id, product.id))).toHaveLength(0);
    const audit = (await auditOf(product.id)).find((a) => a.action === 'product.deleted');
    expect(audit).toMatchObject({ actorId: admin.id, before: product, after: null });
  });

  it('archives a product that a package uses, answering the archived product and a message', async () => {
    const product = await newProduct();
    const [pkg] = await ctx.db.insert(packages).values({ name: 'Bundle', priceCents: 1000 }).returning();
    await ctx.db.insert(packageItems).values({ packageId: pkg.id, productId: product.id, quantity: 1 });
    const response = await ctx.injectAs('super_admin', { method: 'DELETE', url: `/api/products/${product.id}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      ...product,
      isActive: false,
      updatedAt: expect.any(String),
      archived: true,
      message: 'This product is used by 1 package item, so it was archived instead of deleted',
    });
    const [row] = await ctx.db.select().from(products).where(eq(products.id, product.id));
    expect(row.isActive).toBe(false);
    const audit = (await auditOf(product.id)).find((a) => a.action === 'product.archived');
    expect(audit?.after).toMatchObject({ isActive: false });
  });

  it('archives a product that a contract line item uses', async () => {
    const product = await newProduct();
    const [customer] = await ctx.db.insert(customers).values({ name: 'Shop', email: 'shop@example.test' }).returning();
    const [contract] = await ctx.db
      .insert(contracts)
      .values({ customerId: customer.id, startDate: '2026-01-01', paymentMode: 'portal' })
      .returning();
    await ctx.db.insert(contractLineItems).values(
      [0, 1].map((position) => ({
        contractId: contract.id,
        productId: product.id,
        unitPriceCents: 1000,
        lineTotalCents: 1000,
        flightStart: '2026-01-01',
        position,
      })),
    );
    const response = await ctx.injectAs('admin', { method: 'DELETE', url: `/api/products/${product.id}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: product.id,
      isActive: false,
      archived: true,
      message: 'This product is used by 2 contract line items, so it was archived instead of deleted',
    });
    expect(await ctx.db.select().from(products).where(eq(products.id, product.id))).toHaveLength(1);
  });

  it('answers 404 for an unknown product and 403 for staff who cannot edit products', async () => {
    expect((await ctx.injectAs('admin', { method: 'DELETE', url: `/api/products/${randomUUID()}` })).statusCode).toBe(
      404,
    );
    const product = await newProduct();
    for (const role of ['sales_manager', 'sales', 'finance'] as const) {
      expect((await ctx.injectAs(role, { method: 'DELETE', url: `/api/products/${product.id}` })).statusCode).toBe(403);
    }
  });
});
