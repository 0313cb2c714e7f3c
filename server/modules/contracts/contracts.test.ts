import { type ContractAction, transitionRefusal } from '@shared/contracts/contract-lifecycle';
import type { Contract } from '@shared/contracts/contract-responses';
import { CONTRACT_STATUSES, type ContractStatus } from '@shared/contracts/contract-vocabulary';
import type { Role } from '@shared/roles';
import { and, asc, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, contractLineItems, contracts, outboxEmails, products, users } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { createTestCustomer, createTestPackage, createTestProduct } from '../../test/catalog-factories';
import { createTestUser } from '../../test/factories';
import { asDelivered } from '../../test/outbox';

let ctx: TestContext;
let customer: Awaited<ReturnType<typeof createTestCustomer>>;
let banner: Awaited<ReturnType<typeof createTestProduct>>;
let preRoll: Awaited<ReturnType<typeof createTestProduct>>;
let archived: Awaited<ReturnType<typeof createTestProduct>>;
let offSeason: Awaited<ReturnType<typeof createTestProduct>>;
let pkg: Awaited<ReturnType<typeof createTestPackage>>;

beforeAll(async () => {
  ctx = await buildTestApp();
  customer = await createTestCustomer(ctx.db, { name: 'Holiday Films', company: 'Holiday Films LLC' });
  banner = await createTestProduct(ctx.db, {
    name: 'Homepage Banner',
    adType: 'banner',
    defaultPriceCents: 100_00,
    seasonalPriceCents: 150_00,
  });
  preRoll = await createTestProduct(ctx.db, { name: 'Pre-roll 15s', adType: 'pre_roll', defaultPriceCents: 250_00 });
  archived = await createTestProduct(ctx.db, { name: 'Old Overlay', adType: 'overlay', isActive: false });
  // Cheaper in season: $100.00, $50.00 from October to December.
  offSeason = await createTestProduct(ctx.db, {
    name: 'Summer Skin',
    adType: 'banner',
    defaultPriceCents: 100_00,
    seasonalPriceCents: 50_00,
  });
  pkg = await createTestPackage(ctx.db, { name: 'Holiday Bundle', priceCents: 500_00, description: 'Winter season' }, [
    { productId: preRoll.id, quantity: 2, customPriceCents: 200_00, notes: 'Prime time' },
    { productName: 'Custom takeover', quantity: 1, customDescription: 'One day takeover' },
  ]);
});
afterAll(() => ctx.close());

type Who = Role | Awaited<ReturnType<TestContext['signIn']>>;

/**
 * Contracts start in the future by default: activating one then issues no invoice and sends nothing yet
 * (billing catches up on past periods at activation; its own tests cover that).
 */
const FUTURE_START = `${new Date().getUTCFullYear() + 1}-01-31`;

const body = (overrides: Record<string, unknown> = {}) => ({
  customerId: customer.id,
  startDate: FUTURE_START,
  termMonths: 1,
  description: 'Winter campaign',
  setupFee: 25,
  paymentMode: 'portal',
  packageId: null,
  sendToCustomer: false,
  makeActive: false,
  lineItems: [{ productId: banner.id, quantity: 2, unitPrice: 100, discount: 10 }],
  ...overrides,
});

const api = (who: Who, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  ctx.injectAs(who, payload === undefined ? { method, url } : { method, url, payload });

async function create(who: Who, overrides: Record<string, unknown> = {}): Promise<Contract> {
  const response = await api(who, 'POST', '/api/contracts', body(overrides));
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

/** A contract put straight into a status (and payment state), as billing or a provider would leave it. */
async function contractIn(
  status: ContractStatus,
  extra: Partial<typeof contracts.$inferInsert> = {},
  who: Who = 'admin',
) {
  const contract = await create(who);
  await ctx.db
    .update(contracts)
    .set({ status, ...extra })
    .where(eq(contracts.id, contract.id));
  return contract;
}

/** The contract's audit events, oldest first. */
const auditOf = (id: string) =>
  ctx.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.entity, 'contract'), eq(auditEvents.entityId, id)))
    .orderBy(asc(auditEvents.id));

const countRows = async () => {
  const [{ n }] = await ctx.db.select({ n: count() }).from(contracts);
  const [{ m }] = await ctx.db.select({ m: count() }).from(contractLineItems);
  return { n, m };
};

describe('create', () => {
  it('stores a draft with every figure computed on the server, ignoring figures the client sends', async () => {
    const sales = await ctx.as('sales');
    const response = await api(sales, 'POST', '/api/contracts', {
      ...body({ startDate: '2026-01-31' }),
      total: 1,
      totalAmount: 1,
      monthlyAmount: 1,
      lineItems: [{ productId: banner.id, quantity: 2, unitPrice: 100, discount: 10, lineTotal: 9999 }],
    });
    expect(response.statusCode).toBe(201);
    const contract: Contract = response.json();
    expect(contract).toMatchObject({
      status: 'draft',
      customerId: customer.id,
      customerName: 'Holiday Films',
      startDate: '2026-01-31',
      termMonths: 1,
      autoStopDate: '2026-02-28',
      paymentMode: 'portal',
      lineItemsTotal: 190,
      packagePrice: 0,
      monthlyAmount: 190,
      setupFee: 25,
      total: 215,
      totalAmount: 215,
      oneTimeAmount: 25,
      firstInvoiceAmount: 215,
      seasonalMonthlyAmount: 290,
      salesRepId: sales.id,
      salesRepName: `${sales.firstName} ${sales.lastName}`,
      payLinkToken: null,
      stripePaymentLinkId: null,
      canEdit: true,
      canDelete: true,
      customer: { id: customer.id, name: 'Holiday Films', email: customer.email, company: 'Holiday Films LLC' },
      package: null,
    });
    expect(contract.lineItems).toEqual([
      {
        id: expect.any(String),
        productId: banner.id,
        quantity: 2,
        unitPrice: 100,
        discount: 10,
        lineTotal: 190,
        // The line as sold: the product's metric and seasonal price, a flight from the contract's start.
        priceMetric: 'monthly',
        seasonalPrice: 150,
        seasonalLineTotal: 290,
        flightStart: '2026-01-31',
        flightEnd: null,
        product: {
          id: banner.id,
          name: 'Homepage Banner',
          adType: 'banner',
          defaultPrice: 100,
          seasonalPrice: 150,
          priceMetric: 'monthly',
        },
      },
    ]);
    const [stored] = await ctx.db.select().from(contracts).where(eq(contracts.id, contract.id));
    expect(stored).toMatchObject({ totalCents: 215_00, monthlyAmountCents: 190_00, createdBy: sales.id });
    const audit = await auditOf(contract.id);
    expect(audit.map((a) => a.action)).toEqual(['contract.created']);
    expect(audit[0].actorId).toBe(sales.id);
  });

  it('adds the package price and answers the package with its items and products', async () => {
    const contract = await create('admin', {
      packageId: pkg.id,
      lineItems: [],
      setupFee: 0,
      termMonths: null,
    });
    expect(contract).toMatchObject({
      packageId: pkg.id,
      packagePrice: 500,
      lineItemsTotal: 0,
      monthlyAmount: 500,
      total: 500,
      termMonths: null,
      autoStopDate: null,
      lineItems: [],
      package: { id: pkg.id, name: 'Holiday Bundle', description: 'Winter season', price: 500 },
    });
    expect(contract.package!.items).toEqual([
      expect.objectContaining({
        productId: preRoll.id,
        quantity: 2,
        customPrice: 200,
        notes: 'Prime time',
        product: expect.objectContaining({ id: preRoll.id, name: 'Pre-roll 15s', seasonalPrice: null }),
      }),
      expect.objectContaining({ productId: null, productName: 'Custom takeover', product: null, customPrice: null }),
    ]);
  });

  it('counts package and lines together, in exact cents', async () => {
    const contract = await create('admin', {
      packageId: pkg.id,
      setupFee: 0.1,
      lineItems: [
        { productId: banner.id, quantity: 3, unitPrice: 0.1, discount: 0 },
        { productId: preRoll.id, quantity: 1, unitPrice: 0.2, discount: 0.05 },
      ],
    });
    expect(contract).toMatchObject({ lineItemsTotal: 0.45, monthlyAmount: 500.45, total: 500.55 });
    expect(contract.lineItems.map((l) => l.lineTotal)).toEqual([0.3, 0.15]);
  });

  it('with makeActive (or status active) is active and sends nothing, even with sendToCustomer on', async () => {
    const before = await ctx.db.select({ n: count() }).from(outboxEmails);
    const a = await create('admin', { makeActive: true, sendToCustomer: true });
    const b = await create('admin', { status: 'active', sendToCustomer: true });
    expect([a.status, b.status]).toEqual(['active', 'active']);
    const after = await ctx.db.select({ n: count() }).from(outboxEmails);
    expect(after[0].n).toBe(before[0].n);
  });

  it('with sendToCustomer is sent and e-mails the customer', async () => {
    const payLinkCustomer = await createTestCustomer(ctx.db);
    const contract = await create('admin', {
      customerId: payLinkCustomer.id,
      paymentMode: 'pay_link',
      sendToCustomer: true,
    });
    expect(contract.status).toBe('sent');
    expect(contract.payLinkToken).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(contract.stripePaymentLinkId).toMatch(/^plink_[0-9a-f]{24}$/);
    const mail = (await ctx.db.select().from(outboxEmails).where(eq(outboxEmails.entityId, contract.id))).map(
      asDelivered,
    );
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({ to: payLinkCustomer.email, status: 'queued' });
    // No PUBLIC_URL in the test config: links use the configured listen address (PORT 3000).
    expect(mail[0].text).toContain(`http://localhost:3000/p/${contract.payLinkToken}`);
    const audit = await auditOf(contract.id);
    // Created, then sent through the one writer of status, as a draft sent later would be.
    expect(audit.map((a) => a.action)).toEqual([
      'contract.created',
      'contract.sent',
      'insertion_order.sent',
      'contract.payment_link_created',
    ]);
  });

  it('defaults the sales rep to the creator; only managers and admins may assign another sales user', async () => {
    const rep = await createTestUser(ctx.db, { role: 'sales' });
    const finance = await createTestUser(ctx.db, { role: 'finance' });
    const inactive = await createTestUser(ctx.db, { role: 'sales', isActive: false });

    const byManager = await create('sales_manager', { salesRepId: rep.id });
    expect(byManager.salesRepId).toBe(rep.id);
    const own = await create('sales_manager');
    expect(own.salesRepId).toBe((await ctx.as('sales_manager')).id);

    const bySales = await api('sales', 'POST', '/api/contracts', body({ salesRepId: rep.id }));
    expect(bySales.statusCode).toBe(403);
    expect(bySales.json().message).toBe('Only a sales manager or an admin can assign a contract to another sales rep');
    const self = await create('sales', { salesRepId: (await ctx.as('sales')).id });
    expect(self.salesRepId).toBe((await ctx.as('sales')).id);

    for (const user of [finance, inactive]) {
      const response = await api('admin', 'POST', '/api/contracts', body({ salesRepId: user.id }));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        message: 'The sales rep must be an active sales user',
        fieldErrors: { salesRepId: ['The sales rep must be an active sales user'] },
      });
    }
  });
});

describe('bad payloads answer 400 with the exact message and store nothing', () => {
  const cases: [string, () => Record<string, unknown>, string, string][] = [
    ['missing customer', () => body({ customerId: undefined }), 'customerId', 'Customer is required'],
    ['empty customer', () => body({ customerId: '' }), 'customerId', 'Customer is required'],
    ['unknown customer', () => body({ customerId: crypto.randomUUID() }), 'customerId', 'Customer not found'],
    ['missing start date', () => body({ startDate: '' }), 'startDate', 'Start date is required'],
    ['bad date', () => body({ startDate: '2026-02-30' }), 'startDate', 'Enter a valid date (YYYY-MM-DD)'],
    ['date as text', () => body({ startDate: 'next monday' }), 'startDate', 'Enter a valid date (YYYY-MM-DD)'],
    ['missing payment mode', () => body({ paymentMode: undefined }), 'paymentMode', 'Payment mode is required'],
    ['term 0', () => body({ termMonths: 0 }), 'termMonths', 'Term must be at least 1 month'],
    ['term 121', () => body({ termMonths: 121 }), 'termMonths', 'Term cannot exceed 120 months'],
    ['term 1.5', () => body({ termMonths: 1.5 }), 'termMonths', 'Term must be a whole number of months'],
    ['negative setup fee', () => body({ setupFee: -5 }), 'setupFee', 'Setup fee cannot be negative'],
    [
      'negative unit price',
      () => body({ lineItems: [{ productId: banner.id, quantity: 1, unitPrice: -1, discount: 0 }] }),
      'lineItems.0.unitPrice',
      'Unit price cannot be negative',
    ],
    [
      'negative discount',
      () => body({ lineItems: [{ productId: banner.id, quantity: 1, unitPrice: 1, discount: -1 }] }),
      'lineItems.0.discount',
      'Discount cannot be negative',
    ],
    [
      'quantity 0',
      () => body({ lineItems: [{ productId: banner.id, quantity: 0, unitPrice: 1, discount: 0 }] }),
      'lineItems.0.quantity',
      'Quantity must be at least 1',
    ],
    [
      'discount above the line amount',
      () => body({ lineItems: [{ productId: banner.id, quantity: 2, unitPrice: 10, discount: 20.01 }] }),
      'lineItems.0.discount',
      'Discount cannot exceed the line amount',
    ],
    [
      'discount above the in-season amount ($100 line, $90 off, $50 in season)',
      () =>
        body({ lineItems: [{ productId: banner.id, quantity: 1, unitPrice: 100, discount: 90, seasonalPrice: 50 }] }),
      'lineItems.0.discount',
      'Discount cannot exceed the line amount',
    ],
    [
      "discount above the product's in-season amount, the in-season price left out",
      () => body({ lineItems: [{ productId: offSeason.id, quantity: 1, unitPrice: 100, discount: 90 }] }),
      'lineItems.0.discount',
      'Discount cannot exceed the line amount',
    ],
    [
      "the second line's discount above its product's in-season amount",
      () =>
        body({
          lineItems: [
            { productId: banner.id, quantity: 1, unitPrice: 100, discount: 90 },
            { productId: offSeason.id, quantity: 2, unitPrice: 100, discount: 100.01 },
          ],
        }),
      'lineItems.1.discount',
      'Discount cannot exceed the line amount',
    ],
    [
      'unknown product',
      () => body({ lineItems: [{ productId: crypto.randomUUID(), quantity: 1, unitPrice: 1, discount: 0 }] }),
      'lineItems.0.productId',
      'Product not found',
    ],
    [
      'archived product',
      () => body({ lineItems: [{ productId: archived.id, quantity: 1, unitPrice: 1, discount: 0 }] }),
      'lineItems.0.productId',
      'Old Overlay is archived and cannot be added to a contract',
    ],
    ['unknown package', () => body({ packageId: crypto.randomUUID() }), 'packageId', 'Package not found'],
    [
      'no package and no line',
      () => body({ packageId: null, lineItems: [] }),
      'lineItems',
      'Please select a package or add at least one complete line item',
    ],
    [
      'package "none" and no line',
      () => body({ packageId: 'none', lineItems: [] }),
      'lineItems',
      'Please select a package or add at least one complete line item',
    ],
  ];

  it.each(cases)('%s', async (_name, payload, field, message) => {
    const before = await countRows();
    for (const [method, url] of [
      ['POST', '/api/contracts'],
      ['PATCH', `/api/contracts/${(await create('admin')).id}`],
    ] as const) {
      const response = await api('admin', method, url, payload());
      expect(response.statusCode, `${method} ${response.body}`).toBe(400);
      expect(response.json().message).toBe(message);
      expect(response.json().fieldErrors[field]).toEqual([message]);
    }
    const after = await countRows();
    expect(after.n).toBe(before.n + 1); // only the contract made to PATCH
    expect(after.m).toBe(before.m + 1);
  });

  it("accepts a discount up to the in-season amount, and any discount on the product's line without one", async () => {
    const accepted: [Record<string, unknown>, number | null, number][] = [
      // [line, its in-season price, its in-season total] written out
      [{ productId: offSeason.id, quantity: 1, unitPrice: 100, discount: 50 }, 50, 0],
      [{ productId: offSeason.id, quantity: 2, unitPrice: 100, discount: 90 }, 50, 10],
      [{ productId: offSeason.id, quantity: 1, unitPrice: 100, discount: 90, seasonalPrice: null }, null, 10],
      [{ productId: banner.id, quantity: 1, unitPrice: 100, discount: 90, seasonalPrice: 95 }, 95, 5],
    ];
    for (const [line, seasonalPrice, seasonalLineTotal] of accepted) {
      const contract = await create('admin', { lineItems: [line] });
      expect(contract.lineItems[0], JSON.stringify(line)).toMatchObject({ seasonalPrice, seasonalLineTotal });
    }
  });

  it('keeps the stored contract unchanged after a refused edit', async () => {
    const contract = await create('admin');
    await api('admin', 'PATCH', `/api/contracts/${contract.id}`, body({ termMonths: 0, description: 'changed' }));
    const again = (await api('admin', 'GET', `/api/contracts/${contract.id}`)).json();
    expect(again).toMatchObject({ description: 'Winter campaign', termMonths: 1, updatedAt: contract.updatedAt });
  });
});

describe('read access', () => {
  it('lists newest first with customer names, filters, search and X-Total-Count', async () => {
    const other = await createTestCustomer(ctx.db, { name: 'Filter Customer' });
    const a = await create('admin', { customerId: other.id, description: 'Alpha snowfall promo' });
    const b = await create('admin', { customerId: other.id, description: 'Beta promo', makeActive: true });
    const c = await create('admin', { customerId: other.id, description: 'Gamma' });

    const all = await api('admin', 'GET', `/api/contracts?customerId=${other.id}`);
    expect(all.statusCode).toBe(200);
    expect(all.headers['x-total-count']).toBe('3');
    expect(all.json().map((x: Contract) => x.id)).toEqual([c.id, b.id, a.id]);
    expect(all.json()[0]).toMatchObject({ customerName: 'Filter Customer', total: 215 });
    expect(all.json()[0].lineItems).toBeUndefined();

    const active = await api('admin', 'GET', `/api/contracts?customerId=${other.id}&status=active`);
    expect(active.json().map((x: Contract) => x.id)).toEqual([b.id]);
    const everyStatus = await api('admin', 'GET', `/api/contracts?customerId=${other.id}&status=all`);
    expect(everyStatus.headers['x-total-count']).toBe('3');

    const byText = await api('admin', 'GET', '/api/contracts?q=SNOWFALL');
    expect(byText.json().map((x: Contract) => x.id)).toEqual([a.id]);
    const byId = await api('admin', 'GET', `/api/contracts?q=${c.id.slice(-8)}`);
    expect(byId.json().map((x: Contract) => x.id)).toEqual([c.id]);
    const wildcard = await api('admin', 'GET', `/api/contracts?customerId=${other.id}&q=%25`);
    expect(wildcard.json()).toEqual([]);

    const page = await api('admin', 'GET', `/api/contracts?customerId=${other.id}&limit=1&offset=1`);
    expect(page.headers['x-total-count']).toBe('3');
    expect(page.json().map((x: Contract) => x.id)).toEqual([b.id]);

    const bad = await api('admin', 'GET', '/api/contracts?status=archived');
    expect(bad.statusCode).toBe(400);
  });

  it('shows a sales user only the contracts they are the rep of; others are 404', async () => {
    const mine = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales' }));
    const theirs = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales' }));
    const own = await create(mine);
    const foreign = await create(theirs);
    const managers = await create('sales_manager');

    const list = await api(mine, 'GET', '/api/contracts');
    expect(list.json().map((x: Contract) => x.id)).toEqual([own.id]);
    expect(list.headers['x-total-count']).toBe('1');
    expect((await api(mine, 'GET', `/api/contracts/${own.id}`)).statusCode).toBe(200);
    for (const id of [foreign.id, managers.id]) {
      const response = await api(mine, 'GET', `/api/contracts/${id}`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: 'Contract not found', code: 'NOT_FOUND' });
    }

    // Every change to someone else's contract is 404 too, and changes nothing.
    const changes: [string, string, object | undefined][] = [
      ['PATCH', '', body()],
      ['DELETE', '', undefined],
      ['POST', '/generate-payment-link', undefined],
      ['POST', '/send', undefined],
      ['POST', '/activate', undefined],
      ['POST', '/pause', undefined],
      ['POST', '/resume', undefined],
      ['POST', '/cancel', { reason: 'no' }],
      ['POST', '/resend-receipt', undefined],
    ];
    for (const [method, suffix, payload] of changes) {
      const response = await api(mine, method as 'POST', `/api/contracts/${foreign.id}${suffix}`, payload);
      expect(response.statusCode, `${method} ${suffix}`).toBe(404);
    }
    const [stored] = await ctx.db.select().from(contracts).where(eq(contracts.id, foreign.id));
    expect(stored.status).toBe('draft');

    // "my contracts" for a manager
    const myAsManager = await api('sales_manager', 'GET', '/api/contracts?mine=true');
    const managerId = (await ctx.as('sales_manager')).id;
    expect(myAsManager.json().every((x: Contract) => x.salesRepId === managerId)).toBe(true);
    expect(myAsManager.json().map((x: Contract) => x.id)).toContain(managers.id);
  });

  it('lets finance read everything but change nothing; clients get 403', async () => {
    const contract = await create('sales');
    const list = await api('finance', 'GET', '/api/contracts');
    expect(list.statusCode).toBe(200);
    expect(list.json().map((x: Contract) => x.id)).toContain(contract.id);
    const detail = await api('finance', 'GET', `/api/contracts/${contract.id}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({ canEdit: false, canDelete: false });

    const refused: [string, string, object | undefined][] = [
      ['POST', '/api/contracts', body()],
      ['PATCH', `/api/contracts/${contract.id}`, body()],
      ['DELETE', `/api/contracts/${contract.id}`, undefined],
      ['POST', `/api/contracts/${contract.id}/activate`, undefined],
      ['POST', `/api/contracts/${contract.id}/generate-payment-link`, undefined],
    ];
    for (const [method, url, payload] of refused) {
      const response = await api('finance', method as 'POST', url, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
    }
    for (const url of ['/api/contracts', `/api/contracts/${contract.id}`]) {
      expect((await api('client', 'GET', url)).statusCode).toBe(403);
    }
    expect((await api('client', 'POST', '/api/contracts', body())).statusCode).toBe(403);
  });

  it.each(['super_admin', 'admin', 'sales_manager'] as const)('lets %s change any contract', async (role) => {
    const contract = await create('sales');
    const response = await api(role, 'PATCH', `/api/contracts/${contract.id}`, body({ description: `by ${role}` }));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      description: `by ${role}`,
      salesRepId: contract.salesRepId,
      canEdit: true,
    });
  });
});

describe('status actions', () => {
  const targets: Record<Exclude<ContractAction, 'complete'>, ContractStatus> = {
    send: 'sent',
    activate: 'active',
    pause: 'paused',
    resume: 'active',
    cancel: 'canceled',
  };
  const allowed: Record<ContractStatus, string[]> = {
    draft: ['send', 'activate', 'cancel'],
    sent: ['activate', 'cancel'],
    active: ['pause', 'cancel'],
    paused: ['resume', 'cancel'],
    canceled: [],
    completed: [],
  };
  const table = CONTRACT_STATUSES.flatMap((status) =>
    (Object.keys(targets) as (keyof typeof targets)[]).map((action) => [status, action] as const),
  );

  it.each(table)('%s -> %s', async (status, action) => {
    const contract = await contractIn(status, {}, 'sales');
    const response = await api(
      'sales',
      'POST',
      `/api/contracts/${contract.id}/${action}`,
      action === 'cancel' ? { reason: 'Budget cut' } : undefined,
    );
    const [stored] = await ctx.db.select().from(contracts).where(eq(contracts.id, contract.id));
    const audit = await auditOf(contract.id);
    if (status === 'sent' && action === 'send') {
      // A sent contract with no insertion order yet (sent before they existed): sending makes version 1 of
      // it and e-mails its link; the status stays sent (product.md section 15).
      expect(response.statusCode, response.body).toBe(200);
      expect(stored.status).toBe('sent');
      expect(audit.map((a) => a.action)).toEqual(['contract.created', 'insertion_order.sent']);
    } else if (allowed[status].includes(action)) {
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ id: contract.id, status: targets[action] });
      expect(stored.status).toBe(targets[action]);
      expect(audit.map((a) => a.action)).toContain(
        `contract.${{ send: 'sent', activate: 'activated', pause: 'paused', resume: 'resumed', cancel: 'canceled' }[action]}`,
      );
      if (action === 'cancel') expect(response.json().cancelReason).toBe('Budget cut');
    } else {
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toBe(transitionRefusal(action, status));
      expect(stored.status).toBe(status);
      expect(audit.map((a) => a.action)).toEqual(['contract.created']);
    }
  });

  it('needs a reason to cancel', async () => {
    const contract = await create('admin');
    for (const payload of [{}, { reason: '  ' }]) {
      const response = await api('admin', 'POST', `/api/contracts/${contract.id}/cancel`, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('Please give a reason for canceling the contract');
    }
  });

  it('sends a portal contract with an invitation, creating the client account once', async () => {
    const portalCustomer = await createTestCustomer(ctx.db, { contactPerson: 'Ana Lopez' });
    const first = await create('admin', { customerId: portalCustomer.id });
    const sent = await api('admin', 'POST', `/api/contracts/${first.id}/send`);
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toMatchObject({ status: 'sent', payLinkToken: null, canEdit: true });
    const accounts = await ctx.db.select().from(users).where(eq(users.customerId, portalCustomer.id));
    expect(accounts).toMatchObject([
      { role: 'client', email: portalCustomer.email, firstName: 'Ana', lastName: 'Lopez', isActive: true },
    ]);

    const second = await create('admin', { customerId: portalCustomer.id, sendToCustomer: true });
    expect(second.status).toBe('sent');
    expect(await ctx.db.select().from(users).where(eq(users.customerId, portalCustomer.id))).toHaveLength(1);
    const mails = (await ctx.db.select().from(outboxEmails).where(eq(outboxEmails.to, portalCustomer.email))).map(
      asDelivered,
    );
    expect(mails).toHaveLength(2);
    // No password is ever e-mailed: while the account has none, each invitation carries a fresh set-password link.
    const links = mails.map((m) => /Set your password: (\S+)/.exec(m.text)?.[1]);
    expect(links).toEqual([
      expect.stringMatching(/\/set-password\?token=[A-Za-z0-9_-]{43}$/),
      expect.stringMatching(/\/set-password\?token=[A-Za-z0-9_-]{43}$/),
    ]);
    expect(links[0]).not.toBe(links[1]);
    for (const mail of mails) expect(`${mail.text}${mail.html}`).not.toMatch(/temporary password/i);
  });

  it('refuses to invite a customer whose e-mail belongs to a staff account', async () => {
    const staff = await createTestUser(ctx.db, { role: 'finance' });
    const clash = await createTestCustomer(ctx.db, { email: staff.email.toUpperCase() });
    const contract = await create('admin', { customerId: clash.id });
    const response = await api('admin', 'POST', `/api/contracts/${contract.id}/send`);
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toMatch(/already belongs to another account/);
    const [stored] = await ctx.db.select().from(contracts).where(eq(contracts.id, contract.id));
    expect(stored.status).toBe('draft');
  });

  it('refuses to send a $0.00 pay-link contract, and keeps it a draft', async () => {
    const free = await create('admin', {
      paymentMode: 'pay_link',
      setupFee: 0,
      lineItems: [{ productId: banner.id, quantity: 1, unitPrice: 0, discount: 0 }],
    });
    const response = await api('admin', 'POST', `/api/contracts/${free.id}/send`);
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(
      'Contract has $0.00 amount. Please add line items, select a package, or set a setup fee first.',
    );
    const [stored] = await ctx.db.select().from(contracts).where(eq(contracts.id, free.id));
    expect(stored.status).toBe('draft');
  });

  it('answers 409 for resend-receipt until a payment exists', async () => {
    const contract = await contractIn('active');
    const response = await api('admin', 'POST', `/api/contracts/${contract.id}/resend-receipt`);
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe('No payment to send a receipt for');
  });
});

describe('edit and delete rules', () => {
  const editCases: [ContractStatus, Partial<typeof contracts.$inferInsert>, number, string?][] = [
    ['draft', {}, 200],
    ['draft', { stripePaymentLinkId: 'plink_x' }, 200],
    ['sent', {}, 200],
    [
      'sent',
      { stripePaymentLinkId: 'plink_x' },
      409,
      'This contract cannot be edited because payment processing has started.',
    ],
    ['active', {}, 200],
    [
      'active',
      { stripeSubscriptionId: 'sub_x' },
      409,
      'This contract cannot be edited because payment processing has started.',
    ],
    ['paused', {}, 409, 'This contract is paused and can no longer be edited.'],
    ['canceled', {}, 409, 'This contract is canceled and can no longer be edited.'],
    ['completed', {}, 409, 'This contract is completed and can no longer be edited.'],
  ];

  it.each(editCases)('edit %s %j -> %d', async (status, extra, code, message) => {
    const contract = await contractIn(status, extra);
    const response = await api(
      'admin',
      'PATCH',
      `/api/contracts/${contract.id}`,
      body({ description: 'Edited', lineItems: [{ productId: preRoll.id, quantity: 1, unitPrice: 300, discount: 0 }] }),
    );
    expect(response.statusCode, response.body).toBe(code);
    const [stored] = await ctx.db.select().from(contracts).where(eq(contracts.id, contract.id));
    if (code === 200) {
      expect(response.json()).toMatchObject({ description: 'Edited', status, lineItemsTotal: 300, total: 325 });
      expect(response.json().lineItems).toHaveLength(1);
      expect(stored.totalCents).toBe(325_00);
    } else {
      expect(response.json().message).toBe(message);
      expect(stored.totalCents).toBe(215_00);
      expect(stored.description).toBe('Winter campaign');
    }
  });

  const deleteCases: [ContractStatus, Partial<typeof contracts.$inferInsert>, number, string?][] = [
    ['draft', {}, 200],
    ['draft', { stripeSubscriptionId: 'sub_x' }, 200],
    ['canceled', {}, 200],
    ['active', {}, 200],
    [
      'active',
      { stripePaymentLinkId: 'plink_x' },
      409,
      'This contract cannot be deleted because payment processing has started. Cancel it instead.',
    ],
    ['sent', {}, 409, 'This contract is sent and cannot be deleted. Cancel it instead.'],
    ['paused', {}, 409, 'This contract is paused and cannot be deleted. Cancel it instead.'],
    ['completed', {}, 409, 'This contract is completed and cannot be deleted.'],
  ];

  it.each(deleteCases)('delete %s %j -> %d', async (status, extra, code, message) => {
    const contract = await contractIn(status, extra);
    const response = await api('admin', 'DELETE', `/api/contracts/${contract.id}`);
    expect(response.statusCode).toBe(code);
    const stored = await ctx.db.select().from(contracts).where(eq(contracts.id, contract.id));
    if (code === 200) {
      expect(response.json()).toEqual({ message: 'Contract deleted' });
      expect(stored).toHaveLength(0);
      expect(
        await ctx.db.select().from(contractLineItems).where(eq(contractLineItems.contractId, contract.id)),
      ).toEqual([]);
      expect((await api('admin', 'GET', `/api/contracts/${contract.id}`)).statusCode).toBe(404);
      const audit = await auditOf(contract.id);
      expect(audit.map((a) => a.action)).toEqual(['contract.created', 'contract.deleted']);
    } else {
      expect(response.json().message).toBe(message);
      expect(stored).toHaveLength(1);
    }
  });

  it('keeps archived products already on the contract when editing', async () => {
    const product = await createTestProduct(ctx.db, { name: 'Retiring' });
    const contract = await create('admin', {
      lineItems: [{ productId: product.id, quantity: 1, unitPrice: 10, discount: 0 }],
    });
    await ctx.db.update(products).set({ isActive: false }).where(eq(products.id, product.id));
    const response = await api(
      'admin',
      'PATCH',
      `/api/contracts/${contract.id}`,
      body({ lineItems: [{ productId: product.id, quantity: 2, unitPrice: 10, discount: 0 }] }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json().lineItemsTotal).toBe(20);
  });

  it('changes status through an edit only along allowed transitions', async () => {
    const draft = await create('admin');
    const activated = await api(
      'admin',
      'PATCH',
      `/api/contracts/${draft.id}`,
      body({ makeActive: true, status: 'active' }),
    );
    expect(activated.json().status).toBe('active');
    const back = await api('admin', 'PATCH', `/api/contracts/${draft.id}`, body({ status: 'draft' }));
    expect(back.statusCode).toBe(409);
    expect(back.json().message).toBe('Cannot change this contract back to draft: it is active.');
    // The edit form's send switch acts on drafts only: it neither refuses nor re-sends an active contract.
    const unchanged = await api('admin', 'PATCH', `/api/contracts/${draft.id}`, body({ sendToCustomer: true }));
    expect(unchanged.statusCode).toBe(200);
    expect(unchanged.json().status).toBe('active');

    const toSend = await create('admin');
    const sent = await api('admin', 'PATCH', `/api/contracts/${toSend.id}`, body({ sendToCustomer: true }));
    expect(sent.json().status).toBe('sent');
    const audit = await auditOf(toSend.id);
    expect(audit.map((a) => a.action)).toEqual([
      'contract.created',
      'contract.updated',
      'contract.sent',
      'insertion_order.sent',
    ]);
  });
});

describe('payment link', () => {
  const link = (id: string, who: Who = 'admin') => api(who, 'POST', `/api/contracts/${id}/generate-payment-link`);

  it('creates an unguessable token once and answers its URL; payment processing has then started', async () => {
    const contract = await contractIn('sent', { paymentMode: 'pay_link' }, 'sales');
    const first = await link(contract.id, 'sales');
    expect(first.statusCode).toBe(200);
    const { paymentUrl } = first.json();
    expect(paymentUrl).toMatch(/^http:\/\/localhost:3000\/p\/[A-Za-z0-9_-]{32}$/);
    const second = await link(contract.id, 'sales');
    expect(second.json()).toEqual({ paymentUrl });

    const detail: Contract = (await api('sales', 'GET', `/api/contracts/${contract.id}`)).json();
    expect(paymentUrl.endsWith(`/p/${detail.payLinkToken}`)).toBe(true);
    expect(detail.payLinkUrl).toBe(paymentUrl);
    expect(detail.stripePaymentLinkId).toMatch(/^plink_/);
    expect(detail).toMatchObject({ canEdit: false, canDelete: false });
    const edit = await api('sales', 'PATCH', `/api/contracts/${contract.id}`, body({ paymentMode: 'pay_link' }));
    expect(edit.statusCode).toBe(409);
    const audit = await auditOf(contract.id);
    expect(audit.filter((a) => a.action === 'contract.payment_link_created')).toHaveLength(1);
  });

  it('never builds the link from Host or X-Forwarded-* headers without PUBLIC_URL', async () => {
    const contract = await contractIn('draft', { paymentMode: 'pay_link' });
    const response = await ctx.injectAs('admin', {
      method: 'POST',
      url: `/api/contracts/${contract.id}/generate-payment-link`,
      headers: { host: 'crm.example.com', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
    });
    expect(response.json().paymentUrl).toMatch(/^http:\/\/localhost:3000\/p\/[A-Za-z0-9_-]{32}$/);
  });

  it('builds the link from PUBLIC_URL when it is set, whatever the request headers say', async () => {
    const other = await buildTestApp({ config: { PUBLIC_URL: 'https://crm.example.com/' } });
    try {
      const payer = await createTestCustomer(other.db);
      const product = await createTestProduct(other.db);
      const created = await other.injectAs('admin', {
        method: 'POST',
        url: '/api/contracts',
        payload: body({
          customerId: payer.id,
          paymentMode: 'pay_link',
          lineItems: [{ productId: product.id, quantity: 1, unitPrice: 10, discount: 0 }],
        }),
      });
      expect(created.statusCode, created.body).toBe(201);
      const response = await other.injectAs('admin', {
        method: 'POST',
        url: `/api/contracts/${created.json().id}/generate-payment-link`,
        headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' },
      });
      const { paymentUrl } = response.json();
      expect(paymentUrl).toMatch(/^https:\/\/crm\.example\.com\/p\/[A-Za-z0-9_-]{32}$/);
      // The contract shows the same link in its detail and in the list (the screens show it as it is).
      const detail = await other.injectAs('admin', { method: 'GET', url: `/api/contracts/${created.json().id}` });
      expect(detail.json().payLinkUrl).toBe(paymentUrl);
      const list = await other.injectAs('admin', { method: 'GET', url: '/api/contracts?paymentMode=pay_link' });
      expect(list.json().find((c: Contract) => c.id === created.json().id).payLinkUrl).toBe(paymentUrl);
    } finally {
      await other.close();
    }
  });

  it.each([
    [
      'a portal contract',
      { paymentMode: 'portal' },
      'This contract is paid through the Client Portal. Payment links are only for Pay-Link contracts.',
    ],
    [
      'a $0.00 contract',
      { paymentMode: 'pay_link', totalCents: 0, setupFeeCents: 0 },
      'Contract has $0.00 amount. Please add line items, select a package, or set a setup fee first.',
    ],
    [
      'a canceled contract',
      { paymentMode: 'pay_link', status: 'canceled' },
      'This contract is canceled, so no payment link can be created for it.',
    ],
  ])('refuses %s', async (_name, extra, message) => {
    const contract = await contractIn('draft', extra as Partial<typeof contracts.$inferInsert>);
    const response = await link(contract.id);
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(message);
    const [stored] = await ctx.db.select().from(contracts).where(eq(contracts.id, contract.id));
    expect(stored.payLinkToken).toBeNull();
  });
});
