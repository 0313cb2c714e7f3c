import type { Locator } from '@playwright/test';
import { apiAs, choose, type DemoAccount, expect, signInAs, test, toast, unique } from './fixtures';

/** The fields of one item row of the package dialog. */
const itemRow = (dialog: Locator, n: number) => dialog.getByRole('group', { name: `Item ${n}` });

for (const account of ['finance', 'client'] as DemoAccount[]) {
  test(`${account} gets Access Denied on Packages`, async ({ page }) => {
    const listCalls: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/packages') listCalls.push(request.url());
    });
    await signInAs(page, account, '/packages');
    await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
    await expect(page.getByText("You don't have permission to manage packages")).toBeVisible();
    await expect(page.getByRole('button', { name: 'Create Package' })).toHaveCount(0);
    expect(listCalls, 'the list is not even requested').toEqual([]);
  });
}

test('the search box finds packages; cards show price and items', async ({ page }) => {
  await signInAs(page, 'sales', '/packages');
  await expect(page.getByRole('heading', { name: 'Packages', exact: true })).toBeVisible();
  await expect(page.getByTestId('packages-count')).toHaveText(/^\d+ packages$/);

  await page.getByLabel('Search packages').fill('blockbuster');
  await expect(page.getByTestId('packages-count')).toHaveText('1 package');
  const card = page.getByRole('article', { name: 'Seasonal Blockbuster' });
  await expect(card.getByTestId('package-price')).toHaveText('$4,200.00 / month');
  await expect(card).toContainText('built around the CTN movie special');
  const items = card.getByRole('list', { name: 'Items of Seasonal Blockbuster' }).getByRole('listitem');
  await expect(items).toHaveCount(4);
  await expect(items.nth(0)).toContainText('CTN Seasonal Movie Special × 1');
  await expect(items.nth(1)).toContainText('Holiday Pre-roll Video (15s) × 2');
  await expect(items.nth(1)).toContainText('Custom price$1,100.00');
  await expect(items.nth(1)).toContainText('Two creatives in rotation');
  await expect(items.nth(3)).toContainText('Social media shout-out × 1');
  await expect(items.nth(3)).toContainText('Custom');
  await expect(items.nth(3)).toContainText('$150.00');

  await page.getByLabel('Search packages').fill('no such package here');
  await expect(page.getByText('No packages match your search')).toBeVisible();
  await expect(page.getByTestId('packages-count')).toHaveText('0 packages');
});

test('sales creates a package after validation errors, edits it and deletes it', async ({ page }) => {
  const name = unique('Winter Wonderland Bundle');
  await signInAs(page, 'sales', '/packages');

  await test.step('the dialog shows the validation messages', async () => {
    await page.getByRole('button', { name: 'Create Package' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Package' });
    await expect(dialog.getByText('No items yet.')).toBeVisible();
    await dialog.getByRole('button', { name: 'Create Package' }).click();
    await expect(dialog.getByText('Package name is required')).toBeVisible();
    await expect(dialog.getByText('Price is required')).toBeVisible();

    await dialog.getByLabel('Package Name').fill(name);
    await dialog.getByLabel('Price ($)', { exact: true }).fill('-5');
    await dialog.getByRole('button', { name: 'Add Item' }).click();
    const first = itemRow(dialog, 1);
    await expect(first.getByLabel('Quantity')).toHaveValue('1');
    await choose(first, 'Product', 'Holiday Pre-roll Video (15s)');
    await first.getByLabel('Quantity').fill('0');
    await dialog.getByRole('button', { name: 'Create Package' }).click();
    await expect(dialog.getByText('Package name is required')).toBeHidden();
    await expect(dialog.getByText('Price must be positive')).toBeVisible();
    await expect(first.getByText('Quantity must be at least 1')).toBeVisible();
  });

  await test.step('valid input creates it; a row without product or name is left out', async () => {
    const dialog = page.getByRole('dialog', { name: 'Create Package' });
    await dialog.getByLabel('Price ($)', { exact: true }).fill('2750');
    await dialog.getByLabel('Description', { exact: true }).fill('Pre-roll plus a mascot visit.');
    const first = itemRow(dialog, 1);
    await first.getByLabel('Quantity').fill('2');
    await first.getByLabel('Custom Price ($)').fill('900');
    await first.getByLabel('Custom Description').fill('Two cuts of the spot');

    await dialog.getByRole('button', { name: 'Add Item' }).click();
    const second = itemRow(dialog, 2);
    await choose(second, 'Product', 'Custom item');
    // A custom item is only sent with its name, so a forgotten name is pointed out rather than dropped.
    await dialog.getByRole('button', { name: 'Create Package' }).click();
    await expect(second.getByText('Choose a product or enter a custom name')).toBeVisible();
    await expect(second.getByLabel('Custom Name')).toHaveAttribute('aria-invalid', 'true');
    await second.getByLabel('Custom Name').fill('Snowman mascot appearance');
    await second.getByLabel('Custom Price ($)').fill('250');
    await second.getByLabel('Notes').fill('Weekend before Christmas');

    await dialog.getByRole('button', { name: 'Add Item' }).click();
    await expect(itemRow(dialog, 3)).toBeVisible();

    const [request] = await Promise.all([
      page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/packages'),
      dialog.getByRole('button', { name: 'Create Package' }).click(),
    ]);
    const body = request.postDataJSON();
    expect(body).toMatchObject({ name, description: 'Pre-roll plus a mascot visit.', price: 2750 });
    expect(body.items).toHaveLength(2);
    expect(body.items[0]).toMatchObject({
      productName: null,
      quantity: 2,
      customPrice: 900,
      customDescription: 'Two cuts of the spot',
    });
    expect(body.items[0].productId).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.items[1]).toEqual({
      productId: null,
      productName: 'Snowman mascot appearance',
      quantity: 1,
      customPrice: 250,
      customDescription: null,
      notes: 'Weekend before Christmas',
    });
    await expect(toast(page, 'Package created')).toBeVisible();
    await expect(dialog).toBeHidden();
  });

  const card = page.getByRole('article', { name });

  await test.step('the card shows the package', async () => {
    await page.getByLabel('Search packages').fill(name);
    await expect(page.getByRole('article')).toHaveCount(1);
    await expect(card.getByTestId('package-price')).toHaveText('$2,750.00 / month');
    await expect(card).toContainText('Holiday Pre-roll Video (15s) × 2');
    await expect(card).toContainText('$900.00');
    await expect(card).toContainText('Snowman mascot appearance × 1');
    await expect(card).toContainText('Note: Weekend before Christmas');
  });

  await test.step('editing replaces the items', async () => {
    await card.getByRole('button', { name: `Edit ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Package' });
    await expect(dialog.getByLabel('Package Name')).toHaveValue(name);
    await expect(dialog.getByLabel('Price ($)', { exact: true })).toHaveValue('2750');
    await expect(itemRow(dialog, 1).getByLabel('Product')).toHaveText('Holiday Pre-roll Video (15s)');
    await expect(itemRow(dialog, 2).getByLabel('Custom Name')).toHaveValue('Snowman mascot appearance');

    await dialog.getByRole('button', { name: 'Remove item 1' }).click();
    await expect(itemRow(dialog, 2)).toHaveCount(0);
    await dialog.getByLabel('Price ($)', { exact: true }).fill('300');
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.method() === 'PUT' && new URL(r.url()).pathname.startsWith('/api/packages/')),
      dialog.getByRole('button', { name: 'Save Changes' }).click(),
    ]);
    const body = request.postDataJSON();
    expect(body.price).toBe(300);
    expect(body.items).toHaveLength(1);
    expect(body.items[0]).toMatchObject({ productName: 'Snowman mascot appearance' });
    await expect(toast(page, 'Package updated')).toBeVisible();
    await expect(card.getByTestId('package-price')).toHaveText('$300.00 / month');
    await expect(card).not.toContainText('Holiday Pre-roll Video');
  });

  await test.step('delete asks first', async () => {
    await card.getByRole('button', { name: `Delete ${name}` }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete package?' });
    await expect(confirm).toContainText(name);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(card).toBeVisible();
    await card.getByRole('button', { name: `Delete ${name}` }).click();
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(toast(page, 'Package deleted')).toBeVisible();
    await expect(card).toHaveCount(0);
  });
});

test('deleting a package that contracts use fails with the server message', async ({ page }) => {
  await signInAs(page, 'admin', '/packages');
  const card = page.getByRole('article', { name: 'Holiday Starter' });
  await card.getByRole('button', { name: 'Delete Holiday Starter' }).click();
  await page
    .getByRole('alertdialog', { name: 'Delete package?' })
    .getByRole('button', { name: 'Delete', exact: true })
    .click();
  const failure = toast(page, 'Failed to delete package');
  await expect(failure).toHaveAttribute('data-variant', 'destructive');
  await expect(failure).toContainText(/This package is used by \d+ contracts? and cannot be deleted/);
  await expect(card).toBeVisible();
});

test('creating a package whose product was removed meanwhile fails with the server message', async ({
  page,
  request,
}) => {
  const admin = await apiAs(request, 'admin');
  const productName = unique('Short-lived Tile');
  const product = await admin.post('/api/products', { name: productName, adType: 'in_category', defaultPrice: 75 });
  await signInAs(page, 'sales', '/packages');
  await page.getByRole('button', { name: 'Create Package' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Package' });
  await dialog.getByLabel('Package Name').fill(unique('Doomed Bundle'));
  await dialog.getByLabel('Price ($)', { exact: true }).fill('100');
  await dialog.getByRole('button', { name: 'Add Item' }).click();
  await choose(itemRow(dialog, 1), 'Product', productName);
  await admin.delete(`/api/products/${product.id}`);
  await dialog.getByRole('button', { name: 'Create Package' }).click();
  const failure = toast(page, 'Failed to create package');
  await expect(failure).toHaveAttribute('data-variant', 'destructive');
  await expect(failure).toContainText('Item 1: the chosen product does not exist');
  await expect(dialog).toBeVisible();
});

test('updating a package deleted meanwhile fails with the server message', async ({ page, request }) => {
  const admin = await apiAs(request, 'admin');
  const name = unique('Vanishing Bundle');
  const pkg = await admin.post('/api/packages', { name, price: 10, items: [] });
  await signInAs(page, 'sales_manager', '/packages');
  await page.getByLabel('Search packages').fill(name);
  await page.getByRole('button', { name: `Edit ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Package' });
  await dialog.getByLabel('Price ($)', { exact: true }).fill('20');
  await admin.delete(`/api/packages/${pkg.id}`);
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  const failure = toast(page, 'Failed to update package');
  await expect(failure).toHaveAttribute('data-variant', 'destructive');
  await expect(failure).toContainText('Package not found');
  await expect(dialog).toBeVisible();
});
