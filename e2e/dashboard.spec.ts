import { expect, expectFirstClientContractShown, signInAs, test } from './fixtures';

test('admins land on the admin dashboard with live figures', async ({ page }) => {
  await signInAs(page, 'admin');
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
  await expect(page.getByText('System Health')).toBeVisible();
  await expect(page.getByText('Excellent')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Recent Activity' })).toBeVisible();
  await page.getByRole('link', { name: 'Manage Users' }).click();
  await expect(page).toHaveURL(/\/users$/);
});

test('sales reps see their own recent contracts', async ({ page }) => {
  await signInAs(page, 'sales');
  await expect(page.getByRole('heading', { name: 'Welcome back, Jordan!' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'My Recent Contracts' })).toBeVisible();
  const rows = page.getByRole('list', { name: 'My recent contracts' }).getByRole('listitem');
  await expect(rows).toHaveCount(5);
  await page.getByRole('link', { name: 'New Contract' }).click();
  await expect(page).toHaveURL(/\/contracts\/new$/);
});

test('clients see their own contracts on the dashboard', async ({ page }) => {
  await signInAs(page, 'client');
  await expect(page.getByRole('heading', { name: 'Welcome, Chris!' })).toBeVisible();
  await expect(page.getByText('Account Status')).toBeVisible();
  await expectFirstClientContractShown(page);
});
