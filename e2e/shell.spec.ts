import { DEMO_ACCOUNTS, type DemoAccount, expect, signInAs, signInThroughForm, test, toasts } from './fixtures';

const SIDEBAR: Record<string, string[]> = {
  super_admin: [
    'Dashboard',
    'Contracts',
    'Customers',
    'Products',
    'Packages',
    'Users',
    'Reports',
    'Commissions',
    'Settings',
  ],
  admin: ['Dashboard', 'Contracts', 'Customers', 'Products', 'Packages', 'Users', 'Reports', 'Commissions', 'Settings'],
  sales_manager: ['Dashboard', 'Contracts', 'Customers', 'Users', 'Reports', 'Settings'],
  sales: ['Dashboard', 'Contracts', 'Customers', 'Products', 'Packages', 'Commissions'],
  finance: ['Dashboard', 'Contracts', 'Customers'],
  client: ['Dashboard', 'Contracts', 'Customers', 'Client Portal'],
};
const ALL_ENTRIES = [
  'Dashboard',
  'Contracts',
  'Customers',
  'Products',
  'Packages',
  'Users',
  'Reports',
  'Commissions',
  'Client Portal',
  'Settings',
];

test('the login screen has its texts and refuses a wrong password', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'CRM Login' })).toBeVisible();
  await expect(page.getByText('Sign in to manage your advertising campaigns')).toBeVisible();
  await expect(page.getByText('Need access? Contact your administrator.')).toBeVisible();

  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('Please enter a valid email address')).toBeVisible();
  await expect(page.getByText('Password is required')).toBeVisible();

  await page.getByLabel('Email Address').fill(DEMO_ACCOUNTS.admin);
  await page.getByLabel('Password').fill('wrong-password');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(toasts(page).getByText('Login failed')).toBeVisible();
  await expect(toasts(page).getByText('Invalid email or password')).toBeVisible();
});

for (const role of Object.keys(SIDEBAR) as DemoAccount[]) {
  test(`${role} signs in, sees their sidebar, and logs out`, async ({ page }) => {
    await signInThroughForm(page, role);
    await expect(toasts(page).getByText('Login successful')).toBeVisible();
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const entry of ALL_ENTRIES) {
      const link = nav.getByRole('link', { name: entry, exact: true });
      if (SIDEBAR[role].includes(entry)) await expect(link, `${role} sees ${entry}`).toBeVisible();
      else await expect(link, `${role} does not see ${entry}`).toHaveCount(0);
    }
    await expect(page.getByRole('banner').getByText(DEMO_ACCOUNTS[role])).toBeVisible();

    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await expect(page.getByRole('heading', { name: 'CRM Login' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeNull();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'CRM Login' })).toBeVisible();
  });
}

test('an unknown path shows the Not Found screen', async ({ page }) => {
  await signInAs(page, 'admin', '/no/such/page');
  await expect(page.getByRole('heading', { name: 'Not Found' })).toBeVisible();
  await expect(page.getByText('Current path:')).toContainText('/no/such/page');
  await expect(page.getByText('Debug: Route not matching properly')).toBeVisible();
});

test('the payment success page is public', async ({ page }) => {
  await page.goto('/payment/success?contract=abc123');
  await expect(page.getByRole('heading', { name: 'Payment Successful' })).toBeVisible();
  await expect(page.getByText('abc123')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Return to Dashboard' })).toHaveAttribute('href', '/');
});

test('the client portal is for client accounts only', async ({ page }) => {
  await signInAs(page, 'sales', '/portal');
  await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
  await expect(page.getByText('This portal is only available for client accounts')).toBeVisible();
});
