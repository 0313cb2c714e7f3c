import type { ContractSummary } from '@shared/contracts/contract-responses';
import type {
  CustomerReceivable,
  ReceivableRow,
  ReceivablesOutlook,
  ReceivablesSummary,
} from '@shared/contracts/receivables';
import type { Report } from '@shared/contracts/reports';
import { apiAs, choose, expect, signInAs, test } from './fixtures';

/**
 * Receivables as finance works with it on the demo data (where dunning has left one never-paying customer at
 * each stage), the customer page's balance and New Contract, finance's dashboard cards, and the report's alert
 * links opening exactly the records they count. Expected figures are read from the API the screens use.
 */

const money = (amount: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(amount);

test('finance opens Receivables, reads the totals, filters by dunning stage and exports the rows as CSV', async ({
  page,
}) => {
  // Several screens in a row on a machine shared with other runs.
  test.slow();
  const finance = await apiAs(page.request, 'finance');
  const summary = await finance.get<ReceivablesSummary>('/api/receivables/summary');
  const firstPage = await finance.get<ReceivableRow[]>('/api/receivables?limit=25');
  expect(summary.customers).toBeGreaterThan(0);

  await signInAs(page, 'finance', '/');
  await page.getByRole('link', { name: 'Receivables', exact: true }).click();
  await expect(page).toHaveURL(/\/receivables$/);
  await expect(page.getByRole('heading', { name: 'Receivables', level: 1 })).toBeVisible();
  await expect(page.getByTestId('receivables-total')).toHaveText(money(summary.openBalance));
  await expect(page.getByTestId('receivables-overdue')).toHaveText(money(summary.overdue));
  await expect(page.getByTestId('bucket-90+')).toContainText(money(summary.aging['90+']));
  await expect(page.getByTestId('receivables-count')).toHaveText(
    `${summary.customers} ${summary.customers === 1 ? 'customer' : 'customers'}`,
  );
  const rows = page.getByTestId('receivable-row');
  await expect(rows).toHaveCount(firstPage.length);
  // Largest balance first, as the server orders them.
  await expect(rows.first()).toHaveAttribute('data-customer', firstPage[0].customerName);

  // The dunning stage filter: just the customers whose contract dunning paused. The demo leaves several; other
  // test files (dunning.spec.ts) pay one of them on the same server, so whichever is listed first is looked at.
  const paused = await finance.get<ReceivableRow[]>('/api/receivables?stage=contract_paused');
  expect(paused.length).toBeGreaterThan(0);
  const pausedOne = paused[0];
  await choose(page, 'Filter by dunning stage', 'Contract paused for non-payment');
  await expect(page).toHaveURL(/\?stage=contract_paused$/);
  await expect(rows).toHaveCount(paused.length);
  const row = rows.filter({ hasText: pausedOne.customerName });
  await expect(row.getByTestId('dunning-stage')).toHaveText('Contract paused for non-payment');
  await expect(row).toContainText(money(pausedOne.openBalance));

  // Export downloads the filtered rows, named with the business day.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export receivables as CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^receivables-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = Buffer.concat(await (await download.createReadStream()).toArray()).toString('utf8');
  const lines = text.split('\r\n').filter(Boolean);
  expect(lines[0]).toMatch(/^Customer,Company,Open Balance,Current,/);
  expect(lines.slice(1).map((line) => line.split(',')[0].replaceAll('"', ''))).toEqual(
    paused.map((r) => r.customerName),
  );

  // An aging card filters by its bucket; Clear filters shows everyone again.
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(rows).toHaveCount(firstPage.length);
  const old = await finance.get<ReceivableRow[]>('/api/receivables?bucket=90%2B');
  await page.getByTestId('bucket-90+').click();
  await expect(page).toHaveURL(/\?bucket=90%2B$/);
  await expect(rows).toHaveCount(old.length);
});

test("the customer page shows the customer's balance and open invoices, and New Contract starts a contract for it", async ({
  page,
}) => {
  // Several screens in a row on a machine shared with other runs.
  test.slow();
  const finance = await apiAs(page.request, 'finance');
  // A customer whose contract dunning paused (the demo leaves several; dunning.spec.ts pays one of them).
  const [row] = await finance.get<ReceivableRow[]>('/api/receivables?stage=contract_paused');
  const balance = await finance.get<CustomerReceivable>(`/api/receivables/customers/${row.customerId}`);

  // Finance follows the customer's link from Receivables.
  await signInAs(page, 'finance', '/receivables?stage=contract_paused');
  await page.getByRole('link', { name: row.customerName }).first().click();
  await expect(page).toHaveURL(new RegExp(`/customers/${row.customerId}$`));
  await expect(page.getByTestId('customer-open-balance')).toHaveText(money(balance.openBalance));
  await expect(page.getByTestId('customer-overdue')).toHaveText(money(balance.overdue));
  await expect(page.getByTestId('customer-credit-balance')).toHaveText(money(balance.creditBalance));
  const open = page.getByTestId('open-invoice-row');
  await expect(open).toHaveCount(balance.openInvoices.length);
  const first = balance.openInvoices[0];
  await expect(open.first()).toContainText(money(first.amountDue));
  await expect(open.first()).toContainText('Overdue');
  await open
    .first()
    .getByRole('button', { name: `Open invoice ${first.number}` })
    .click();
  await expect(page.getByRole('dialog').getByRole('heading', { name: new RegExp(first.number) })).toBeVisible();
  await page.keyboard.press('Escape');
  // Finance does not create contracts: no New Contract button for it.
  await expect(page.getByRole('link', { name: 'New Contract' })).toHaveCount(0);

  // A manager creates one from the customer's page: the form opens with the customer chosen.
  const customer = await finance.get<{ name: string; email: string }>(`/api/customers/${row.customerId}`);
  await signInAs(page, 'sales_manager', `/customers/${row.customerId}`);
  await expect(page.getByTestId('customer-open-balance')).toHaveText(money(balance.openBalance));
  await page.getByRole('link', { name: 'New Contract' }).click();
  await expect(page).toHaveURL(new RegExp(`/contracts/new\\?customerId=${row.customerId}$`));
  await expect(page.getByRole('combobox', { name: /Customer/ }).first()).toContainText(customer.name);
});

test("finance's Admin Dashboard adds A/R, Overdue, Cash this month and Expected next 30 days", async ({ page }) => {
  const outlook = await (await apiAs(page.request, 'finance')).get<ReceivablesOutlook>('/api/receivables/outlook');
  await signInAs(page, 'finance', '/');
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
  // ui-spec's cards stay.
  for (const label of ['Active Contracts', 'Monthly Revenue', 'System Health']) {
    await expect(page.getByText(label, { exact: true })).toBeVisible();
  }
  await expect(page.getByTestId('finance-ar')).toHaveText(money(outlook.openBalance));
  await expect(page.getByTestId('finance-overdue')).toHaveText(money(outlook.overdue));
  await expect(page.getByTestId('finance-cash')).toHaveText(money(outlook.cashThisMonth));
  await expect(page.getByTestId('finance-expected')).toHaveText(money(outlook.expectedNext30Days));
  await page.getByRole('link', { name: 'A/R: open Receivables' }).click();
  await expect(page).toHaveURL(/\/receivables$/);

  // Only finance gets them.
  await signInAs(page, 'admin', '/');
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
  await expect(page.getByText('Active Contracts', { exact: true })).toBeVisible();
  await expect(page.getByTestId('finance-ar')).toHaveCount(0);
});

test("the report's contract alerts open exactly the contracts they count", async ({ page }) => {
  // Several screens in a row on a machine shared with other runs.
  test.slow();
  const admin = await apiAs(page.request, 'admin');
  const report = await admin.get<Report>('/api/reports?range=current_month');
  expect(report.alerts.contractsPausedForNonPayment).toBeGreaterThan(0);

  await signInAs(page, 'admin', '/reports');
  await expect(page.getByTestId('alert-paused-non-payment')).toHaveText(
    String(report.alerts.contractsPausedForNonPayment),
  );
  await page.getByRole('link', { name: /Contracts paused for non-payment/ }).click();
  await expect(page).toHaveURL(/\/contracts\?reason=non_payment$/);
  await expect(page.getByRole('combobox', { name: 'Filter by pause reason' })).toHaveText('Paused for non-payment');
  // The status filter keeps ui-spec's options.
  await page.getByRole('combobox', { name: 'Filter by status' }).click();
  await expect(page.getByRole('option')).toHaveText([
    'All',
    'Draft',
    'Sent',
    'Active',
    'Paused',
    'Canceled',
    'Completed',
  ]);
  await page.keyboard.press('Escape');
  const n = report.alerts.contractsPausedForNonPayment;
  await expect(page.getByTestId('contracts-count')).toHaveText(
    `${n} ${n === 1 ? 'contract' : 'contracts'} paused for non-payment`,
  );
  await expect(page.getByRole('table').getByRole('row')).toHaveCount(n + 1);
  await expect(page.getByTestId('contract-pause-reason')).toHaveCount(n);

  await page.goto('/reports');
  const expiring = report.alerts.expiringContracts;
  await expect(page.getByTestId('alert-expiring')).toHaveText(String(expiring));
  await page.getByRole('link', { name: /Contracts expiring within 30 days/ }).click();
  await expect(page).toHaveURL(/\/contracts\?expiring=30$/);
  await expect(page.getByTestId('contracts-count')).toHaveText(
    `${expiring} ${expiring === 1 ? 'contract' : 'contracts'} ending within 30 days`,
  );
  const listed = await admin.get<ContractSummary[]>('/api/contracts?expiring=30&limit=100');
  expect(listed).toHaveLength(expiring);
});

test("the report's invoice and payout alerts open the overdue invoices and the pending payouts", async ({ page }) => {
  // Several screens in a row on a machine shared with other runs.
  test.slow();
  const admin = await apiAs(page.request, 'admin');
  const report = await admin.get<Report>('/api/reports?range=current_month');
  await signInAs(page, 'admin', '/reports');
  await expect(page.getByTestId('alert-overdue')).toHaveText(String(report.alerts.overdueInvoices));
  await page.getByRole('link', { name: /Overdue invoices/ }).click();
  await expect(page).toHaveURL(/\/invoices\?overdue=true$/);
  await expect(page.getByRole('switch', { name: 'Overdue only' })).toBeChecked();
  const overdue = await page.request.get('/api/invoices?overdue=true&limit=1', { headers: admin.headers });
  expect(Number(overdue.headers()['x-total-count'])).toBe(report.alerts.overdueInvoices);

  await page.goto('/reports');
  await page.getByRole('link', { name: /Payouts awaiting review/ }).click();
  await expect(page).toHaveURL(/\/payouts\?status=pending$/);
  await expect(page.getByRole('combobox', { name: 'Filter by status' })).toHaveText(/Pending/);
  const pending = await page.request.get('/api/payouts?status=pending&limit=1', { headers: admin.headers });
  expect(Number(pending.headers()['x-total-count'])).toBe(report.alerts.payoutsAwaitingReview);
});

test('Receivables fits a phone: each customer is a card with its balance and stage', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const firstPage = await (await apiAs(page.request, 'finance')).get<ReceivableRow[]>('/api/receivables?limit=25');
  await signInAs(page, 'finance', '/receivables');
  await expect(page.getByRole('heading', { name: 'Receivables', level: 1 })).toBeVisible();
  const cards = page.getByRole('list', { name: 'Receivables by customer' }).getByTestId('receivable-row');
  await expect(cards).toHaveCount(firstPage.length);
  await expect(cards.first()).toContainText(money(firstPage[0].openBalance));
  await expect(cards.first()).toContainText('Dunning stage');
  await expect(page.getByRole('button', { name: 'Export receivables as CSV' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
