import type { Report } from '@shared/contracts/reports';
import { apiAs, choose, expect, signInAs, test } from './fixtures';

const money = (amount: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(amount);

test('the Reports screen shows the computed figures, switches range and exports them as CSV', async ({ page }) => {
  const api = await apiAs(page.request, 'sales_manager');
  const current = await api.get<Report>('/api/reports?range=current_month');
  await signInAs(page, 'sales_manager', '/reports');

  await expect(page.getByRole('heading', { name: 'Reports', level: 1 })).toBeVisible();
  await expect(page.getByText(/^Current Month: /)).toBeVisible();
  // The chart is drawn (an SVG from the chart library) and its figures are readable as a table too.
  const chart = page.getByTestId('revenue-chart');
  await expect(chart.locator('svg.recharts-surface')).toBeVisible();
  await expect(chart.getByRole('table', { name: 'Revenue by month' }).getByRole('row')).toHaveCount(2);
  await expect(page.getByTestId('report-revenue')).toHaveText(money(current.revenue.total));
  await expect(page.getByTestId('status-count-active')).toHaveText(String(current.statusCounts.active));
  await expect(page.getByTestId('alert-overdue')).toHaveText(String(current.alerts.overdueInvoices));
  await expect(page.getByRole('heading', { name: 'Performance Alerts' })).toBeVisible();
  const top = page.getByRole('list', { name: 'Top products by billed revenue' });
  for (const product of current.topProducts) await expect(top).toContainText(product.name);
  // Delivery (product.md section 12): the rate of the range's CPM periods, or the empty line without any.
  await expect(page.getByRole('heading', { name: 'Delivery', exact: true })).toBeVisible();
  const { delivery } = current;
  if (delivery.periodsRecorded === 0 && delivery.creditsIssued === 0 && delivery.makegoodImpressions === 0) {
    await expect(page.getByTestId('delivery-empty')).toHaveText('No delivery recorded for this range.');
  } else {
    await expect(page.getByTestId('delivery-rate')).toHaveText(
      delivery.deliveryRate === null ? '—' : `${delivery.deliveryRate.toFixed(1)}%`,
    );
    await expect(page.getByTestId('delivery-periods')).toHaveText(String(delivery.periodsRecorded));
  }

  // Another range: the URL, the period and the months follow.
  await choose(page, 'Time range', 'Last 3 Months');
  await expect(page).toHaveURL(/\/reports\?range=last_3_months$/);
  await expect(page.getByText(/^Last 3 Months: /)).toBeVisible();
  const three = await api.get<Report>('/api/reports?range=last_3_months');
  await expect(chart.getByRole('table', { name: 'Revenue by month' }).getByRole('row')).toHaveCount(4);
  await expect(page.getByTestId('report-revenue')).toHaveText(money(three.revenue.total));
  await expect(chart.locator('.recharts-bar-rectangle')).toHaveCount(3);

  // Export downloads what is shown.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`report-last_3_months-${three.from}.csv`);
  const csv = await (await download.createReadStream()).toArray();
  const text = Buffer.concat(csv).toString('utf8');
  expect(text.split('\r\n')[0]).toBe('Section,Item,Value');
  expect(text).toContain('Report,Range,Last 3 Months');
  expect(text).toContain(`Revenue,Total,${three.revenue.total.toFixed(2)}`);
  for (const m of three.revenue.byMonth) expect(text).toContain(`Revenue by month,${m.month},${m.amount.toFixed(2)}`);
});

test('a sales rep sees a report of their own contracts, without performance alerts', async ({ page }) => {
  const api = await apiAs(page.request, 'sales');
  const own = await api.get<Report>('/api/reports?range=current_year');
  expect(own.scope).toBe('own');
  await signInAs(page, 'sales', '/reports?range=current_year');
  await expect(page.getByText(/^Current Year: .* · your contracts only$/)).toBeVisible();
  await expect(page.getByTestId('status-count-active')).toHaveText(String(own.statusCounts.active));
  await expect(page.getByTestId('report-revenue')).toHaveText(money(own.revenue.total));
  await expect(page.getByRole('heading', { name: 'Performance Alerts' })).toHaveCount(0);
});

test('the alerts link to the lists that show them; clients are refused', async ({ page }) => {
  await signInAs(page, 'admin', '/reports');
  await page
    .getByRole('link', { name: /Contract status|Active/ })
    .first()
    .waitFor();
  await page.getByRole('link', { name: /^Paused/ }).click();
  await expect(page).toHaveURL(/\/contracts\?status=paused$/);
  await expect(page.getByRole('combobox', { name: 'Filter by status' })).toHaveText(/Paused/);

  await signInAs(page, 'client', '/reports');
  await expect(page.getByText("You don't have permission to view reports")).toBeVisible();
});

test('the Reports screen fits a phone', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 800 });
  await signInAs(page, 'admin', '/reports');
  await expect(page.getByTestId('revenue-chart').locator('svg.recharts-surface')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});
