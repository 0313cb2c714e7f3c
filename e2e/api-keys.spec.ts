import { choose, expect, signInAs, test, toast, unique } from './fixtures';

/**
 * The Settings screen's "API keys" tab: an admin makes a key, sees its secret once, the key works against the
 * API, and once revoked it is refused at once.
 */
test('an admin makes a read-only key, uses it, and revokes it', async ({ page, request }) => {
  const name = unique('BI export');
  await signInAs(page, 'admin', '/settings?tab=api-keys');
  await expect(page.getByRole('tab', { name: 'API keys' })).toHaveAttribute('aria-selected', 'true');

  await page.getByRole('button', { name: 'New API Key' }).click();
  const dialog = page.getByRole('dialog', { name: 'New API Key' });
  await dialog.getByRole('button', { name: 'Create Key' }).click();
  await expect(dialog.getByText('Name is required')).toBeVisible();
  await dialog.getByLabel('Name').fill(name);
  await choose(dialog, 'Access', 'Read-only');
  await dialog.getByRole('button', { name: 'Create Key' }).click();

  const shown = page.getByRole('dialog', { name: 'Copy your new API key' });
  const secret = await shown.getByLabel('New API key').inputValue();
  expect(secret).toMatch(/^adcrm_[0-9A-Za-z]{38}$/);
  await page.screenshot({ path: 'test-results/api-key-created.png' });
  await shown.getByRole('button', { name: 'Done' }).click();

  const row = page.getByTestId('api-key-row').filter({ hasText: name });
  await expect(row).toContainText('Read-only');
  await expect(row).toContainText(`adcrm_…${secret.slice(-4)}`);
  await expect(row.getByRole('cell').nth(2)).toHaveText('Never');
  await expect(row).toContainText('Active');
  await expect(page.getByText(secret)).toHaveCount(0);

  const withKey = () => request.get('/api/contracts?limit=1', { headers: { authorization: `Bearer ${secret}` } });
  const used = await withKey();
  expect(used.status()).toBe(200);
  expect(used.headers()['ratelimit-limit']).toBeTruthy();

  await page.reload();
  await expect(row.getByRole('cell').nth(2)).toContainText(/^(just now|1 minute ago)from /);

  await row.getByRole('button', { name: `Revoke ${name}` }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke' }).click();
  await expect(toast(page, 'API key revoked')).toBeVisible();
  await expect(row).toContainText('Revoked');
  await expect(row.getByRole('button', { name: /Revoke/ })).toHaveCount(0);

  const refused = await withKey();
  expect(refused.status()).toBe(401);
  expect((await refused.json()).message).toBe('This API key has been revoked');
});

test('a sales manager has no API keys tab', async ({ page }) => {
  await signInAs(page, 'sales_manager', '/settings?tab=api-keys');
  await expect(page.getByRole('tab', { name: 'Profile' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tab', { name: 'API keys' })).toHaveCount(0);
});
