import type { Contract } from '@shared/contracts/contract-responses';
import { listContracts } from './contracts-helpers';
import { apiAs, choose, expect, signInAs, test, toast, unique } from './fixtures';

/** Today and yesterday as the server counts days (UTC), as yyyy-mm-dd. */
const isoDay = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

/** A calendar day plus whole months, clamped to the month's end (Jan 31 -> Feb 28). */
function plusMonths(day: string, months: number): string {
  const [y, m, d] = day.split('-').map(Number);
  const first = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  return new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), Math.min(d, last))).toISOString().slice(0, 10);
}
const usd = (dollars: number) => `$${dollars.toLocaleString('en-US', { minimumFractionDigits: 2 })}`;

test('a CPM and a flat-rate line: the form explains the one-time charge; once sent, a line is added and one ended', async ({
  page,
  request,
}) => {
  await signInAs(page, 'sales', '/contracts/new');
  await choose(page, 'Customer', /Holiday Lights Co\./);
  await choose(page, 'Payment Mode', /Pay-Link/);
  await page.getByLabel('Term (months)').fill('6');

  // A CPM line: the quantity is thousands of impressions a month (100k at $24.00 CPM).
  await choose(page, 'Product', /Pre-roll Impressions/);
  await expect(page.getByLabel('Unit Price ($)')).toHaveValue('24.00');
  await page.getByLabel('Quantity').fill('100');
  await expect(page.getByLabel('Line 1 total')).toHaveText('$2,400.00');
  // A flat-rate line: billed once, not every month.
  await page.getByRole('button', { name: 'Add Product' }).click();
  await choose(page, 'Product', /CTN Seasonal Movie Special/, 1);
  await expect(page.getByLabel('Unit Price ($)').nth(1)).toHaveValue('2500.00');

  // ui-spec's total keeps its formula (every line + package + setup fee) ...
  await expect(page.getByTestId('summary-total')).toContainText('$4,900.00');
  // ... and what it bills is worked out here, from today (the start date), 6 months: the CPM line at $24.00
  // ($32.00 in season, October to December) for 100 thousand impressions a month, the special once at $2,500.00
  // ($3,500.00 in season) on the first invoice.
  const start = isoDay(0);
  const inSeason = (day: string) => Number(day.slice(5, 7)) >= 10;
  const cpm = (day: string) => (inSeason(day) ? 3_200 : 2_400);
  const special = inSeason(start) ? 3_500 : 2_500;
  const value = [0, 1, 2, 3, 4, 5].reduce((sum, k) => sum + cpm(plusMonths(start, k)), special);
  const billing = page.getByTestId('summary-billing');
  await expect(billing.getByTestId('summary-first-invoice')).toContainText(usd(cpm(start) + special));
  await expect(billing.getByTestId('summary-monthly')).toContainText('$2,400.00 / month');
  await expect(billing.getByTestId('summary-seasonal')).toContainText('$3,200.00 / month');
  await expect(billing.getByTestId('summary-one-time')).toContainText('CTN Seasonal Movie Special');
  await expect(billing.getByTestId('summary-one-time')).toContainText(usd(special));
  await expect(billing.getByTestId('summary-value')).toContainText(usd(value));
  await expect(billing.getByTestId('summary-value')).toContainText('over the term');

  const description = unique('E2E CPM and flat');
  await page.getByLabel('Description').fill(description);
  await page.getByRole('button', { name: 'Create & Send Contract' }).click();
  await expect(toast(page, 'Contract created successfully')).toBeVisible();
  await expect(page).toHaveURL(/\/contracts$/);

  // Sent with its pay link: the lines are locked, and the contract is amended line by line instead.
  const api = await apiAs(request, 'sales');
  const summaryRow = (await listContracts(api)).find((c) => c.description === description)!;
  await page.goto(`/contracts/${summaryRow.id}`);
  await expect(page.getByText('Cannot edit - payment processing started')).toBeVisible();
  const lines = page.getByRole('table', { name: 'Line items' });
  await expect(lines).toContainText('CPM (thousands of impressions a month)');
  await expect(lines).toContainText('Flat Rate, billed once');
  // The contract page says the same as the form did (the demo business charges no tax).
  const figures = page.getByTestId('billing-figures');
  await expect(figures.getByTestId('first-invoice')).toContainText(usd(cpm(start) + special));
  await expect(figures.getByTestId('monthly-amount')).toContainText('$2,400.00 / month');
  await expect(figures.getByTestId('one-time-charge')).toContainText(`${usd(special)} one-time`);
  await expect(figures.getByTestId('term-value')).toContainText(usd(value));

  await test.step('Add Line: refused in the past, then added from today', async () => {
    await page.getByRole('button', { name: 'Add Line' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a line' });
    await choose(dialog, 'Product', /Timed QR Code/);
    await expect(dialog.getByLabel('Unit Price ($)')).toHaveValue('350.00');
    await dialog.getByLabel('Flight Start').fill(isoDay(-1));
    await dialog.getByRole('button', { name: 'Add Line' }).click();
    await expect(dialog.getByText('An amendment cannot start in the past')).toBeVisible();
    expect((await api.get<Contract>(`/api/contracts/${summaryRow.id}`)).lineItems).toHaveLength(2);

    await dialog.getByLabel('Flight Start').fill('');
    await dialog.getByRole('button', { name: 'Add Line' }).click();
    await expect(toast(page, 'Line added')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(lines).toContainText('Timed QR Code Placement');
    const after = await api.get<Contract>(`/api/contracts/${summaryRow.id}`);
    const added = after.lineItems.find((l) => l.product.name === 'Timed QR Code Placement')!;
    expect(added).toMatchObject({ priceMetric: 'monthly', unitPrice: 350, flightStart: isoDay(0), flightEnd: null });
    expect(after.monthlyAmount).toBe(2750);
    await expect(page.getByTestId('monthly-amount')).toContainText('$2,750.00 / month');
  });

  await test.step('End: the line bills through today and cannot be ended again', async () => {
    await page.getByRole('button', { name: 'End Timed QR Code Placement' }).click();
    const dialog = page.getByRole('dialog', { name: 'End Timed QR Code Placement?' });
    await dialog.getByRole('button', { name: 'End Line' }).click();
    await expect(toast(page, 'Line ended')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(lines.getByText('Ends today')).toBeVisible();
    await expect(page.getByRole('button', { name: 'End Timed QR Code Placement' })).toHaveCount(0);
    const after = await api.get<Contract>(`/api/contracts/${summaryRow.id}`);
    expect(after.lineItems.find((l) => l.product.name === 'Timed QR Code Placement')?.flightEnd).toBe(isoDay(0));
    // An ended line leaves the monthly amount at once.
    expect(after.monthlyAmount).toBe(2400);
    await expect(page.getByTestId('monthly-amount')).toContainText('$2,400.00 / month');
  });
});
