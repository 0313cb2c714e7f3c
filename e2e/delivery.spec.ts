import type { APIRequestContext } from '@playwright/test';
import type { DeliveryPeriod } from '@shared/contracts/delivery';
import { formatMonth } from '@shared/contracts/delivery-vocabulary';
import { productNamed } from './contracts-helpers';
import { apiAs, expect, signInAs, test, toast, unique } from './fixtures';

/**
 * Delivery and proof of performance (product.md section 12) as staff work with it: an active contract with a
 * CPM line, started two months ago, has two ended billed periods and a running one. Recording under-delivery
 * settles a period by the contract's remedy and locks it; the CSV import checks the whole file first.
 */

const CPM_PRODUCT = 'Pre-roll Impressions (15s, CPM)';
/** The product's name as a CSV field: it holds a comma, so it is quoted. */
const CPM_FIELD = `"${CPM_PRODUCT}"`;

const money = (amount: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(amount);

/** The first day of the month `months` from now (UTC), as YYYY-MM-DD. */
function monthStart(months: number): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + months, 1)).toISOString().slice(0, 10);
}

/** A customer of its own with an active contract of 100,000 impressions a month at $10 per 1,000. */
async function cpmContract(request: APIRequestContext, remedy: 'credit' | 'makegood') {
  const admin = await apiAs(request, 'admin');
  const name = unique('Delivery Cinemas');
  const customer = await admin.post<{ id: string }>('/api/customers', {
    name,
    email: `${name.toLowerCase().replaceAll(' ', '-')}@example.test`,
  });
  const product = await productNamed(admin, CPM_PRODUCT);
  const contract = await admin.post<{ id: string; status: string; lineItems: { id: string }[] }>('/api/contracts', {
    customerId: customer.id,
    startDate: monthStart(-2),
    termMonths: 12,
    paymentMode: 'portal',
    setupFee: 0,
    underDeliveryRemedy: remedy,
    description: unique('Delivery test'),
    makeActive: true,
    lineItems: [{ productId: product.id, quantity: 100, unitPrice: 10, discount: 0 }],
  });
  expect(contract.status).toBe('active');
  const delivery = () => admin.get<DeliveryPeriod[]>(`/api/contracts/${contract.id}/delivery?limit=50`);
  return { admin, contract, delivery };
}

test('recording under-delivery on an ended period settles it with a credit note and locks it', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const { admin, contract, delivery } = await cpmContract(request, 'credit');
  const lastMonth = formatMonth(monthStart(-1).slice(0, 7));
  const thisMonth = formatMonth(monthStart(0).slice(0, 7));

  await signInAs(page, 'admin', `/contracts/${contract.id}`);
  await expect(page.getByText('Under-delivery Remedy', { exact: true })).toBeVisible();
  const card = page.getByTestId('delivery-card');
  await expect(card).toContainText('Under-delivery is settled by: Credit note');
  await expect(card.getByTestId('delivery-line')).toContainText('100,000 impressions booked a month');
  const rows = card.getByTestId('delivery-row');
  await expect(rows).toHaveCount(3);
  // The running period cannot be recorded yet.
  await expect(rows.filter({ hasText: thisMonth })).toContainText('Period running until');
  await expect(card.getByRole('button', { name: `Record delivery of ${CPM_PRODUCT} for ${thisMonth}` })).toHaveCount(0);

  const record = card.getByRole('button', { name: `Record delivery of ${CPM_PRODUCT} for ${lastMonth}` });
  await record.click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('100,000 impressions booked');
  // The form checks the figures before sending them.
  await dialog.getByLabel('Impressions').fill('80k');
  await dialog.getByRole('button', { name: 'Record Delivery' }).click();
  await expect(dialog).toContainText('Impressions must be a whole number');
  await dialog.getByLabel('Impressions').fill('80000');
  await dialog.getByLabel('Clicks').fill('1600');
  await dialog.getByRole('button', { name: 'Record Delivery' }).click();
  await expect(toast(page, 'Delivery recorded')).toBeVisible();
  await expect(dialog).toBeHidden();

  const settled = rows.filter({ hasText: lastMonth });
  await expect(settled).toHaveAttribute('data-status', 'settled');
  // 20,000 impressions short, credited at the rate billed that period (in season or not) with the invoice's tax.
  const period = (await delivery()).find((p) => p.status === 'settled')!;
  expect(period).toMatchObject({ delivered: 80_000, clicks: 1_600, shortfall: 20_000, remedy: 'credit' });
  const credit = `Credit note ${period.creditNote!.number} ${money(period.creditNote!.amount)}`;
  await expect(settled).toContainText(credit);
  await expect(settled).toContainText('80.0%');
  await expect(settled).toContainText('1,600');
  await expect(record).toHaveCount(0);

  // The server refuses a change to the settled period.
  const refused = await request.put(`/api/contracts/${contract.id}/delivery/${period.lineId}/${period.month}`, {
    headers: admin.headers,
    data: { impressions: 100_000, clicks: null },
  });
  expect(refused.status()).toBe(409);

  // The invoice shows its proof of performance and the credit note.
  await settled.getByRole('button', { name: period.invoiceNumber }).click();
  const invoice = page.getByRole('dialog');
  await expect(invoice.getByTestId('proof-of-performance')).toContainText(credit);
  await expect(invoice.getByRole('table', { name: `Lines of ${period.invoiceNumber}` })).toContainText(
    '100,000 impressions booked',
  );
  await expect(invoice.getByTestId('invoice-credit-note')).toBeVisible();
});

test('a period delivered in full stays correctable; a makegood adds the shortfall to the next invoice', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const { contract } = await cpmContract(request, 'makegood');
  const twoMonthsAgo = formatMonth(monthStart(-2).slice(0, 7));
  const lastMonth = formatMonth(monthStart(-1).slice(0, 7));

  await signInAs(page, 'admin', `/contracts/${contract.id}`);
  const card = page.getByTestId('delivery-card');
  await expect(card).toContainText('Under-delivery is settled by: Makegood impressions');
  const rows = card.getByTestId('delivery-row');

  await card.getByRole('button', { name: `Record delivery of ${CPM_PRODUCT} for ${twoMonthsAgo}` }).click();
  let dialog = page.getByRole('dialog');
  await dialog.getByLabel('Impressions').fill('104000');
  await dialog.getByRole('button', { name: 'Record Delivery' }).click();
  await expect(dialog).toBeHidden();
  const full = rows.filter({ hasText: twoMonthsAgo });
  await expect(full).toContainText('Delivered in full');
  await expect(full).toContainText('104.0%');
  await expect(
    card.getByRole('button', { name: `Correct delivery of ${CPM_PRODUCT} for ${twoMonthsAgo}` }),
  ).toBeVisible();

  await card.getByRole('button', { name: `Record delivery of ${CPM_PRODUCT} for ${lastMonth}` }).click();
  dialog = page.getByRole('dialog');
  await dialog.getByLabel('Impressions').fill('75000');
  await dialog.getByRole('button', { name: 'Record Delivery' }).click();
  await expect(dialog).toBeHidden();
  const short = rows.filter({ hasText: lastMonth });
  await expect(short).toHaveAttribute('data-status', 'settled');
  await expect(short).toContainText(/Makegood: 25,000 impressions on (INV-\S+|the next invoice)/);
  await expect(card.getByRole('button', { name: new RegExp(`delivery of .* for ${lastMonth}`) })).toHaveCount(0);
});

test('the delivery import lists every bad row and applies nothing, then imports a good file once', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const { contract, delivery } = await cpmContract(request, 'credit');
  const month = monthStart(-2).slice(0, 7);
  const shortId = contract.id.slice(-8);
  const header = 'contract,line,month,impressions,clicks';
  const good = `${shortId},${CPM_FIELD},${month},100000,2500`;

  await signInAs(page, 'admin', '/contracts');
  await page.getByRole('button', { name: 'Import Delivery' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('contract,line,month,impressions,clicks');
  const file = dialog.getByLabel('CSV file');

  await file.setInputFiles({
    name: 'delivery.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(
      `${header}\n${good}\nnot-a-contract,${CPM_FIELD},${month},5,\n${shortId},${CPM_FIELD},${month},12.5,\n`,
    ),
  });
  await dialog.getByRole('button', { name: 'Import' }).click();
  const errors = dialog.getByTestId('import-errors');
  await expect(errors).toContainText('Row 3: Unknown contract not-a-contract');
  await expect(errors).toContainText('Row 4:');
  await expect(errors).toContainText('Nothing was imported');
  expect((await delivery()).every((p) => p.delivered === null)).toBe(true);

  await file.setInputFiles({ name: 'delivery.csv', mimeType: 'text/csv', buffer: Buffer.from(`${header}\n${good}\n`) });
  await expect(errors).toBeHidden();
  await dialog.getByRole('button', { name: 'Import' }).click();
  await expect(dialog.getByTestId('import-result')).toHaveText('1 row: 1 recorded, 0 unchanged; nothing to settle');
  const recorded = (await delivery()).find((p) => p.month === month)!;
  expect(recorded).toMatchObject({ delivered: 100_000, clicks: 2_500, status: 'delivered' });

  // The same file again changes nothing.
  await file.setInputFiles({ name: 'delivery.csv', mimeType: 'text/csv', buffer: Buffer.from(`${header}\n${good}\n`) });
  await dialog.getByRole('button', { name: 'Import' }).click();
  await expect(dialog.getByTestId('import-result')).toHaveText('1 row: 0 recorded, 1 unchanged; nothing to settle');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();
});
