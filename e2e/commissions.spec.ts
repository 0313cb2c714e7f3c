import { formatAmount } from '../shared/money';
import { apiAs, choose, expect, signInAs, test, toast } from './fixtures';

/**
 * Commissions and payouts as reps and finance use them. The second demo rep (sales2, Taylor Nguyen) makes
 * the requests, so the first rep's figures stay as the demo made them; figures are read from the API,
 * since other tests change them too.
 */

type Summary = { available: number; requested: number; pending: number; disbursed: number; total: number };
const cents = (amount: number) => Math.round(amount * 100);

test('a sales rep requests a payout; above the available amount submit is disabled', async ({ page, request }) => {
  const rep = await apiAs(request, 'sales2');
  const before = await rep.get<Summary>('/api/commissions/summary');
  expect(before.available, 'the demo rep has commission to request').toBeGreaterThan(20);

  await signInAs(page, 'sales2', '/commissions');
  await expect(page.getByRole('heading', { name: 'Commissions', exact: true })).toBeVisible();
  await expect(page.getByTestId('summary-available')).toContainText(formatAmount(before.available));
  await expect(page.getByTestId('summary-requested')).toContainText(formatAmount(before.requested));
  await expect(page.getByTestId('summary-disbursed')).toContainText(formatAmount(before.disbursed));

  await page.getByRole('button', { name: 'Request Payout' }).click();
  const dialog = page.getByRole('dialog', { name: 'Request Payout' });
  const amount = dialog.getByLabel('Amount ($)');
  const submit = dialog.getByRole('button', { name: 'Request Payout' });
  await expect(amount).toHaveAttribute('max', String(before.available));

  await submit.click();
  await expect(dialog.getByText('Amount is required')).toBeVisible();

  await amount.fill((before.available + 0.01).toFixed(2));
  await expect(dialog.getByText('Amount cannot exceed available commission')).toBeVisible();
  await expect(submit).toBeDisabled();

  await amount.fill('12.34');
  await expect(dialog.getByText('Amount cannot exceed available commission')).toHaveCount(0);
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(toast(page, 'Payout requested')).toBeVisible();
  await expect(dialog).toBeHidden();

  const after = await rep.get<Summary>('/api/commissions/summary');
  expect(cents(after.available)).toBe(cents(before.available) - 1234);
  expect(cents(after.requested)).toBe(cents(before.requested) + 1234);
  await expect(page.getByTestId('summary-available')).toContainText(formatAmount(after.available));
  await expect(page.getByTestId('summary-requested')).toContainText(formatAmount(after.requested));
  const newest = page.getByTestId('recent-payout').first();
  await expect(newest).toContainText('$12.34');
  await expect(newest).toContainText('Pending');

  // The history filtered to Requested shows only requested commission.
  await choose(page, 'Filter by status', 'Requested');
  const rows = page.getByTestId('commission-row');
  // The previous page stays on screen until the filtered one arrives: wait for it, then read every row.
  await expect(rows.filter({ hasNotText: 'Requested' })).toHaveCount(0);
  await expect(rows.first()).toBeVisible();
  for (const text of await rows.allInnerTexts()) expect(text).toContain('Requested');
});

test('finance approves a payout for less, then marks it disbursed; the rep is notified', async ({ page, request }) => {
  const rep = await apiAs(request, 'sales2');
  const payout = await rep.post<{ id: string }>('/api/payouts/request', { requestedAmount: 20 });
  const before = await rep.get<Summary>('/api/commissions/summary');

  await signInAs(page, 'finance', '/');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Payouts' }).click();
  await expect(page.getByRole('heading', { name: 'Payouts', exact: true })).toBeVisible();
  const row = page.locator(`[data-payout-id="${payout.id}"]`);
  await expect(row).toContainText('Taylor Nguyen');
  await expect(row).toContainText('$20.00');
  await expect(row).toContainText('Pending');

  await test.step('approve $15.50 of $20.00', async () => {
    await row.getByRole('button', { name: 'Approve' }).click();
    const dialog = page.getByRole('dialog', { name: 'Approve payout?' });
    const amount = dialog.getByLabel('Approved amount ($)');
    await expect(amount).toHaveValue('20.00');
    await amount.fill('25');
    await expect(dialog.getByText('Approved amount cannot exceed the requested amount')).toBeVisible();
    await amount.fill('15.50');
    await expect(dialog.getByText('$4.50 returns to available')).toBeVisible();
    await dialog.getByRole('button', { name: 'Approve Payout' }).click();
    await expect(toast(page, 'Payout approved')).toBeVisible();
    await expect(row).toContainText('Approved');
    await expect(row).toContainText('$15.50');
    const approved = await rep.get<Summary>('/api/commissions/summary');
    expect(cents(approved.available)).toBe(cents(before.available) + 450);
    expect(cents(approved.requested)).toBe(cents(before.requested) - 450);
  });

  await test.step('mark it disbursed, after confirming', async () => {
    await row.getByRole('button', { name: 'Mark Disbursed' }).click();
    const confirm = page.getByRole('dialog', { name: 'Mark payout disbursed?' });
    await expect(confirm).toContainText('$15.50');
    await confirm.getByRole('button', { name: 'Mark Disbursed' }).click();
    await expect(toast(page, 'Payout disbursed')).toBeVisible();
    // No longer open: it leaves the default filter, and shows under Disbursed.
    await expect(row).toHaveCount(0);
    await choose(page, 'Filter by status', 'Disbursed');
    await expect(row).toContainText('Disbursed');
    const paid = await rep.get<Summary>('/api/commissions/summary');
    expect(cents(paid.disbursed)).toBe(cents(before.disbursed) + 1550);
    expect(cents(paid.available) + cents(paid.requested) + cents(paid.disbursed)).toBe(cents(paid.total));
  });

  const notes = await rep.get<{ items: { title: string }[] }>('/api/notifications');
  expect(notes.items.map((n) => n.title)).toEqual(expect.arrayContaining(['Payout approved', 'Payout disbursed']));
});

test('finance rejects a payout with a reason; all of it returns to available', async ({ page, request }) => {
  const rep = await apiAs(request, 'sales2');
  const payout = await rep.post<{ id: string }>('/api/payouts/request', { requestedAmount: 3.21 });
  const before = await rep.get<Summary>('/api/commissions/summary');

  await signInAs(page, 'finance', '/payouts');
  const row = page.locator(`[data-payout-id="${payout.id}"]`);
  await row.getByRole('button', { name: 'Reject' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reject payout?' });
  await dialog.getByRole('button', { name: 'Reject Payout' }).click();
  await expect(dialog.getByText('Please give a reason for rejecting the payout')).toBeVisible();
  await dialog.getByLabel('Reason').fill('Please split it by quarter');
  await dialog.getByRole('button', { name: 'Reject Payout' }).click();
  await expect(toast(page, 'Payout rejected')).toBeVisible();
  await expect(row).toHaveCount(0);

  const after = await rep.get<Summary>('/api/commissions/summary');
  expect(cents(after.available)).toBe(cents(before.available) + 321);
  expect(cents(after.requested)).toBe(cents(before.requested) - 321);
});

test('admins see every rep with a rep filter and export the filtered history as CSV', async ({ page }) => {
  await signInAs(page, 'admin', '/commissions');
  await expect(page.getByRole('button', { name: 'Request Payout' })).toHaveCount(0);
  await choose(page, 'Sales rep', 'Jordan Blake');
  await choose(page, 'Filter by status', 'Disbursed');
  // The filtered list is on screen (only Jordan's disbursed entries) before its count is read.
  const rows = page.getByTestId('commission-row');
  await expect(rows.first()).toBeVisible();
  await expect(rows.filter({ hasNotText: 'Disbursed' })).toHaveCount(0);
  await expect(page.getByTestId('history-count')).toContainText(/\d+ entr/);
  const shown = Number(((await page.getByTestId('history-count').textContent()) ?? '').match(/\d+/)![0]);
  expect(shown).toBeGreaterThan(0);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^commissions-disbursed-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = await (await download.createReadStream()).toArray();
  const lines = Buffer.concat(text).toString('utf8').trim().split('\r\n');
  expect(lines[0]).toBe('Date,Sales Rep,Contract,Contract Title,Customer,Invoice,Rate (%),Amount,Status');
  expect(lines).toHaveLength(shown + 1);
  for (const line of lines.slice(1)) {
    expect(line).toContain('Jordan Blake');
    expect(line.endsWith(',Disbursed')).toBe(true);
  }
});

test('the sales dashboard shows the commission figures and links to the Commissions screen', async ({
  page,
  request,
}) => {
  const summary = await (await apiAs(request, 'sales')).get<Summary & { thisMonth: number }>(
    '/api/commissions/summary',
  );
  await signInAs(page, 'sales', '/');
  await expect(page.getByText('Available Commission')).toBeVisible();
  const tracker = page.getByTestId('commission-tracker');
  await expect(tracker).toContainText(`Available${formatAmount(summary.available)}`);
  await expect(tracker).toContainText(`Pending${formatAmount(summary.pending)}`);
  await expect(tracker).toContainText(`Total Earned${formatAmount(summary.total)}`);
  await page.getByRole('link', { name: 'View All Commissions' }).click();
  await expect(page).toHaveURL(/\/commissions$/);
  await expect(page.getByRole('button', { name: 'Request Payout' })).toBeVisible();
});
