import { apiAs, expect, signInAs, signInWith, test, toast, unique } from './fixtures';

test('the search box finds customers by name, email and company on the server', async ({ page }) => {
  await signInAs(page, 'sales_manager', '/customers');
  await expect(page.getByRole('heading', { name: 'Customers', exact: true })).toBeVisible();
  await expect(page.getByTestId('customers-count')).toHaveText(/^\d+ customers$/);

  const search = page.getByLabel('Search customers');
  const searched: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/customers' && url.searchParams.get('q')) searched.push(url.searchParams.get('q')!);
  });

  await search.fill('Frost');
  await expect(page.getByTestId('customers-count')).toHaveText('1 customer');
  const frost = page.getByRole('article', { name: 'Frost & Pine Outfitters' });
  await expect(frost).toContainText('Frost & Pine Outfitters Inc.');
  await expect(frost).toContainText('dana@frostandpine.example');
  await expect(frost).toContainText('(802) 555-0178');
  await expect(frost).toContainText('Stowe, VT');
  await expect(frost.getByTestId('contract-count')).toHaveText(/^\d+ contracts?$/);
  await expect(frost.getByTestId('active-count')).toHaveText(/^\d+ active$/);
  expect(searched, 'typing is debounced into one request').toEqual(['Frost']);

  await search.fill('holidaylights.example');
  await expect(page.getByRole('article')).toHaveCount(1);
  await expect(page.getByRole('article', { name: 'Holiday Lights Co.' })).toBeVisible();

  await search.fill('Roasters');
  await expect(page.getByRole('article')).toHaveCount(1);
  await expect(page.getByRole('article', { name: 'Jingle Java Coffee' })).toBeVisible();

  await search.fill('no such customer anywhere');
  await expect(page.getByText('No customers match your search')).toBeVisible();
  await expect(page.getByTestId('customers-count')).toHaveText('0 customers');

  // A sales manager may create and edit but not delete.
  await search.fill('');
  const card = page.getByRole('article', { name: 'Frost & Pine Outfitters' });
  await expect(card.getByRole('button', { name: 'Edit Frost & Pine Outfitters' })).toBeVisible();
  await expect(card.getByRole('link', { name: 'View Frost & Pine Outfitters' })).toBeVisible();
  await expect(card.getByRole('button', { name: /^Delete/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Add Customer' })).toBeVisible();
});

test('admin creates, edits and deletes a customer, with validation first', async ({ page }) => {
  // A whole create-to-delete journey: up to a minute on a busy two-core machine.
  test.setTimeout(120_000);
  const name = unique('Tinsel Town Cinema');
  const email = `${name.split(' ').pop()}@tinsel.example`;
  await signInAs(page, 'admin', '/customers');

  await test.step('the dialog shows the validation messages', async () => {
    await page.getByRole('button', { name: 'Add Customer' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Customer' });
    await dialog.getByRole('button', { name: 'Create Customer' }).click();
    await expect(dialog.getByText('Name is required')).toBeVisible();
    await expect(dialog.getByText('Valid email is required')).toBeVisible();
    await expect(dialog.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');

    await dialog.getByLabel('Name').fill(name);
    await dialog.getByLabel('Email').fill('not-an-email');
    await dialog.getByRole('button', { name: 'Create Customer' }).click();
    await expect(dialog.getByText('Name is required')).toBeHidden();
    await expect(dialog.getByText('Valid email is required')).toBeVisible();
  });

  await test.step('valid input creates it, with every field sent', async () => {
    const dialog = page.getByRole('dialog', { name: 'Add Customer' });
    await dialog.getByLabel('Email').fill(email);
    await dialog.getByLabel('Company').fill('Tinsel Town Cinemas LLC');
    await dialog.getByLabel('Contact Person').fill('Tina Tinsel');
    await dialog.getByLabel('Phone').fill('(555) 010-2030');
    await dialog.getByLabel('Website').fill('https://tinsel.example');
    await dialog.getByLabel('Industry').fill('Entertainment');
    await dialog.getByLabel('Address').fill('1 Marquee Way');
    await dialog.getByLabel('City').fill('Santa Fe');
    await dialog.getByLabel('State').fill('NM');
    await dialog.getByLabel('ZIP Code').fill('87501');
    await dialog.getByLabel('Country').fill('USA');
    await dialog.getByLabel('Notes').fill('Wants holiday matinee pre-roll.');
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/customers'),
      dialog.getByRole('button', { name: 'Create Customer' }).click(),
    ]);
    expect(request.postDataJSON()).toEqual({
      name,
      email,
      company: 'Tinsel Town Cinemas LLC',
      phone: '(555) 010-2030',
      address: '1 Marquee Way',
      city: 'Santa Fe',
      state: 'NM',
      zipCode: '87501',
      country: 'USA',
      contactPerson: 'Tina Tinsel',
      website: 'https://tinsel.example',
      industry: 'Entertainment',
      notes: 'Wants holiday matinee pre-roll.',
      kind: 'advertiser',
      agencyCommissionPercent: null,
    });
    await expect(toast(page, 'Customer created')).toContainText(`${name} has been added`);
    await expect(dialog).toBeHidden();
  });

  const card = page.getByRole('article', { name });

  await test.step('the new card shows its details and no contracts', async () => {
    await page.getByLabel('Search customers').fill(name);
    await expect(page.getByRole('article')).toHaveCount(1);
    await expect(card).toContainText('Tinsel Town Cinemas LLC');
    await expect(card).toContainText(email);
    await expect(card).toContainText('Santa Fe, NM');
    await expect(card.getByTestId('contract-count')).toHaveText('0 contracts');
    await expect(card.getByTestId('active-count')).toHaveText('0 active');
  });

  await test.step('editing starts from the saved values; a cleared field is sent as null', async () => {
    await card.getByRole('button', { name: `Edit ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Customer' });
    await expect(dialog.getByLabel('Name')).toHaveValue(name);
    await expect(dialog.getByLabel('ZIP Code')).toHaveValue('87501');
    await dialog.getByLabel('Email').fill('');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await expect(dialog.getByText('Valid email is required')).toBeVisible();

    await dialog.getByLabel('Email').fill(email);
    await dialog.getByLabel('City').fill('Taos');
    await dialog.getByLabel('Website').fill('');
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.method() === 'PATCH' && new URL(r.url()).pathname.startsWith('/api/customers/')),
      dialog.getByRole('button', { name: 'Save Changes' }).click(),
    ]);
    expect(request.postDataJSON()).toMatchObject({ city: 'Taos', website: null });
    await expect(toast(page, 'Customer updated')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(card).toContainText('Taos, NM');
  });

  await test.step('delete asks first; Cancel keeps the customer', async () => {
    await card.getByRole('button', { name: `Delete ${name}` }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete customer?' });
    await expect(confirm).toContainText(name);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    await expect(card).toBeVisible();

    await card.getByRole('button', { name: `Delete ${name}` }).click();
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(toast(page, 'Customer deleted')).toBeVisible();
    await expect(card).toHaveCount(0);
    await expect(page.getByText('No customers match your search')).toBeVisible();
  });
});

test('deleting a customer with contracts fails with the server message', async ({ page }) => {
  await signInAs(page, 'admin', '/customers');
  await page.getByLabel('Search customers').fill('Holiday Lights');
  const card = page.getByRole('article', { name: 'Holiday Lights Co.' });
  await expect(page.getByRole('article')).toHaveCount(1);
  const contracts = Number((await card.getByTestId('contract-count').textContent())?.match(/^(\d+)/)?.[1]);
  expect(contracts, 'the demo data gives Holiday Lights contracts').toBeGreaterThan(1);

  await card.getByRole('button', { name: 'Delete Holiday Lights Co.' }).click();
  await page
    .getByRole('alertdialog', { name: 'Delete customer?' })
    .getByRole('button', { name: 'Delete', exact: true })
    .click();
  const failure = toast(page, 'Failed to delete customer');
  await expect(failure).toHaveAttribute('data-variant', 'destructive');
  await expect(failure).toContainText(`This customer has ${contracts} contracts and cannot be deleted`);
  await expect(card).toBeVisible();
});

test('updating a customer deleted meanwhile fails with "Customer not found"', async ({ page, request }) => {
  const admin = await apiAs(request, 'admin');
  const name = unique('Vanishing Venue');
  const customer = await admin.post('/api/customers', { name, email: 'vanish@venue.example' });
  await signInAs(page, 'admin', '/customers');
  await page.getByLabel('Search customers').fill(name);
  await page.getByRole('button', { name: `Edit ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Customer' });
  await dialog.getByLabel('Phone').fill('(555) 000-0000');
  await admin.delete(`/api/customers/${customer.id}`);
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  const failure = toast(page, 'Failed to update customer');
  await expect(failure).toHaveAttribute('data-variant', 'destructive');
  await expect(failure).toContainText('Customer not found');
  await expect(dialog, 'the dialog stays open with what was typed').toBeVisible();
});

test('creating a customer after losing the right to fails with the server message', async ({ page, request }) => {
  const admin = await apiAs(request, 'admin');
  const email = `${unique('rep').replace(' ', '-')}@example.test`;
  const rep = await admin.post('/api/users', {
    firstName: 'Temp',
    lastName: 'Rep',
    email,
    password: 'secret99',
    role: 'sales',
  });
  await signInWith(page, email, 'secret99', '/customers');
  await page.getByRole('button', { name: 'Add Customer' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Customer' });
  await dialog.getByLabel('Name').fill(unique('Too Late LLC'));
  await dialog.getByLabel('Email').fill('late@example.test');
  // Their role changes to finance while the dialog is open.
  await admin.patch(`/api/users/${rep.id}`, { role: 'finance' });
  await dialog.getByRole('button', { name: 'Create Customer' }).click();
  const failure = toast(page, 'Failed to create customer');
  await expect(failure).toHaveAttribute('data-variant', 'destructive');
  await expect(failure).toContainText("You don't have permission to do this");
  await expect(dialog).toBeVisible();
});

test('the customer page shows every field, the contracts, and edits', async ({ page }) => {
  await signInAs(page, 'admin', '/customers');
  await page.getByLabel('Search customers').fill('Holiday Lights');
  await page.getByRole('link', { name: 'View Holiday Lights Co.' }).click();
  await expect(page).toHaveURL(/\/customers\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: 'Holiday Lights Co.', level: 1 })).toBeVisible();

  // The details' list of fields (the balance card beside it has its own).
  const details = page.locator('dl[aria-label="Customer details"]');
  for (const [label, value] of [
    ['Email', 'chris@holidaylights.example'],
    ['Phone', '(303) 555-0142'],
    ['Company', 'Holiday Lights Company LLC'],
    ['Contact Person', 'Chris Holiday'],
    ['Website', 'https://holidaylights.example'],
    ['Industry', 'Seasonal Retail'],
    ['Address', '1200 Larimer St'],
    ['City', 'Denver'],
    ['State', 'CO'],
    ['ZIP Code', '80204'],
    ['Country', 'USA'],
    ['Notes', 'Runs campaigns every November and December'],
  ]) {
    await expect(
      details.locator('div', { has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) }),
    ).toContainText(value);
  }

  const table = page.getByRole('table', { name: 'Contracts of this customer' });
  const rows = table.locator('tbody tr');
  await expect(rows.first()).toBeVisible();
  // Other tests add contracts to this demo customer, so the total is read, not assumed; the table shows a page of it.
  const heading = page.getByText(/^\d+ contracts?$/);
  await expect(heading).toBeVisible();
  const total = Number((await heading.textContent())?.split(' ')[0]);
  expect(total).toBeGreaterThanOrEqual(await rows.count());
  const first = rows.first();
  const link = first.getByRole('link');
  await expect(link).toHaveText(/^Contract #[0-9a-f]{8}$/);
  const href = await link.getAttribute('href');
  expect(href).toMatch(/^\/contracts\/[0-9a-f-]{36}$/);
  expect(await link.textContent()).toContain(href!.slice(-8));
  await expect(first.locator('td').nth(2)).toHaveText(/^(Draft|Sent|Active|Paused|Canceled|Completed)$/);
  await expect(first.locator('td').nth(3)).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
  await expect(first.locator('td').nth(4)).toHaveText(/^\$[\d,]+\.\d{2}$/);

  await page.getByRole('button', { name: 'Edit Customer' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Customer' });
  await expect(dialog.getByLabel('Contact Person')).toHaveValue('Chris Holiday');
  await dialog.getByLabel('Phone').fill('(303) 555-0199');
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(page, 'Customer updated')).toBeVisible();
  await expect(details).toContainText('(303) 555-0199');
  // Put the demo value back for other tests.
  await page.getByRole('button', { name: 'Edit Customer' }).click();
  await dialog.getByLabel('Phone').fill('(303) 555-0142');
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(details).toContainText('(303) 555-0142');

  await page.getByRole('link', { name: 'Back to Customers' }).click();
  await expect(page).toHaveURL(/\/customers$/);
  await expect(page.getByRole('heading', { name: 'Customers', exact: true })).toBeVisible();
});

test('an unknown customer shows "Customer not found"', async ({ page }) => {
  await signInAs(page, 'admin', '/customers/6f1c7a52-0000-4000-8000-000000000000');
  await expect(page.getByText('Customer not found')).toBeVisible();
  await page.goto('/customers/not-an-id');
  await expect(page.getByText('Customer not found')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to Customers' })).toHaveAttribute('href', '/customers');
});

test('the grid pages through the results 24 at a time', async ({ page, request }) => {
  const admin = await apiAs(request, 'admin');
  const prefix = unique('Paged Partner');
  await Promise.all(
    Array.from({ length: 25 }, (_, i) =>
      admin.post('/api/customers', {
        name: `${prefix} ${String(i + 1).padStart(2, '0')}`,
        email: `p${i}@paged.example`,
      }),
    ),
  );
  await signInAs(page, 'sales', '/customers');
  await page.getByLabel('Search customers').fill(prefix);
  await expect(page.getByTestId('customers-count')).toHaveText('25 customers');
  await expect(page.getByRole('article')).toHaveCount(24);
  const pager = page.getByRole('navigation', { name: 'Pagination' });
  await expect(pager).toContainText('Page 1 of 2');
  await expect(pager.getByRole('button', { name: 'Previous' })).toBeDisabled();
  await pager.getByRole('button', { name: 'Next' }).click();
  await expect(pager).toContainText('Page 2 of 2');
  await expect(page.getByRole('article')).toHaveCount(1);
  await expect(pager.getByRole('button', { name: 'Next' })).toBeDisabled();
  await pager.getByRole('button', { name: 'Previous' }).click();
  await expect(page.getByRole('article')).toHaveCount(24);
});

test("a client sees their own company's record, read-only, without notes", async ({ page }) => {
  await signInAs(page, 'client', '/customers');
  await expect(page.getByRole('heading', { name: 'Your Company', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Holiday Lights Co.' })).toBeVisible();
  await expect(page.getByText('The advertisers you sell to')).toHaveCount(0);
  await expect(page.getByLabel('Search customers')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Add Customer' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Edit Customer' })).toHaveCount(0);
  await expect(page.locator('dt', { hasText: 'Email' })).toBeVisible();
  await expect(page.locator('dt', { hasText: 'Notes' })).toHaveCount(0);
});
