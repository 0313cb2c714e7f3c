import type { Page } from '@playwright/test';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, expect, signInAs, test } from './fixtures';

/** Makes the customers screen ask the server again (a search), if it is still on screen. */
async function nextRequest(page: Page) {
  await page
    .getByLabel('Search customers')
    .fill('Holiday', { timeout: 5_000 })
    .catch(() => undefined);
}

test('a session that ends returns to the login screen, which says so, and signing in goes back', async ({
  page,
  request,
}) => {
  await signInAs(page, 'sales', '/customers');
  await expect(page.getByRole('heading', { name: 'Customers', exact: true })).toBeVisible();

  // The session is revoked elsewhere (here: signed out with its own token from another client).
  const token = await page.evaluate(() => localStorage.getItem('authToken'));
  const revoked = await request.post('/api/auth/logout', { headers: { Authorization: `Bearer ${token}` } });
  expect(revoked.ok()).toBeTruthy();

  // The next request answers 401 (a search here, unless a background refresh asks first): the login
  // screen, with the reason, on the same address.
  await nextRequest(page);
  await expect(page.getByRole('heading', { name: 'CRM Login' })).toBeVisible();
  await expect(page.getByText('Your session has ended, please sign in again')).toBeVisible();
  await expect(page).toHaveURL(/\/customers$/);

  await page.getByLabel('Email Address').fill(DEMO_ACCOUNTS.sales);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('heading', { name: 'Customers', exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/customers$/);

  // The notice is gone after signing in, and a deliberate log out does not show it.
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page.getByRole('heading', { name: 'CRM Login' })).toBeVisible();
  await expect(page.getByText('Your session has ended, please sign in again')).toHaveCount(0);
});

test('after a session ends, another account signing in starts on its own dashboard', async ({ page, request }) => {
  await signInAs(page, 'sales', '/customers');
  const token = await page.evaluate(() => localStorage.getItem('authToken'));
  await request.post('/api/auth/logout', { headers: { Authorization: `Bearer ${token}` } });
  await nextRequest(page);
  await expect(page.getByText('Your session has ended, please sign in again')).toBeVisible();

  await page.getByLabel('Email Address').fill(DEMO_ACCOUNTS.finance);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByTestId('role-badge')).toHaveText('Finance');
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
});

test('signing in at the login address goes to the dashboard, or to where its next parameter leads', async ({
  page,
}) => {
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'CRM Login' })).toBeVisible();
  await page.getByLabel('Email Address').fill(DEMO_ACCOUNTS.finance);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByTestId('role-badge')).toHaveText('Finance');
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
  await expect(page.getByText('Debug: Route not matching properly')).toHaveCount(0);

  // Signed in already, the login address (a bookmark) opens the dashboard too.
  await page.goto('/login');
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
  await expect(page.getByRole('heading', { name: 'Not Found' })).toHaveCount(0);

  // Signed out, a link to the login address that names where to go afterwards.
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page.getByRole('heading', { name: 'CRM Login' })).toBeVisible();
  await page.goto('/login?next=%2Fcustomers');
  await page.getByLabel('Email Address').fill(DEMO_ACCOUNTS.sales);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('heading', { name: 'Customers', exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/customers$/);

  // An unknown address still shows the not-found screen.
  await page.goto('/no-such-screen');
  await expect(page.getByRole('heading', { name: 'Not Found' })).toBeVisible();
});

test('a screen that fails to render shows a way back instead of a blank app', async ({ page }) => {
  // The customers list answers records the screen cannot read (no name, no e-mail).
  await page.route(
    (url) => url.pathname === '/api/customers',
    (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        headers: { 'X-Total-Count': '1' },
        body: '[{"id":"broken"}]',
      }),
  );
  page.on('pageerror', () => undefined);
  await signInAs(page, 'admin', '/customers');
  await expect(page.getByRole('heading', { name: 'Something went wrong' })).toBeVisible();
  // The layout stays: the sidebar and header still work.
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'User menu' })).toBeVisible();

  await page.getByRole('link', { name: 'Back to Dashboard' }).click();
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Something went wrong' })).toHaveCount(0);

  // Another screen from the sidebar renders normally too.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contracts' }).click();
  await expect(page.getByRole('heading', { name: 'Contracts', exact: true })).toBeVisible();
});
