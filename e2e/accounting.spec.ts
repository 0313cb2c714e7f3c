import fs from 'node:fs';
import { unzipSync } from 'fflate';
import type { AccountingExport, AccountingSettings } from '../shared/contracts/accounting-vocabulary';
import type { InvoiceSummary } from '../shared/contracts/invoices';
import { apiAs, expect, signInAs, test, toast } from './fixtures';

/**
 * The accounting export on the demo data (product.md sections 16 and 17): an admin sets a code and the files'
 * date format on the Settings screen's "Accounting" tab; finance makes a Xero invoices batch, downloads it and
 * finds it listed, and is refused a second batch of the same range (nothing new); a year of invoices to
 * QuickBooks is one batch of several parts, each downloaded from the batch's Download menu, and all of them in
 * one zip; the screen fits a phone.
 */

/** The day (YYYY-MM-DD, UTC: the demo's business time zone) the newest demo invoice was issued. */
async function newestInvoiceDay(request: Parameters<typeof apiAs>[0]) {
  const [newest] = await (await apiAs(request, 'finance')).get<InvoiceSummary[]>('/api/invoices?limit=1');
  return newest!.issuedAt.slice(0, 10);
}

test('an admin sets an account code on the Accounting tab', async ({ page }) => {
  const admin = await apiAs(page.request, 'admin');
  const before = await admin.get<AccountingSettings>('/api/accounting/settings');
  await signInAs(page, 'admin', '/settings?tab=accounting');
  await expect(page.getByRole('tab', { name: 'Accounting' })).toHaveAttribute('aria-selected', 'true');
  // The demo's codes, set through the same service.
  await expect(page.getByLabel('Banner Ad')).toHaveValue(before.revenueAccounts.banner!);

  const tax = page.getByLabel('Sales tax');
  await tax.fill('=1+1');
  await page.getByRole('button', { name: 'Save Account Codes' }).click();
  await expect(page.getByText('Use letters, digits, spaces and punctuation')).toBeVisible();
  await tax.fill('2210');
  const dateFormat = page.getByRole('combobox', { name: 'Date format' });
  await expect(dateFormat).toHaveText(/^MM\/DD\/YYYY/);
  await dateFormat.click();
  await page.getByRole('option', { name: /^DD\/MM\/YYYY/ }).click();
  await page.getByRole('button', { name: 'Save Account Codes' }).click();
  await expect(toast(page, 'Account codes saved')).toBeVisible();
  const saved = await admin.get<AccountingSettings>('/api/accounting/settings');
  expect([saved.taxAccount, saved.dateFormat]).toEqual(['2210', 'DD/MM/YYYY']);
  await page.reload();
  await expect(page.getByLabel('Sales tax')).toHaveValue('2210');
  await expect(page.getByRole('combobox', { name: 'Date format' })).toHaveText(/^DD\/MM\/YYYY/);
  await admin.put('/api/accounting/settings', before);
});

test('finance makes a Xero invoices batch, downloads it, and finds it listed', async ({ page }) => {
  test.slow();
  const day = await newestInvoiceDay(page.request);
  await signInAs(page, 'finance', '/');
  await page.getByRole('link', { name: 'Accounting', exact: true }).click();
  await expect(page).toHaveURL(/\/accounting$/);
  await expect(page.getByRole('heading', { name: 'Accounting', level: 1 })).toBeVisible();
  // The demo has every code set: no notice.
  await expect(page.getByTestId('codes-notice')).toHaveCount(0);
  await expect(page.getByText('No exports yet')).toBeVisible();

  // The shared schema's messages, under the field, before anything is sent.
  await page.getByLabel('From').fill(day);
  await page.getByLabel('To').fill('2000-01-01');
  await page.getByRole('button', { name: 'Make Export' }).click();
  await expect(page.getByText('To must be on or after From')).toBeVisible();

  await page.getByLabel('To').fill(day);
  await expect(page.getByRole('combobox', { name: 'Format' })).toHaveText('Xero invoices');
  await page.getByRole('button', { name: 'Make Export' }).click();
  await expect(toast(page, 'made')).toBeVisible();

  const row = page.getByTestId('export-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Xero invoices');
  await expect(row).toContainText('Casey Patel');
  const [batch] = await (await apiAs(page.request, 'finance')).get<AccountingExport[]>('/api/accounting/exports');
  expect(batch).toMatchObject({ format: 'xero-invoices', from: day, to: day });
  await expect(row).toContainText(batch!.number);
  await expect(row.getByTestId('export-files')).toHaveText('1 file');
  await page.screenshot({ path: 'test-results/accounting-batch.png', fullPage: true });

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    row.getByRole('button', { name: `Download ${batch!.number}` }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`${batch!.number}-xero-invoices.csv`);
  const text = fs.readFileSync((await download.path())!, 'utf8');
  // The contact's address and the Discount column, as Xero's template names them.
  expect(text.split('\r\n')[0]).toMatch(
    /^\*ContactName,EmailAddress,POAddressLine1,POCity,PORegion,POPostalCode,POCountry,\*InvoiceNumber,.*,\*UnitAmount,Discount,/,
  );
  expect(
    new Set(
      text
        .trim()
        .split('\r\n')
        .slice(1)
        .map((line) => line.match(/INV-\d{4}-\d+/)?.[0]),
    ).size,
  ).toBe(batch!.documentCount);

  // The same range again holds nothing new: refused, said above the button, nothing listed.
  await page.getByRole('button', { name: 'Make Export' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Nothing to export' })).toBeVisible();
  await expect(row).toHaveCount(1);
});

test('a year of invoices to QuickBooks is one batch of several parts: each part, and all of them in a zip', async ({
  page,
}) => {
  test.slow();
  const finance = await apiAs(page.request, 'finance');
  // The year up to the day the newest invoice was issued (the list is ordered by period, so the first row is not
  // always the one issued last): the demo's year holds more invoices than QuickBooks Online imports from one file
  // (100).
  const all = await finance.get<InvoiceSummary[]>('/api/invoices?limit=500');
  expect(all.length).toBeLessThan(500);
  const day = all
    .map((invoice) => invoice.issuedAt.slice(0, 10))
    .sort()
    .at(-1)!;
  const from = new Date(Date.parse(`${day}T00:00:00Z`) - 365 * 86_400_000).toISOString().slice(0, 10);
  const issued = all.filter((invoice) => invoice.issuedAt.slice(0, 10) >= from && invoice.issuedAt.slice(0, 10) <= day);
  expect(issued.length).toBeGreaterThan(100);

  await signInAs(page, 'finance', '/accounting');
  await page.getByLabel('From').fill(from);
  await page.getByLabel('To').fill(day);
  await page.getByRole('combobox', { name: 'Format' }).click();
  await page.getByRole('option', { name: 'QuickBooks invoices' }).click();
  await page.getByRole('button', { name: 'Make Export' }).click();
  await expect(toast(page, 'made')).toBeVisible();

  const [batch] = await finance.get<AccountingExport[]>('/api/accounting/exports?limit=1');
  expect(batch).toMatchObject({ format: 'quickbooks-invoices', documentCount: issued.length });
  const parts = batch!.parts;
  expect(parts.length).toBeGreaterThan(1);
  expect(parts.map((part) => part.documentCount).reduce((a, b) => a + b, 0)).toBe(issued.length);
  expect(parts[0]!.documentCount).toBe(100);

  const row = page.getByTestId('export-row').filter({ hasText: batch!.number });
  await expect(row.getByTestId('export-files')).toHaveText(
    `in ${parts.length} parts: ${parts.map((part) => part.documentCount).join(' · ')}`,
  );
  await page.screenshot({ path: 'test-results/accounting-parts.png', fullPage: true });

  // Each part from the Download menu: its own file, holding the invoices the batch says.
  const menu = row.getByRole('button', { name: `Download ${batch!.number}: ${parts.length} parts` });
  await menu.click();
  for (const part of parts) {
    await expect(
      page.getByRole('menuitem', { name: `Part ${part.part} of ${parts.length} · ${part.documentCount} invoices` }),
    ).toBeVisible();
  }
  const last = parts[parts.length - 1]!;
  const [partDownload] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('menuitem', { name: new RegExp(`^Part ${last.part} of`) }).click(),
  ]);
  expect(partDownload.suggestedFilename()).toBe(last.fileName);
  const text = fs.readFileSync((await partDownload.path())!, 'utf8');
  expect(text.split('\r\n')[0]).toMatch(/^Invoice no\.,Customer,/);
  const numbers = new Set(
    text
      .trim()
      .split('\r\n')
      .slice(1)
      .map((line) => line.match(/^INV-\d{4}-\d+/)?.[0]),
  );
  expect(numbers.size).toBe(last.documentCount);

  // All of them in one zip: one entry per part, each the part's file.
  await menu.click();
  const [zipDownload] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('menuitem', { name: `All ${parts.length} parts (zip)` }).click(),
  ]);
  expect(zipDownload.suggestedFilename()).toBe(`${batch!.number}-quickbooks-invoices.zip`);
  const entries = unzipSync(new Uint8Array(fs.readFileSync((await zipDownload.path())!)));
  expect(Object.keys(entries)).toEqual(parts.map((part) => part.fileName));
  expect(Buffer.from(entries[last.fileName]!).toString('utf8')).toBe(text);
});

test('the Accounting screen fits a phone: each batch is a card with its Download button', async ({ page }) => {
  const finance = await apiAs(page.request, 'finance');
  const day = await newestInvoiceDay(page.request);
  const batches = await finance.get<AccountingExport[]>('/api/accounting/exports');
  if (!batches.some((b) => b.format === 'journal')) {
    await finance.post('/api/accounting/exports', { from: day, to: day, format: 'journal' });
  }
  await page.setViewportSize({ width: 360, height: 780 });
  await signInAs(page, 'finance', '/accounting');
  const cards = page.getByRole('list', { name: 'Accounting exports' }).getByTestId('export-row');
  await expect(cards.filter({ hasText: 'Journal' })).toHaveCount(1);
  await expect(cards.first().getByRole('button', { name: /^Download EXP-/ })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Make Export' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});
