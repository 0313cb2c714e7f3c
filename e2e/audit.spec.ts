import { apiAs, choose, expect, signInAs, test, unique } from './fixtures';

test('admins read who changed what, field by field, filtered by record, user and date', async ({ page }) => {
  const admin = await apiAs(page.request, 'admin');
  const name = unique('Audit Bakery');
  const customer = await admin.post<{ id: string }>('/api/customers', {
    name,
    email: 'audit-bakery@example.test',
    city: 'Austin',
  });
  await admin.patch(`/api/customers/${customer.id}`, { city: 'Denver' });

  await signInAs(page, 'admin');
  await page.getByRole('link', { name: 'Audit Trail' }).click();
  await expect(page.getByRole('heading', { name: 'Audit Trail' })).toBeVisible();

  await choose(page, 'Entity', 'Customer');
  await page.getByLabel('Record id').fill(customer.id);
  await expect(page.getByTestId('audit-total')).toHaveText('2 events match the filters');
  const [updated, created] = [page.getByTestId('audit-event').first(), page.getByTestId('audit-event').nth(1)];
  // Each event in a sentence, its changes by field label beside it.
  await expect(updated.getByTestId('audit-summary')).toHaveText(`Customer "${name}" updated: City`);
  await expect(updated).toContainText('by Alex Morgan');
  const cityRow = updated.getByRole('row', { name: /City/ });
  await expect(cityRow).toContainText('Austin');
  await expect(cityRow).toContainText('Denver');
  await expect(created.getByTestId('audit-summary')).toHaveText(`Customer "${name}" created`);

  // By user and by date: nothing by this admin tomorrow.
  await choose(page, 'User', 'Alex Morgan');
  await expect(page.getByTestId('audit-total')).toHaveText('2 events match the filters');
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  await page.getByLabel('From').fill(tomorrow);
  await expect(page.getByText('No events match these filters')).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page.getByTestId('audit-total')).not.toContainText('match');

  // The record's name links to it.
  await page.getByLabel('Record id').fill(customer.id);
  await page.getByTestId('audit-event').first().getByRole('link', { name }).click();
  await expect(page).toHaveURL(new RegExp(`/customers/${customer.id}$`));
});

test('money reads as dollars: a payout approved for less than was requested', async ({ page }) => {
  const rep = await apiAs(page.request, 'sales');
  const finance = await apiAs(page.request, 'finance');
  const payout = await rep.post<{ id: string }>('/api/payouts/request', { requestedAmount: 1.5 });
  await finance.post(`/api/payouts/${payout.id}/approve`, { approvedAmount: 1.25 });

  await signInAs(page, 'admin', '/audit');
  await choose(page, 'Entity', 'Payout');
  await page.getByLabel('Record id').fill(payout.id);
  await expect(page.getByTestId('audit-total')).toHaveText('2 events match the filters');
  const approved = page.getByTestId('audit-event').first();
  await expect(approved.getByTestId('audit-summary')).toHaveText('Payout approved: $1.25 of $1.50 requested');
  await expect(approved.getByRole('row', { name: /^Approved/ })).toContainText('$1.25');
  await expect(approved.getByRole('row', { name: /^Requested/ })).toContainText('$1.50');
  await expect(approved).not.toContainText('approvedCents');
  await expect(page.getByTestId('audit-event').nth(1).getByTestId('audit-summary')).toHaveText(
    /^Payout requested: \$1\.50 of \$[\d,]+\.\d\d available$/,
  );
});

test('other roles are refused the audit trail', async ({ page }) => {
  await signInAs(page, 'sales_manager', '/audit');
  await expect(page.getByText("You don't have permission to view the audit trail")).toBeVisible();
  await expect(page.getByRole('link', { name: 'Audit Trail' })).toHaveCount(0);
});
