import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AgencyOfRecord } from '@shared/contracts/agencies';
import type { Customer } from '@shared/contracts/customers';
import type { Invoice, InvoiceSummary } from '@shared/contracts/invoices';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { users } from '../db/schema';
import { buildTestApp, type TestContext } from '../test/app';
import type { TestUser } from '../test/factories';
import { seedDemo } from './seed';

/**
 * The demo's agencies (seed-agencies.ts, product.md section 20) on a fixed day: Cardinal Media (net, 15%) and
 * Harborline Partners (gross, 12.5%) with their advertisers, the agency's portal account seeing only what is
 * billed to it, and a net invoice with its commission line.
 */
const NOW = new Date('2026-11-10T15:00:00Z');

type Signed = TestUser & { token: string };
let ctx: TestContext;
let dataDir: string;
let admin: Signed;
let agencyUser: Signed;

const get = async <T>(who: Signed, url: string): Promise<T> => {
  const response = await ctx.injectAs(who, { method: 'GET', url });
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  return response.json() as T;
};
const signInDemo = async (email: string) => {
  const [user] = await ctx.db.select().from(users).where(eq(users.email, email));
  return ctx.signIn({ ...user, password: 'demo1234' });
};
const customerNamed = async (name: string) =>
  (await get<Customer[]>(admin, `/api/customers?q=${encodeURIComponent(name)}`)).find((c) => c.name === name)!;

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'adcrm-demo-agencies-'));
  ctx = await buildTestApp({ config: { DATA_DIR: dataDir } });
  await seedDemo(ctx.db, ctx.app.config);
  admin = await signInDemo('admin@demo.test');
  agencyUser = await signInDemo('agency@demo.test');
}, 180_000);
afterAll(async () => {
  await ctx?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  vi.useRealTimers();
});

describe('the demo agencies', () => {
  it('has two agencies, one net and one gross, each representing its advertisers since a year ago', async () => {
    const cardinal = await customerNamed('Cardinal Media');
    const harborline = await customerNamed('Harborline Partners');
    expect(cardinal).toMatchObject({ kind: 'agency', agencyCommissionPercent: 15 });
    expect(harborline).toMatchObject({ kind: 'agency', agencyCommissionPercent: 12.5 });

    const represented = async (id: string) =>
      (await get<AgencyOfRecord[]>(admin, `/api/agencies/${id}/advertisers`))
        .map((p) => `${p.advertiserName} ${p.billingMode} ${p.commissionPercent}% from ${p.from} to ${p.to}`)
        .sort();
    expect(await represented(cardinal.id)).toEqual([
      'Oakridge Dental Care net 15% from 2025-11-01 to null',
      'Pinewood Hardware net 15% from 2025-11-01 to null',
      'Silver Lake Yoga net 15% from 2025-11-01 to null',
    ]);
    expect(await represented(harborline.id)).toEqual([
      'Tidewater Marina gross 12.5% from 2025-11-01 to null',
      'Willow Creek Bistro gross 12.5% from 2025-11-01 to null',
    ]);
    const oakridge = await customerNamed('Oakridge Dental Care');
    expect(oakridge.agencyOfRecord).toMatchObject({ agencyName: 'Cardinal Media', billingMode: 'net' });
  });

  it("shows the agency's portal account only what is billed to Cardinal Media", async () => {
    const contracts = await get<{ title: string | null; advertiserName: string }[]>(
      agencyUser,
      '/api/client/contracts',
    );
    expect(contracts.map((c) => `${c.advertiserName}: ${c.title}`).sort()).toEqual([
      'Oakridge Dental Care: Oakridge Dental: new patient year',
      'Pinewood Hardware: Pinewood Hardware: weekend project spots',
      'Silver Lake Yoga: Silver Lake Yoga: new year, new you',
    ]);
    // Pinewood Hardware's own QR contract is billed to Pinewood Hardware: not the agency's.
    const all = await get<{ id: string; title: string | null; billToCustomerId: string }[]>(
      admin,
      `/api/contracts?customerId=${(await customerNamed('Pinewood Hardware')).id}`,
    );
    expect(all.map((c) => c.title).sort()).toEqual([
      'Pinewood Hardware: in-store QR coupons',
      'Pinewood Hardware: weekend project spots',
    ]);
  });

  it('billed a year of invoices, most of them paid, a net one with its commission line', async () => {
    const invoicesOf = async (name: string) =>
      get<InvoiceSummary[]>(admin, `/api/invoices?customerId=${(await customerNamed(name)).id}&limit=100`);
    const counts: Record<string, string> = {};
    for (const name of [
      'Oakridge Dental Care',
      'Pinewood Hardware',
      'Silver Lake Yoga',
      'Tidewater Marina',
      'Willow Creek Bistro',
    ]) {
      const rows = await invoicesOf(name);
      counts[name] = `${rows.length} issued, ${rows.filter((i) => i.status === 'paid').length} paid`;
    }
    expect(counts).toEqual({
      'Oakridge Dental Care': '11 issued, 10 paid',
      'Pinewood Hardware': '16 issued, 15 paid',
      'Silver Lake Yoga': '8 issued, 8 paid',
      'Tidewater Marina': '11 issued, 11 paid',
      'Willow Creek Bistro': '10 issued, 9 paid',
    });

    const [oakridgeFirst] = (await invoicesOf('Oakridge Dental Care')).slice(-1);
    const invoice = await get<Invoice>(admin, `/api/invoices/${oakridgeFirst.id}`);
    expect(invoice.lines.map((line) => `${line.description} ${line.amount}`)).toEqual([
      'Holiday Pre-roll Video (15s) 1200',
      'Homepage Banner (728x90) 450',
      'Setup fee (one-time) 200',
      'Agency commission 15% -247.5',
    ]);
    expect(invoice).toMatchObject({
      subtotal: 1850,
      agencyCommission: 247.5,
      agencyBillingMode: 'net',
      total: 1602.5,
      status: 'paid',
    });
    // Billed gross: the invoice is the gross (December's in-season pre-roll and the setup fee), the commission (on
    // the media, not the setup fee) owed to the agency.
    const [tidewaterFirst] = (await invoicesOf('Tidewater Marina')).slice(-1);
    expect(await get<Invoice>(admin, `/api/invoices/${tidewaterFirst.id}`)).toMatchObject({
      subtotal: 1650,
      agencyCommission: 187.5,
      agencyBillingMode: 'gross',
      total: 1650,
    });
  });
});
