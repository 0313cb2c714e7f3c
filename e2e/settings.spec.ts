import { type Page, request } from '@playwright/test';
import {
  type Api,
  apiAs,
  currentBaseURL,
  DEMO_ACCOUNTS,
  expect,
  signInAs,
  signInWith,
  test,
  toast,
  unique,
} from './fixtures';

/**
 * Runs `fn` as the demo admin through the API, in a request context of its own (no session cookie is
 * shared with another sign-in).
 */
async function asAdmin<T>(fn: (api: Api) => Promise<T>): Promise<T> {
  const context = await request.newContext({ baseURL: currentBaseURL() });
  try {
    return await fn(await apiAs(context, 'admin'));
  } finally {
    await context.dispose();
  }
}

/** A fresh account made by the admin through the API, so tests that change a profile or password never touch a demo account. */
async function createFreshUser(role = 'sales') {
  const firstName = unique('Robin').replace(' ', '');
  const user = {
    firstName,
    lastName: 'Settings',
    email: `${firstName.toLowerCase()}@example.test`,
    password: 'first-pass1',
  };
  await asAdmin((api) => api.post('/api/users', { ...user, role, commissionRate: 0.05, isActive: true }));
  return user;
}

async function putSettings(path: string, data: unknown) {
  await asAdmin((api) => api.put(path, data));
}

const tabNames = (page: Page) => page.getByRole('tablist', { name: 'Settings sections' }).getByRole('tab');

test("admin sees ui-spec's five settings tabs, Company, Pipeline, API keys, Webhooks and Accounting", async ({
  page,
}) => {
  await signInAs(page, 'admin', '/settings');
  await expect(tabNames(page)).toHaveText([
    'Profile',
    'Security',
    'Notifications',
    'Tax Settings',
    'Contract Settings',
    'Company',
    'Pipeline',
    'API keys',
    'Webhooks',
    'Accounting',
  ]);
});

test('sales_manager sees three tabs and never loads the tax or contract settings', async ({ page }) => {
  const adminOnlyCalls: string[] = [];
  page.on('request', (sent) => {
    const { pathname } = new URL(sent.url());
    if (pathname === '/api/settings/tax' || pathname === '/api/settings/contracts') adminOnlyCalls.push(pathname);
  });
  await signInAs(page, 'sales_manager');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Settings', exact: true })).toBeVisible();
  await expect(tabNames(page)).toHaveText(['Profile', 'Security', 'Notifications']);
  await expect(page.getByRole('tab', { name: 'Tax Settings' })).toHaveCount(0);
  await expect(page.getByRole('tab', { name: 'Contract Settings' })).toHaveCount(0);
  // Asking for the tab in the address falls back to Profile.
  await page.goto('/settings?tab=tax');
  await expect(page.getByRole('tab', { name: 'Profile' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByLabel('First Name')).toHaveValue('Morgan');
  await page.getByRole('tab', { name: 'Notifications' }).click();
  await expect(page.getByRole('switch', { name: 'Contract updates' })).toBeVisible();
  expect(adminOnlyCalls).toEqual([]);
});

test('Profile: validation messages, save, the header follows, and a reload shows the saved values', async ({
  page,
}) => {
  const user = await createFreshUser();
  await signInWith(page, user.email, user.password, '/settings');
  await expect(page.getByRole('tab', { name: 'Profile' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByLabel('First Name')).toHaveValue(user.firstName);
  await expect(page.getByLabel('Last Name')).toHaveValue('Settings');
  await expect(page.getByLabel('Email')).toHaveValue(user.email);

  await page.getByLabel('First Name').fill('');
  await page.getByLabel('Last Name').fill('   ');
  await page.getByLabel('Email').fill('not-an-email');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('First name is required')).toBeVisible();
  await expect(page.getByText('Last name is required')).toBeVisible();
  await expect(page.getByText('Invalid email address')).toBeVisible();

  // Someone else's address is refused by the server, with its message.
  await page.getByLabel('First Name').fill('Robin');
  await page.getByLabel('Last Name').fill('Renamed');
  await page.getByLabel('Email').fill(DEMO_ACCOUNTS.sales);
  await page.getByRole('button', { name: 'Save Changes' }).click();
  const failure = toast(page, 'Update failed');
  await expect(failure).toBeVisible();
  await expect(failure).toHaveAttribute('data-variant', 'destructive');
  await expect(failure).toContainText('A user with this email already exists');

  const newEmail = `renamed.${user.email}`;
  await page.getByLabel('Email').fill(newEmail);
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(page, 'Profile updated')).toBeVisible();
  // The current user is refetched: the header shows the new name and address.
  const banner = page.getByRole('banner');
  await expect(banner).toContainText('Robin Renamed');
  await expect(banner).toContainText(newEmail);

  await page.reload();
  await expect(page.getByLabel('First Name')).toHaveValue('Robin');
  await expect(page.getByLabel('Last Name')).toHaveValue('Renamed');
  await expect(page.getByLabel('Email')).toHaveValue(newEmail);
});

test('Security: validation, a wrong current password fails, then the change works and the new password signs in', async ({
  page,
}) => {
  const user = await createFreshUser();
  await signInWith(page, user.email, user.password, '/settings');
  await page.getByRole('tab', { name: 'Security' }).click();
  await expect(page).toHaveURL(/\/settings\?tab=security$/);

  await page.getByRole('button', { name: 'Change Password' }).click();
  await expect(page.getByText('Current password is required')).toBeVisible();
  await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();
  await expect(page.getByText('Please confirm your password')).toBeVisible();

  await page.getByLabel('Current Password').fill(user.password);
  await page.getByLabel('New Password', { exact: true }).fill('second-pass2');
  await page.getByLabel('Confirm New Password').fill('something-else');
  await page.getByRole('button', { name: 'Change Password' }).click();
  const confirmField = page.getByLabel('Confirm New Password');
  await expect(confirmField).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText("Passwords don't match")).toBeVisible();

  await page.getByLabel('Current Password').fill('not-my-password');
  await confirmField.fill('second-pass2');
  await page.getByRole('button', { name: 'Change Password' }).click();
  const failure = toast(page, 'Password change failed');
  await expect(failure).toBeVisible();
  await expect(failure).toHaveAttribute('data-variant', 'destructive');
  await expect(failure).toContainText('Current password is incorrect');
  await expect(page.getByLabel('Current Password')).toHaveAttribute('aria-invalid', 'true');

  await page.getByLabel('Current Password').fill(user.password);
  await page.getByRole('button', { name: 'Change Password' }).click();
  await expect(toast(page, 'Password changed')).toBeVisible();
  await expect(page.getByLabel('Current Password')).toHaveValue('');
  await expect(page.getByLabel('New Password', { exact: true })).toHaveValue('');
  await expect(page.getByLabel('Confirm New Password')).toHaveValue('');

  // Log out, then sign in through the form: the old password fails, the new one works.
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page.getByRole('heading', { name: 'CRM Login' })).toBeVisible();
  await page.getByLabel('Email Address').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(toast(page, 'Login failed')).toBeVisible();
  await page.getByLabel('Password').fill('second-pass2');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('button', { name: 'User menu' })).toBeVisible();
  await expect(page.getByRole('banner')).toContainText(user.email);
});

test('Notifications: each switch saves at once, survives a reload, and rolls back on failure', async ({ page }) => {
  const user = await createFreshUser();
  await signInWith(page, user.email, user.password, '/settings?tab=notifications');
  const flag = (name: string) => page.getByRole('switch', { name });
  for (const name of [
    'Contract updates',
    'Payment notifications',
    'Commission alerts',
    'System maintenance',
    'Account security',
  ]) {
    await expect(flag(name)).toBeVisible();
  }
  await expect(flag('Contract updates')).toBeChecked();
  await expect(flag('System maintenance')).not.toBeChecked();

  const [put] = await Promise.all([
    page.waitForRequest((r) => r.method() === 'PUT' && r.url().endsWith('/api/settings/notifications')),
    flag('System maintenance').click(),
  ]);
  expect(Object.keys(put.postDataJSON()).sort(), 'all five flags are sent').toEqual([
    'emailAccountSecurity',
    'emailCommissionAlerts',
    'emailContractUpdates',
    'emailPaymentNotifications',
    'emailSystemMaintenance',
  ]);
  expect(put.postDataJSON()).toMatchObject({ emailSystemMaintenance: true, emailContractUpdates: true });
  await expect(toast(page, 'Notification preferences saved')).toBeVisible();
  await expect(flag('System maintenance')).toBeChecked();

  await flag('Contract updates').click();
  await expect(flag('Contract updates')).not.toBeChecked();
  await expect(toast(page, 'Notification preferences saved')).toBeVisible();

  await page.reload();
  await expect(flag('System maintenance')).toBeChecked();
  await expect(flag('Contract updates')).not.toBeChecked();
  await expect(flag('Account security')).toBeChecked();

  // A failed save puts the switch back.
  await page.route('**/api/settings/notifications', (route) =>
    route.request().method() === 'PUT'
      ? route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ message: 'Something went wrong', code: 'INTERNAL' }),
        })
      : route.continue(),
  );
  await flag('Account security').click();
  const failure = toast(page, 'Failed to update notification settings');
  await expect(failure).toBeVisible();
  await expect(failure).toHaveAttribute('data-variant', 'destructive');
  await expect(flag('Account security')).toBeChecked();
});

test.describe('business-wide settings (admin)', () => {
  // Other specs expect the defaults: put them back whatever happens here.
  test.afterEach(async () => {
    await putSettings('/api/settings/tax', { defaultTaxRate: 0, taxIncluded: false, taxLabel: 'Tax' });
    await putSettings('/api/settings/contracts', { pausePaymentsAfterExpiry: true, gracePeriodsEndOfDays: 7 });
  });

  test('Tax Settings: defaults, validation, save and reload', async ({ page }) => {
    await signInAs(page, 'admin', '/settings');
    await page.getByRole('tab', { name: 'Tax Settings' }).click();
    const rate = page.getByLabel('Default Tax Rate (%)');
    const label = page.getByLabel('Tax Label');
    const included = page.getByRole('switch', { name: 'Prices include tax' });
    await expect(rate).toHaveValue('0');
    await expect(rate).toHaveAttribute('step', '0.01');
    await expect(label).toHaveValue('Tax');
    await expect(included).not.toBeChecked();

    await rate.fill('100.5');
    await label.fill('');
    await page.getByRole('button', { name: 'Save Tax Settings' }).click();
    await expect(page.getByText('Tax rate cannot exceed 100%')).toBeVisible();
    await expect(page.getByText('Tax label is required')).toBeVisible();
    await rate.fill('-2');
    await page.getByRole('button', { name: 'Save Tax Settings' }).click();
    await expect(page.getByText('Tax rate cannot be negative')).toBeVisible();

    await rate.fill('8.25');
    await label.fill('Sales Tax');
    await included.click();
    await page.getByRole('button', { name: 'Save Tax Settings' }).click();
    await expect(toast(page, 'Tax settings saved')).toBeVisible();

    await page.reload();
    await expect(page.getByRole('tab', { name: 'Tax Settings' })).toHaveAttribute('aria-selected', 'true');
    await expect(rate).toHaveValue('8.25');
    await expect(label).toHaveValue('Sales Tax');
    await expect(included).toBeChecked();
  });

  test('Contract Settings: defaults, validation, save and reload', async ({ page }) => {
    await signInAs(page, 'admin', '/settings');
    await page.getByRole('tab', { name: 'Contract Settings' }).click();
    const pause = page.getByRole('switch', { name: 'Pause payments after expiry' });
    const grace = page.getByLabel('Grace Period (days)');
    await expect(pause).toBeChecked();
    await expect(grace).toHaveValue('7');

    await grace.fill('31');
    await page.getByRole('button', { name: 'Save Contract Settings' }).click();
    await expect(page.getByText('Grace period cannot exceed 30 days')).toBeVisible();
    await grace.fill('2.5');
    await page.getByRole('button', { name: 'Save Contract Settings' }).click();
    await expect(page.getByText('Grace period must be a whole number of days')).toBeVisible();

    await grace.fill('14');
    await pause.click();
    await page.getByRole('button', { name: 'Save Contract Settings' }).click();
    await expect(toast(page, 'Contract settings saved')).toBeVisible();

    await page.reload();
    await expect(page.getByRole('tab', { name: 'Contract Settings' })).toHaveAttribute('aria-selected', 'true');
    await expect(grace).toHaveValue('14');
    await expect(pause).not.toBeChecked();
  });

  test('a refused save shows the failure toast with the server message', async ({ page }) => {
    await page.route('**/api/settings/tax', (route) =>
      route.request().method() === 'PUT'
        ? route.fulfill({
            status: 503,
            contentType: 'application/json',
            body: JSON.stringify({ message: 'The database is not reachable', code: 'UNAVAILABLE' }),
          })
        : route.continue(),
    );
    await signInAs(page, 'admin', '/settings?tab=tax');
    await page.getByLabel('Tax Label').fill('VAT');
    await page.getByRole('button', { name: 'Save Tax Settings' }).click();
    const failure = toast(page, 'Failed to update tax settings');
    await expect(failure).toBeVisible();
    await expect(failure).toHaveAttribute('data-variant', 'destructive');
    await expect(failure).toContainText('The database is not reachable');
  });
});
