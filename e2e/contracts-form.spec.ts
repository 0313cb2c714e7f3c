import { createDraft, findInList, listContracts } from './contracts-helpers';
import { apiAs, choose, expect, signInAs, test, toast, unique } from './fixtures';

test('creating a contract with line items: validation, live summary, Create & Send gives Sent', async ({ page }) => {
  await signInAs(page, 'sales', '/contracts');
  await page.getByRole('link', { name: 'New Contract' }).click();
  await expect(page).toHaveURL(/\/contracts\/new$/);
  await expect(page.getByRole('heading', { name: 'New Contract' })).toBeVisible();

  // Defaults: start date today, setup fee 0, one empty line (quantity 1, discount 0), send on.
  await expect(page.getByLabel('Setup Fee ($)')).toHaveValue('0');
  await expect(page.getByLabel('Quantity')).toHaveValue('1');
  await expect(page.getByLabel('Discount ($)')).toHaveValue('0');
  await expect(page.getByRole('switch', { name: 'Send to customer immediately' })).toBeChecked();
  await expect(page.getByRole('switch', { name: 'Make active (live) without sending' })).not.toBeChecked();
  await expect(page.getByTestId('term-notice')).toHaveText(
    'No end date: billing continues month to month until canceled.',
  );

  await page.getByRole('button', { name: 'Create & Send Contract' }).click();
  await expect(page.getByText('Customer is required')).toBeVisible();
  await expect(page.getByText('Payment mode is required')).toBeVisible();
  await expect(page.getByText('Please select a package or add at least one complete line item')).toBeVisible();
  await expect(page).toHaveURL(/\/contracts\/new$/);

  await choose(page, 'Customer', /Holiday Lights Co\./);
  await expect(page.getByText('Customer is required')).toHaveCount(0);
  // Each payment mode option says what it means.
  await page.getByRole('combobox', { name: 'Payment Mode' }).click();
  await expect(page.getByRole('option', { name: /Client Portal.*Customer manages payments online/ })).toBeVisible();
  await page.getByRole('option', { name: /Pay-Link.*Send secure payment link via e-mail/ }).click();
  await page.getByLabel('Term (months)').fill('12');
  await expect(page.getByTestId('term-notice')).toContainText('This contract runs for 12 months');
  await page.getByLabel('Setup Fee ($)').fill('250');

  // Choosing a product fills the unit price with its default price.
  await choose(page, 'Product', /Holiday Pre-roll Video/);
  await expect(page.getByLabel('Unit Price ($)')).toHaveValue('1200.00');
  await expect(page.getByRole('button', { name: /Remove line item/ })).toHaveCount(0);
  await page.getByRole('button', { name: 'Add Product' }).click();
  await expect(page.getByTestId('line-item-row')).toHaveCount(2);
  await expect(page.getByRole('button', { name: 'Remove line item 2' })).toBeVisible();
  await choose(page, 'Product', /Homepage Banner/, 1);
  await page.getByLabel('Quantity').nth(1).fill('2');
  await page.getByLabel('Discount ($)').nth(1).fill('100');
  await expect(page.getByLabel('Line 2 total')).toHaveText('$800.00');

  const summary = page.getByTestId('contract-summary');
  await expect(summary).toContainText('Line Items Total');
  await expect(summary).toContainText('$2,000.00');
  await expect(page.getByTestId('summary-total')).toContainText('$2,250.00');
  // Both products have seasonal prices: 1650 + 2 x 600 - 100.
  await expect(page.getByTestId('summary-seasonal')).toContainText('$2,750.00 / month');

  // A third, empty row can be removed again.
  await page.getByRole('button', { name: 'Add Product' }).click();
  await page.getByRole('button', { name: 'Remove line item 3' }).click();
  await expect(page.getByTestId('line-item-row')).toHaveCount(2);

  const description = unique('E2E line items');
  await page.getByLabel('Description').fill(description);
  await expect(page.getByTestId('delivery-hint')).toContainText('sent to the customer by e-mail on creation');
  await page.getByRole('button', { name: 'Create & Send Contract' }).click();
  await expect(toast(page, 'Contract created successfully')).toContainText('created and sent to the customer');
  await expect(page).toHaveURL(/\/contracts$/);

  const row = await findInList(page, description);
  await expect(row.getByText('Sent', { exact: true })).toBeVisible();
  await expect(row).toContainText('Holiday Lights Co.');
  await expect(row).toContainText('12 months');
});

test('a discount above the in-season amount is refused on the form', async ({ page }) => {
  await signInAs(page, 'sales', '/contracts/new');
  await expect(page.getByRole('heading', { name: 'New Contract' })).toBeVisible();
  await choose(page, 'Customer', /Holiday Lights Co\./);
  await choose(page, 'Payment Mode', /Pay-Link/);
  await choose(page, 'Product', /Homepage Banner/);
  // $100.00 a month, $90.00 off: $50.00 in season would bill nothing from October to December.
  await page.getByLabel('Unit Price ($)').fill('100');
  await page.getByLabel('In-Season Price ($)').fill('50');
  await page.getByLabel('Discount ($)').fill('90');
  const requests: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/contracts') requests.push(r.url());
  });
  await page.getByRole('button', { name: 'Create & Send Contract' }).click();
  const row = page.getByTestId('line-item-row');
  await expect(row.getByText('Discount cannot exceed the line amount')).toBeVisible();
  await expect(page).toHaveURL(/\/contracts\/new$/);
  expect(requests).toEqual([]);

  // At $90.00 in season the discount fits and the message goes.
  await page.getByLabel('In-Season Price ($)').fill('90');
  await expect(row.getByText('Discount cannot exceed the line amount')).toHaveCount(0);
});

test('a contract with a package hides the line items and sends none; Save as Draft gives Draft', async ({
  page,
  request,
}) => {
  await signInAs(page, 'admin', '/contracts/new');
  await choose(page, 'Customer', /Frost & Pine Outfitters/);
  await choose(page, 'Payment Mode', /Client Portal/);
  await choose(page, 'Product', /Timed QR Code/);
  await choose(page, 'Package', /Seasonal Blockbuster/);

  await expect(page.getByRole('heading', { name: 'Line Items' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Add Product' })).toHaveCount(0);
  const panel = page.getByTestId('package-details');
  await expect(panel).toContainText('Seasonal Blockbuster');
  await expect(panel).toContainText('$4,200.00 / month');
  await expect(panel).toContainText('CTN Seasonal Movie Special');
  await expect(panel).toContainText('Two creatives in rotation');
  await expect(page.getByTestId('summary-total')).toContainText('$4,200.00');

  await page.getByRole('switch', { name: 'Send to customer immediately' }).click();
  await expect(page.getByTestId('delivery-hint')).toContainText('saved as a draft');
  const description = unique('E2E package');
  await page.getByLabel('Description').fill(description);
  await page.getByRole('button', { name: 'Save as Draft' }).click();
  await expect(toast(page, 'Contract created successfully')).toContainText('saved as a draft');

  const row = await findInList(page, description);
  await expect(row.getByText('Draft', { exact: true })).toBeVisible();

  const api = await apiAs(request, 'admin');
  const [created] = await listContracts(api, `&q=${encodeURIComponent(description)}`);
  const detail = await api.get<{ lineItems: unknown[]; package: { name: string } }>(`/api/contracts/${created.id}`);
  expect(detail.lineItems).toHaveLength(0);
  expect(detail.package.name).toBe('Seasonal Blockbuster');
});

test('the switches decide the submit label and the status: Create Live Contract gives Active', async ({ page }) => {
  await signInAs(page, 'sales_manager', '/contracts/new');
  const submit = page.locator('button[type="submit"]');
  const send = page.getByRole('switch', { name: 'Send to customer immediately' });
  const live = page.getByRole('switch', { name: 'Make active (live) without sending' });

  await expect(submit).toHaveText('Create & Send Contract');
  await send.click();
  await expect(submit).toHaveText('Save as Draft');
  await expect(page.getByTestId('delivery-hint')).toHaveText(
    'The contract will be saved as a draft; you can send it to the customer later.',
  );
  await live.click();
  await expect(submit).toHaveText('Create Live Contract');
  await expect(page.getByTestId('delivery-hint')).toHaveText(
    'The contract will be created as active (live) but not sent to the customer.',
  );

  await choose(page, 'Customer', /Summit Ford/);
  await choose(page, 'Payment Mode', /Pay-Link/);
  await choose(page, 'Product', /Post-roll Video Tag/);
  const description = unique('E2E live');
  await page.getByLabel('Description').fill(description);
  await submit.click();
  await expect(toast(page, 'Contract created successfully')).toContainText('created as active');
  const row = await findInList(page, description);
  await expect(row.getByText('Active', { exact: true })).toBeVisible();
  await expect(row).toContainText('Indefinite');
});

test('Cancel leaves the form for the contract list', async ({ page }) => {
  await signInAs(page, 'sales', '/contracts/new');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/contracts$/);
  await expect(page.getByRole('heading', { name: 'Contracts', exact: true })).toBeVisible();
});

test('the edit page changes a draft and goes back to it', async ({ page, request }) => {
  const description = unique('E2E edit page');
  const contract = await createDraft(request, 'sales', description);
  await signInAs(page, 'sales', `/contracts/${contract.id}`);
  await page.getByRole('link', { name: 'Edit' }).click();
  await expect(page).toHaveURL(new RegExp(`/contracts/${contract.id}/edit$`));
  await expect(page.getByRole('link', { name: 'Back to contract' })).toHaveAttribute(
    'href',
    `/contracts/${contract.id}`,
  );
  // Editing keeps the stored values; both switches start off.
  await expect(page.getByLabel('Description')).toHaveValue(description);
  await expect(page.getByLabel('Unit Price ($)')).toHaveValue('450.00');
  await expect(page.getByRole('switch', { name: 'Send to customer immediately' })).not.toBeChecked();
  await expect(page.getByRole('switch', { name: 'Make active (live) without sending' })).toHaveCount(0);

  await page.getByLabel('Quantity').fill('3');
  await page.getByLabel('Term (months)').fill('');
  await expect(page.getByTestId('summary-total')).toContainText('$1,350.00');
  await page.getByRole('button', { name: 'Update Contract' }).click();
  await expect(toast(page, 'Contract updated successfully')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/contracts/${contract.id}$`));
  await expect(page.getByText('Indefinite')).toBeVisible();
  await expect(page.getByTestId('payment-figures')).toContainText('$1,350.00');
  await expect(page.getByTestId('monthly-amount')).toContainText('$1,350.00 / month');
  await expect(page.getByTestId('term-value')).toContainText('no end date');
});

test('a contract whose payment processing started cannot be edited', async ({ page, request }) => {
  const api = await apiAs(request, 'admin');
  const started = (await listContracts(api, '&status=active')).find(
    (c) => c.stripePaymentLinkId || c.stripeSubscriptionId,
  )!;
  await signInAs(page, 'admin', `/contracts/${started.id}`);
  await expect(page.getByText('Cannot edit - payment processing started')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Edit' })).toHaveCount(0);

  await page.goto(`/contracts/${started.id}/edit`);
  await expect(page.getByText('Cannot edit - payment processing started')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Update Contract' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Back to contract' })).toBeVisible();
});

test('a server refusal shows "Failed to create contract" with its message', async ({ page }) => {
  await signInAs(page, 'sales', '/contracts/new');
  await choose(page, 'Customer', /Holiday Lights Co\./);
  await choose(page, 'Payment Mode', /Client Portal/);
  await choose(page, 'Product', /Homepage Banner/);
  // The customer disappears between loading the form and saving it.
  await page.route('**/api/contracts', (route) =>
    route.request().method() === 'POST'
      ? route.fulfill({
          status: 409,
          contentType: 'application/json',
          body: JSON.stringify({ message: 'Customer not found', code: 'conflict' }),
        })
      : route.continue(),
  );
  await page.getByRole('button', { name: 'Create & Send Contract' }).click();
  await expect(toast(page, 'Failed to create contract')).toContainText('Customer not found');
  await expect(page).toHaveURL(/\/contracts\/new$/);
});

test('a changed unit price: the in-season price is kept, cleared or scaled, never left silently', async ({ page }) => {
  await signInAs(page, 'sales', '/contracts/new');
  await expect(page.getByRole('heading', { name: 'New Contract' })).toBeVisible();
  // Pre-roll Impressions: $24.00 CPM, $32.00 in season. 250 thousand impressions a month.
  await choose(page, 'Product', /Pre-roll Impressions/);
  await expect(page.getByLabel('Unit Price ($)')).toHaveValue('24.00');
  await expect(page.getByLabel('In-Season Price ($)')).toHaveValue('32.00');
  await page.getByLabel('Quantity').fill('250');
  const notice = page.getByTestId('seasonal-price-notice');
  const seasonal = page.getByTestId('summary-seasonal');
  await expect(seasonal).toContainText('$8,000.00 / month');
  await expect(notice).toHaveCount(0);

  // A $12 CPM negotiated: the season would still bill 250 x $32.00.
  await page.getByLabel('Unit Price ($)').fill('12');
  await expect(notice).toBeVisible();
  await expect(notice.getByTestId('seasonal-price-figure')).toHaveText(
    'October to December this line bills $8,000.00 a month at $32.00, against $3,000.00 a month at the new price of $12.00.',
  );
  await expect(page.getByTestId('summary-monthly')).toContainText('$3,000.00 / month');
  await expect(seasonal).toContainText('$8,000.00 / month');
  await page.screenshot({ path: 'test-results/seasonal-price-notice.png', fullPage: true });

  // Scale: $32.00 x 12 / 24 = $16.00.
  await notice.getByRole('button', { name: 'Scale to $16.00' }).click();
  await expect(notice).toHaveCount(0);
  await expect(page.getByLabel('In-Season Price ($)')).toHaveValue('16.00');
  await expect(seasonal).toContainText('$4,000.00 / month');

  // Another change asks again, from the price the in-season price now goes with: clear it.
  await page.getByLabel('Unit Price ($)').fill('10');
  await expect(notice.getByTestId('seasonal-price-figure')).toContainText('bills $4,000.00 a month at $16.00');
  await notice.getByRole('button', { name: 'Clear (bill $10.00)' }).click();
  await expect(notice).toHaveCount(0);
  await expect(page.getByLabel('In-Season Price ($)')).toHaveValue('');
  // No in-season price: the season bills the regular $2,500.00, so no separate in-season figure.
  await expect(page.getByTestId('summary-monthly')).toContainText('$2,500.00 / month');
  await expect(seasonal).toHaveCount(0);

  // An in-season price the rep types goes with the price of the moment; a later change asks again: keep it.
  await page.getByLabel('In-Season Price ($)').fill('30');
  await expect(notice).toHaveCount(0);
  await expect(seasonal).toContainText('$7,500.00 / month');
  await page.getByLabel('Unit Price ($)').fill('20');
  await expect(notice).toBeVisible();
  await notice.getByRole('button', { name: 'Keep $30.00' }).click();
  await expect(notice).toHaveCount(0);
  await expect(page.getByLabel('In-Season Price ($)')).toHaveValue('30');
  await expect(page.getByTestId('summary-monthly')).toContainText('$5,000.00 / month');
  await expect(seasonal).toContainText('$7,500.00 / month');
});

test('phone: the in-season notice fits and its choices can be reached', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAs(page, 'sales', '/contracts/new');
  await choose(page, 'Product', /Pre-roll Impressions/);
  await page.getByLabel('Quantity').fill('250');
  await page.getByLabel('Unit Price ($)').fill('12');
  const notice = page.getByTestId('seasonal-price-notice');
  await expect(notice).toBeVisible();
  const box = (await notice.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  await notice.getByRole('button', { name: 'Scale to $16.00' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/seasonal-price-notice-phone.png' });
  await notice.getByRole('button', { name: 'Scale to $16.00' }).click();
  await expect(page.getByLabel('In-Season Price ($)')).toHaveValue('16.00');
});
