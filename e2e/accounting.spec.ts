import fs from 'node:fs';
import type { AccountingExport, AccountingSettings } from '../shared/contracts/accounting-vocabulary';
import type { InvoiceSummary } from '../shared/contracts/invoices';
import { apiAs, expect, signInAs, test, toast } from './fixtures';

/**
 * The accounting export on the demo data (product.md section 16): an admin sets a code on the Settings
 * screen's "Accounting" tab; finance makes a Xero invoices batch, downloads it and finds it listed, and is
 * refused a second batch of the same range (nothing new); the screen fits a phone.
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
  await page.getByRole('button', { name: 'Save Account Codes' }).click();
  await expect(toast(page, 'Account codes saved')).toBeVisible();
  expect((await admin.get<AccountingSettings>('/api/accounting/settings')).taxAccount).toBe('2210');
  await page.reload();
  await expect(page.getByLabel('Sales tax')).toHaveValue('2210');
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
  await page.screenshot({ path: 'test-results/accounting-batch.png', fullPage: true });

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    row.getByRole('button', { name: `Download ${batch!.number}` }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`${batch!.number}-xero-invoices.csv`);
  const text = fs.readFileSync((await download.path())!, 'utf8');
  expect(text.split('\r\n')[0]).toMatch(/^\*ContactName,EmailAddress,\*InvoiceNumber,/);
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
