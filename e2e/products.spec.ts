import { apiAs, choose, expect, signInAs, signInWith, test, toast, unique } from './fixtures';

test('a client gets Access Denied on Products', async ({ page }) => {
  const listCalls: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/products') listCalls.push(request.url());
  });
  await signInAs(page, 'client', '/products');
  await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
  await expect(page.getByText("You don't have permission to view products")).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add Product' })).toHaveCount(0);
  expect(listCalls, 'the list is not even requested').toEqual([]);
});

test('sales sees the catalog read-only: prices, seasonal prices, durations and inventory', async ({ page }) => {
  await signInAs(page, 'sales', '/products');
  await expect(page.getByRole('heading', { name: 'Products', exact: true })).toBeVisible();
  await expect(page.getByTestId('products-count')).toHaveText(/^\d+ products$/);
  await expect(page.getByRole('button', { name: 'Add Product' })).toHaveCount(0);

  const ctn = page.getByRole('article', { name: 'CTN Seasonal Movie Special' });
  await expect(ctn).toContainText('CTN Seasonal Movie Special');
  await expect(ctn.getByTestId('product-price')).toHaveText('$2,500.00 Flat Rate');
  await expect(ctn).toContainText('Seasonal (Oct–Dec): $3,500.00');
  await expect(ctn).toContainText('45 days');
  await expect(ctn).toContainText('Inventory required');
  await expect(ctn.getByRole('button')).toHaveCount(0);

  const preRoll = page.getByRole('article', { name: 'Holiday Pre-roll Video (15s)' });
  await expect(preRoll).toContainText('Pre-roll Video Ad');
  await expect(preRoll.getByTestId('product-price')).toHaveText('$1,200.00 / Per Month');
  await expect(preRoll).not.toContainText('Inventory required');

  const overlay = page.getByRole('article', { name: 'Lower-third Overlay' });
  await expect(overlay.getByTestId('product-price')).toHaveText('$18.50 CPM');
  await expect(overlay).toContainText('per 1000 impressions');

  await expect(page.getByRole('article', { name: 'Skyscraper Banner (160x600)' })).toContainText('Archived');
});

test('search and filters run on the server', async ({ page }) => {
  await signInAs(page, 'admin', '/products');
  const count = page.getByTestId('products-count');
  await expect(count).toHaveText(/^\d+ products$/);

  await test.step('search matches the ad type label', async () => {
    await page.getByLabel('Search products').fill('pre-roll video ad');
    await expect(page.getByRole('article', { name: 'Holiday Pre-roll Video (15s)' })).toBeVisible();
    await expect(page.getByRole('article').filter({ hasNotText: 'Pre-roll Video Ad' })).toHaveCount(0);
  });

  await test.step('search matches the description', async () => {
    await page.getByLabel('Search products').fill('credits roll');
    await expect(count).toHaveText('1 product');
    await expect(page.getByRole('article', { name: 'Post-roll Video Tag' })).toBeVisible();
    await page.getByLabel('Search products').fill('nothing like this exists');
    await expect(page.getByText('No products match your search')).toBeVisible();
    await page.getByLabel('Search products').fill('');
  });

  await test.step('the status filter shows archived products', async () => {
    const requests: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/products') requests.push(new URL(r.url()).search);
    });
    await page.getByRole('combobox', { name: 'Filter by status' }).click();
    await expect(page.getByRole('option')).toHaveText(['All products', 'Active', 'Archived']);
    await page.getByRole('option', { name: 'Archived' }).click();
    await expect(page.getByRole('article', { name: 'Skyscraper Banner (160x600)' })).toBeVisible();
    await expect(page.getByRole('article', { name: 'CTN Seasonal Movie Special' })).toHaveCount(0);
    expect(requests.some((search) => search.includes('active=false'))).toBeTruthy();

    await page.getByRole('combobox', { name: 'Filter by status' }).click();
    await page.getByRole('option', { name: 'Active' }).click();
    await expect(page.getByRole('article', { name: 'Skyscraper Banner (160x600)' })).toHaveCount(0);
    await page.getByRole('combobox', { name: 'Filter by status' }).click();
    await page.getByRole('option', { name: 'All products' }).click();
  });

  await test.step('the ad type filter narrows to one type', async () => {
    await page.getByRole('combobox', { name: 'Filter by ad type' }).click();
    await page.getByRole('option', { name: 'Banner Ad' }).click();
    await expect(page.getByRole('article', { name: 'Homepage Banner (728x90)' })).toBeVisible();
    await expect(page.getByRole('article', { name: 'Skyscraper Banner (160x600)' })).toBeVisible();
    await expect(page.getByRole('article', { name: 'Lower-third Overlay' })).toHaveCount(0);
  });
});

test('admin creates a product after validation errors, edits it, and deletes it', async ({ page }) => {
  // A whole create-to-delete journey: up to a minute on a busy two-core machine.
  test.setTimeout(120_000);
  const name = unique('Snow Globe Takeover');
  await signInAs(page, 'admin', '/products');

  await test.step('the dialog shows the validation messages and its defaults', async () => {
    await page.getByRole('button', { name: 'Add Product' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Product' });
    await expect(dialog.getByLabel('Price Metric')).toHaveText('Per Month');
    await expect(dialog.getByRole('switch', { name: 'Inventory Required' })).not.toBeChecked();
    await expect(dialog.getByRole('switch', { name: 'Active' })).toBeChecked();
    await dialog.getByRole('button', { name: 'Create Product' }).click();
    await expect(dialog.getByText('Name is required')).toBeVisible();
    await expect(dialog.getByText('Ad type is required')).toBeVisible();
    await expect(dialog.getByText('Default price is required')).toBeVisible();
    await expect(dialog.getByLabel('Ad Type')).toHaveAttribute('aria-invalid', 'true');

    await dialog.getByLabel('Default Price ($)').fill('-5');
    await dialog.getByRole('button', { name: 'Create Product' }).click();
    await expect(dialog.getByText('Default price cannot be negative')).toBeVisible();
  });

  await test.step('valid input creates it, money sent in dollars', async () => {
    const dialog = page.getByRole('dialog', { name: 'Add Product' });
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByLabel('Description').fill('A full-screen snow globe wrap around the player.');
    await choose(dialog, 'Ad Type', 'Overlay Ad');
    await dialog.getByLabel('Default Price ($)').fill('1250.5');
    await dialog.getByLabel('Default Duration (days)').fill('21');
    await dialog.getByLabel('Seasonal Price ($)').fill('1999.99');
    await dialog.getByRole('switch', { name: 'Inventory Required' }).click();
    // An inventory product needs its capacity: the shared schema's message, then a valid number.
    const capacity = dialog.getByLabel('Capacity (slots per day)');
    await dialog.getByRole('button', { name: 'Create Product' }).click();
    await expect(dialog.getByText('Capacity is required for an inventory product')).toBeVisible();
    await capacity.fill('1001');
    await dialog.getByRole('button', { name: 'Create Product' }).click();
    await expect(dialog.getByText('Capacity must be between 1 and 1,000')).toBeVisible();
    await capacity.fill('2');
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/products'),
      dialog.getByRole('button', { name: 'Create Product' }).click(),
    ]);
    expect(request.postDataJSON()).toEqual({
      name,
      description: 'A full-screen snow globe wrap around the player.',
      adType: 'overlay',
      defaultPrice: 1250.5,
      priceMetric: 'monthly',
      defaultDuration: 21,
      seasonalPrice: 1999.99,
      inventoryRequired: true,
      capacity: 2,
      isActive: true,
    });
    await expect(toast(page, 'Product created')).toBeVisible();
    await expect(dialog).toBeHidden();
  });

  const card = page.getByRole('article', { name });

  await test.step('the card shows it', async () => {
    await page.getByLabel('Search products').fill(name);
    await expect(page.getByRole('article')).toHaveCount(1);
    await expect(card).toContainText('Overlay Ad');
    await expect(card.getByTestId('product-price')).toHaveText('$1,250.50 / Per Month');
    await expect(card).toContainText('Seasonal (Oct–Dec): $1,999.99');
    await expect(card).toContainText('21 days');
    await expect(card).toContainText('Inventory required');
    await expect(card.getByTestId('product-capacity')).toHaveText('Capacity: 2 slots a day');
  });

  await test.step('editing changes the metric and clears the seasonal price', async () => {
    await card.getByRole('button', { name: `Edit ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Product' });
    await expect(dialog.getByLabel('Name')).toHaveValue(name);
    await expect(dialog.getByLabel('Ad Type')).toHaveText('Overlay Ad');
    await expect(dialog.getByLabel('Default Price ($)')).toHaveValue('1250.5');
    await expect(dialog.getByLabel('Capacity (slots per day)')).toHaveValue('2');
    await dialog.getByLabel('Name').fill('');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await expect(dialog.getByText('Name is required')).toBeVisible();

    await dialog.getByLabel('Name').fill(name);
    await choose(dialog, 'Price Metric', 'CPM (per 1000 impressions)');
    // The closing select gives the focus back to its button a moment later: typing starts once it has, so no
    // keystroke of the next fields goes to the button instead.
    await expect(dialog.getByRole('combobox', { name: 'Price Metric' })).toBeFocused();
    await dialog.getByLabel('Default Price ($)').fill('22');
    await dialog.getByLabel('Seasonal Price ($)').fill('');
    await expect(dialog.getByLabel('Seasonal Price ($)')).toHaveValue('');
    await expect(dialog.getByLabel('Default Price ($)')).toHaveValue('22');
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.method() === 'PATCH' && new URL(r.url()).pathname.startsWith('/api/products/')),
      dialog.getByRole('button', { name: 'Save Changes' }).click(),
    ]);
    expect(request.postDataJSON()).toMatchObject({ priceMetric: 'cpm', defaultPrice: 22, seasonalPrice: null });
    await expect(toast(page, 'Product updated')).toBeVisible();
    await expect(card.getByTestId('product-price')).toHaveText('$22.00 CPM');
    await expect(card).toContainText('per 1000 impressions');
    await expect(card).not.toContainText('Seasonal');
  });

  await test.step('an unused product is deleted after confirmation', async () => {
    await card.getByRole('button', { name: `Delete ${name}` }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete product?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(card).toBeVisible();
    await card.getByRole('button', { name: `Delete ${name}` }).click();
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(toast(page, 'Product deleted')).toBeVisible();
    await expect(card).toHaveCount(0);
  });
});

test('deleting a product a package uses archives it, with the server message', async ({ page, request }) => {
  const admin = await apiAs(request, 'admin');
  const name = unique('Frosty Sidebar');
  const product = await admin.post('/api/products', { name, adType: 'banner', defaultPrice: 300 });
  await admin.post('/api/packages', { name: unique('Frosty Bundle'), price: 500, items: [{ productId: product.id }] });

  await signInAs(page, 'admin', '/products');
  await page.getByLabel('Search products').fill(name);
  const card = page.getByRole('article', { name });
  await expect(card).not.toContainText('Archived');
  await card.getByRole('button', { name: `Delete ${name}` }).click();
  await page
    .getByRole('alertdialog', { name: 'Delete product?' })
    .getByRole('button', { name: 'Delete', exact: true })
    .click();
  await expect(toast(page, 'Product archived')).toContainText(
    'This product is used by 1 package item, so it was archived instead of deleted',
  );
  await expect(card).toContainText('Archived');
});

test('updating a product deleted meanwhile fails with the server message', async ({ page, request }) => {
  const admin = await apiAs(request, 'admin');
  const name = unique('Ghost Banner');
  const product = await admin.post('/api/products', { name, adType: 'banner', defaultPrice: 100 });
  await signInAs(page, 'admin', '/products');
  await page.getByLabel('Search products').fill(name);
  await page.getByRole('button', { name: `Edit ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Product' });
  await dialog.getByLabel('Default Price ($)').fill('150');
  await admin.delete(`/api/products/${product.id}`);
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  const failure = toast(page, 'Failed to update product');
  await expect(failure).toHaveAttribute('data-variant', 'destructive');
  await expect(failure).toContainText('Product not found');
  await expect(dialog).toBeVisible();
});

test('creating a product after losing the right to fails with the server message', async ({ page, request }) => {
  const admin = await apiAs(request, 'admin');
  const email = `${unique('admin').replace(' ', '-')}@example.test`;
  const temp = await admin.post('/api/users', {
    firstName: 'Temp',
    lastName: 'Admin',
    email,
    password: 'secret99',
    role: 'admin',
  });
  await signInWith(page, email, 'secret99', '/products');
  await page.getByRole('button', { name: 'Add Product' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Product' });
  await dialog.getByLabel('Name').fill(unique('Too Late Banner'));
  await choose(dialog, 'Ad Type', 'Banner Ad');
  await dialog.getByLabel('Default Price ($)').fill('100');
  // They become a sales rep while the dialog is open.
  await admin.patch(`/api/users/${temp.id}`, { role: 'sales' });
  await dialog.getByRole('button', { name: 'Create Product' }).click();
  const failure = toast(page, 'Failed to create product');
  await expect(failure).toHaveAttribute('data-variant', 'destructive');
  await expect(failure).toContainText("You don't have permission to do this");
  await expect(dialog).toBeVisible();
});
