import type { AccountingExport } from '@shared/contracts/accounting';
import { AD_TYPES } from '@shared/contracts/product-vocabulary';
import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { businessToday } from '../../lib/business-day';
import { buildTestApp, type TestContext, testConfig } from '../../test/app';
import { createBillableContract, setTaxSettings } from '../../test/billing-factories';
import { runBilling } from '../billing/billing-run';

/**
 * Exports made at once, sent over real HTTP to two app instances on one database (on PostgreSQL each request
 * on its own pooled connection; PGlite serialises them and the same assertions hold): no document is ever in
 * two batches of a format, every batch made holds the whole range's new documents, the others are refused
 * with nothing kept, and the batch numbers run on without a gap.
 */
let ctx: TestContext;
let second: FastifyInstance;
let origins: string[];
let token: string;
const today = businessToday();

beforeAll(async () => {
  ctx = await buildTestApp();
  second = await buildApp({ config: testConfig(), db: ctx.db, logger: false });
  await second.ready();
  origins = [];
  for (const app of [ctx.app, second]) {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    origins.push(`http://127.0.0.1:${address.port}`);
  }
  token = (await ctx.as('finance')).token;
  await setTaxSettings(ctx.db, { defaultTaxRate: 0, taxIncluded: false, taxLabel: 'Tax' });
  const codes = Object.fromEntries(AD_TYPES.map((adType, i) => [adType, String(4000 + i)]));
  const saved = await ctx.injectAs('admin', {
    method: 'PUT',
    url: '/api/accounting/settings',
    payload: {
      revenueAccounts: codes,
      otherRevenueAccount: '4900',
      taxAccount: '2200',
      receivablesAccount: '1100',
      bankAccount: '1000',
      cardClearingAccount: '1050',
      customerCreditAccount: '2300',
      xeroTaxType: 'Tax on Sales',
      xeroNoTaxType: 'Tax Exempt',
      quickbooksTaxCode: 'TAX',
      quickbooksNoTaxCode: 'NON',
    },
  });
  expect(saved.statusCode, saved.body).toBe(200);
});
afterAll(async () => {
  await second.close();
  await ctx.close();
});

/** `count` invoices issued today, the first `paid` of them paid by check. */
async function issue(count: number, paid = 0): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const { contract } = await createBillableContract(ctx.db, {
      startDate: today,
      lines: [{ unitPriceCents: (100 + i) * 100 }],
    });
    await runBilling(ctx.db, { contractId: contract.id, asOf: today });
    const [invoice] = (
      await ctx.injectAs('finance', { method: 'GET', url: `/api/invoices?contractId=${contract.id}` })
    ).json() as { id: string; total: number }[];
    if (i < paid) {
      const payment = await ctx.injectAs('finance', {
        method: 'POST',
        url: `/api/invoices/${invoice!.id}/payments`,
        payload: { amount: invoice!.total, method: 'check' },
      });
      expect(payment.statusCode, payment.body).toBe(201);
    }
    ids.push(invoice!.id);
  }
  return ids;
}

/** The export requests, all sent at once, alternately to the two instances. */
function exportAtOnce(formats: string[]) {
  return Promise.all(
    formats.map(async (format, i) => {
      const response = await fetch(`${origins[i % 2]}/api/accounting/exports`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ from: today, to: today, format }),
      });
      return {
        format,
        status: response.status,
        body: (await response.json()) as AccountingExport & { message?: string },
      };
    }),
  );
}

async function claimedRows() {
  const result = await ctx.db.execute(
    sql`select format, document_kind, document_id::text as id, export_id::text as export_id from accounting_export_documents`,
  );
  return (result as unknown as { rows: { format: string; document_kind: string; id: string; export_id: string }[] })
    .rows;
}

async function fileRows(batch: AccountingExport) {
  const response = await fetch(`${origins[1]}/api/accounting/exports/${batch.id}/file`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
  return parse(await response.text(), { columns: true }) as Record<string, string>[];
}

describe('exports made at once', () => {
  it('one batch per format takes every document; the others are refused and keep nothing', async () => {
    const invoices = await issue(6, 2);
    const answers = await exportAtOnce([
      'xero-invoices',
      'journal',
      'quickbooks-invoices',
      'xero-invoices',
      'journal',
      'quickbooks-invoices',
      'xero-invoices',
      'journal',
    ]);

    const made = answers.filter((a) => a.status === 201);
    expect(made.map((a) => a.format).sort()).toEqual(['journal', 'quickbooks-invoices', 'xero-invoices']);
    for (const refused of answers.filter((a) => a.status !== 201)) {
      expect(refused.status).toBe(409);
      expect(refused.body.message).toMatch(/^Nothing to export/);
    }
    const byFormat = Object.fromEntries(made.map((a) => [a.format, a.body]));
    expect(byFormat['xero-invoices']).toMatchObject({ documentCount: 6, documents: { invoices: 6 } });
    expect(byFormat['quickbooks-invoices']).toMatchObject({ documentCount: 6, documents: { invoices: 6 } });
    expect(byFormat.journal).toMatchObject({ documentCount: 8, documents: { invoices: 6, payments: 2 } });

    // Gapless numbers: the refused attempts gave theirs back.
    expect(made.map((a) => Number(a.body.number.slice(-6))).sort()).toEqual([1, 2, 3]);

    const rows = await claimedRows();
    expect(rows).toHaveLength(20);
    expect(new Set(rows.map((r) => `${r.format}/${r.document_kind}/${r.id}`)).size).toBe(20);
    for (const format of ['xero-invoices', 'quickbooks-invoices']) {
      const mine = rows.filter((r) => r.format === format);
      expect(new Set(mine.map((r) => r.export_id))).toEqual(new Set([byFormat[format]!.id]));
      expect(mine.map((r) => r.id).sort()).toEqual([...invoices].sort());
    }

    const xero = await fileRows(byFormat['xero-invoices']!);
    expect(new Set(xero.map((r) => r['*InvoiceNumber'])).size).toBe(6);
  });

  it('a second round at once takes only the new invoices, once', async () => {
    const fresh = await issue(5);
    const answers = await exportAtOnce(['xero-invoices', 'xero-invoices', 'xero-invoices', 'xero-invoices']);
    const made = answers.filter((a) => a.status === 201);
    expect(made).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(3);
    expect(made[0]!.body).toMatchObject({ documentCount: 5 });
    expect(Number(made[0]!.body.number.slice(-6))).toBe(4);

    const rows = (await claimedRows()).filter((r) => r.export_id === made[0]!.body.id);
    expect(rows.map((r) => r.id).sort()).toEqual([...fresh].sort());
    const file = await fileRows(made[0]!.body);
    expect(file).toHaveLength(5);
  });
});
