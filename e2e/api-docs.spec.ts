import { expect, test } from './fixtures';

/**
 * The API reference at /api/docs (server/plugins/openapi.ts) renders in the browser under the app's own security
 * headers: Swagger UI's scripts run, it loads /api/docs/json, and it lists the operations, without a sign-in.
 */
test('the API reference lists the operations, with the permission each needs, signed out', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  // The document is generated on its first request (every route's schemas, a few seconds on a busy machine):
  // asked for first here, so the page's wait is for Swagger UI alone.
  expect((await request.get('/api/docs/json', { timeout: 60_000 })).ok()).toBe(true);

  const refused: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') refused.push(message.text());
  });
  page.on('pageerror', (error) => refused.push(error.message));

  await page.goto('/api/docs');
  await expect(page).toHaveTitle('AdCRM API reference');
  await expect(page.getByRole('heading', { name: /AdCRM API/ })).toBeVisible({ timeout: 45_000 });

  // The contracts module, its list operation among them.
  const list = page.locator('.opblock-get', { has: page.locator('[data-path="/api/contracts"]') });
  await expect(list).toBeVisible();
  await list.locator('.opblock-summary').click();
  await expect(list.getByText('Requires one of: contract:read:any, contract:read:own.')).toBeVisible();

  // A public one says so.
  const health = page.locator('.opblock-get', { has: page.locator('[data-path="/api/health"]') });
  await expect(health).toBeVisible();

  // Nothing was refused by the Content-Security-Policy, and no script failed.
  expect(refused).toEqual([]);
});
