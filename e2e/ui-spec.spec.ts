import { choose, expect, signInAs, test, toasts } from './fixtures';

/**
 * ui-spec.md details that no feature's own browser test pins: F8 from the first moment of a page, the
 * contract form's busy label and term validation, and the "my" list of the sales view.
 */

test('F8 focuses the notifications region right after a page has loaded, signed out and signed in', async ({
  page,
}) => {
  await page.goto('/');
  await page.keyboard.press('F8');
  await expect(toasts(page).locator('ol')).toBeFocused();
  // The login screen does not take the focus back to its e-mail field once it has painted.
  await expect(page.getByLabel('Email Address')).toBeVisible();
  await expect(toasts(page).locator('ol')).toBeFocused();

  await signInAs(page, 'admin', '/contracts');
  await page.reload();
  await page.keyboard.press('F8');
  await expect(toasts(page).locator('ol')).toBeFocused();
});

test('the login screen still starts in the e-mail field', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByLabel('Email Address')).toBeFocused();
});

test('the contract form: "No Package" by default, the term rule, and "Creating..." while it saves', async ({
  page,
}) => {
  await signInAs(page, 'sales', '/contracts/new');
  await expect(page.getByRole('combobox', { name: 'Package' })).toHaveText('No Package');
  await page.getByLabel('Term (months)').fill('0');
  await page.getByRole('button', { name: 'Create & Send Contract' }).click();
  await expect(page.getByText('Term must be at least 1 month')).toBeVisible();

  await choose(page, 'Customer', /Holiday Lights Co\./);
  await choose(page, 'Payment Mode', /Client Portal/);
  await page.getByLabel('Term (months)').fill('3');
  await choose(page, 'Product', /Homepage Banner/);
  await page.getByRole('switch', { name: 'Send to customer immediately' }).click();
  await expect(page.getByRole('button', { name: 'Save as Draft' })).toBeVisible();

  // Hold the create call, to see the busy label.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/contracts', async (route) => {
    if (route.request().method() === 'POST') await held;
    await route.continue();
  });
  await page.getByRole('button', { name: 'Save as Draft' }).click();
  await expect(page.getByRole('button', { name: 'Creating...' })).toBeDisabled();
  release();
  await expect(toasts(page).getByText('Contract created successfully')).toBeVisible();
  await expect(toasts(page).getByText(/saved as a draft/)).toBeVisible();
  await expect(page).toHaveURL(/\/contracts$/);
});

test('the sales view\'s "my" list: GET /api/contracts/my answers the rep\'s own contracts only', async ({ page }) => {
  await signInAs(page, 'sales2', '/');
  const mine = await page.request.get('/api/contracts/my?limit=100');
  expect(mine.ok()).toBeTruthy();
  const all = await page.request.get('/api/contracts?mine=true&limit=100');
  const ids = (response: typeof mine) => response.json().then((rows: { id: string }[]) => rows.map((r) => r.id));
  expect(await ids(mine)).toEqual(await ids(all));
  expect(Number(mine.headers()['x-total-count'])).toBeGreaterThan(0);
});
