import { DEMO_ACCOUNTS, expect, expectFirstClientContractShown, signInAs, test, toast, unique } from './fixtures';

test('sales gets Access Denied on the Users screen, without the list being requested', async ({ page }) => {
  const listCalls: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/users') listCalls.push(request.url());
  });
  await signInAs(page, 'sales');
  await page.goto('/users');
  await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
  await expect(page.getByText("You don't have permission to manage users")).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add User' })).toHaveCount(0);
  expect(listCalls, 'the list is not even requested').toEqual([]);
});

test('a sales manager sees the team read-only from the sidebar: staff only, no changes', async ({ page }) => {
  await signInAs(page, 'sales_manager');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();
  await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Access Denied' })).toHaveCount(0);
  await expect(page.getByRole('article', { name: 'Alex Morgan' })).toContainText(DEMO_ACCOUNTS.admin);
  await expect(page.getByRole('article').first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add User' })).toHaveCount(0);
  await expect(page.getByRole('article').getByRole('button')).toHaveCount(0);
  // Client accounts are not part of the team.
  await expect(page.getByText(DEMO_ACCOUNTS.client)).toHaveCount(0);
});

test('admin sees the user grid; their own card has Edit but no Delete', async ({ page }) => {
  await signInAs(page, 'admin', '/users');
  await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();
  await expect(page.getByTestId('users-count')).toHaveText(/^\d+ users$/);

  const own = page.getByRole('article', { name: 'Alex Morgan' });
  await expect(own).toContainText(DEMO_ACCOUNTS.admin);
  await expect(own).toContainText('Admin');
  await expect(own).toContainText('Active');
  await expect(own.getByRole('button', { name: /^Edit/ })).toBeVisible();
  await expect(own.getByRole('button', { name: /^Delete/ })).toHaveCount(0);

  // Another user's card has both, with its commission shown in percent.
  const sales = page.getByRole('article', { name: 'Jordan Blake' });
  await expect(sales).toContainText('5%');
  await expect(sales.getByRole('button', { name: 'Edit Jordan Blake' })).toBeVisible();
  await expect(sales.getByRole('button', { name: 'Delete Jordan Blake' })).toBeVisible();

  // Editing oneself: the role and the Active switch are locked (the server refuses those changes).
  await own.getByRole('button', { name: /^Edit/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit User' });
  await expect(dialog.getByLabel('Role')).toBeDisabled();
  await expect(dialog.getByRole('switch', { name: 'Active' })).toBeDisabled();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
});

test('admin creates, finds, filters, edits and deletes a user', async ({ page }) => {
  // A whole create-to-delete journey: up to a minute on a busy two-core machine.
  test.setTimeout(120_000);
  const firstName = unique('Quincy').replace(' ', '');
  const lastName = 'Tester';
  const fullName = `${firstName} ${lastName}`;
  const email = `${firstName.toLowerCase()}@example.test`;
  await signInAs(page, 'admin', '/users');

  await test.step('the create dialog shows every validation message under its field', async () => {
    await page.getByRole('button', { name: 'Add User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add User' });
    await expect(dialog).toBeVisible();
    // Defaults: sales, 5 percent, active.
    await expect(dialog.getByLabel('Role')).toHaveText('Sales');
    await expect(dialog.getByLabel('Commission Rate (%)')).toHaveValue('5');
    await expect(dialog.getByLabel('Commission Rate (%)')).toHaveAttribute('step', '0.1');
    await expect(dialog.getByRole('switch', { name: 'Active' })).toBeChecked();

    await dialog.getByRole('button', { name: 'Create User' }).click();
    await expect(dialog.getByText('First name is required')).toBeVisible();
    await expect(dialog.getByText('Last name is required')).toBeVisible();
    await expect(dialog.getByText('Valid email is required')).toBeVisible();
    await expect(dialog.getByText('Password must be at least 6 characters')).toBeVisible();
    await expect(dialog.getByLabel('First Name')).toHaveAttribute('aria-invalid', 'true');

    await dialog.getByLabel('Email').fill('not-an-email');
    await dialog.getByLabel('Password').fill('12345');
    await dialog.getByLabel('Commission Rate (%)').fill('150');
    await dialog.getByRole('button', { name: 'Create User' }).click();
    await expect(dialog.getByText('Valid email is required')).toBeVisible();
    await expect(dialog.getByText('Password must be at least 6 characters')).toBeVisible();
    await expect(dialog.getByText('Commission rate cannot exceed 100%')).toBeVisible();

    await dialog.getByLabel('Commission Rate (%)').fill('-1');
    await dialog.getByRole('button', { name: 'Create User' }).click();
    await expect(dialog.getByText('Commission rate must be positive')).toBeVisible();
  });

  await test.step('a duplicate email is refused by the server with its message', async () => {
    const dialog = page.getByRole('dialog', { name: 'Add User' });
    await dialog.getByLabel('First Name').fill(firstName);
    await dialog.getByLabel('Last Name').fill(lastName);
    await dialog.getByLabel('Email').fill(DEMO_ACCOUNTS.sales);
    await dialog.getByLabel('Password').fill('secret99');
    await dialog.getByLabel('Commission Rate (%)').fill('7.5');
    await dialog.getByRole('button', { name: 'Create User' }).click();
    const failure = toast(page, 'Failed to create user');
    await expect(failure).toBeVisible();
    await expect(failure).toHaveAttribute('data-variant', 'destructive');
    await expect(failure).toContainText('A user with this email already exists');
    await expect(dialog).toBeVisible();
  });

  await test.step('a valid user is created, its commission sent as a fraction', async () => {
    const dialog = page.getByRole('dialog', { name: 'Add User' });
    await dialog.getByLabel('Email').fill(email);
    await dialog.getByLabel('Role').click();
    await page.getByRole('option', { name: 'Finance' }).click();
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/users'),
      dialog.getByRole('button', { name: 'Create User' }).click(),
    ]);
    expect(request.postDataJSON()).toMatchObject({
      firstName,
      lastName,
      email,
      role: 'finance',
      commissionRate: 0.075,
      isActive: true,
    });
    await expect(toast(page, 'User created')).toBeVisible();
    await expect(dialog).toBeHidden();
  });

  const card = page.getByRole('article', { name: fullName });

  await test.step('the search box finds it on the server', async () => {
    await page.getByLabel('Search users').fill(firstName);
    await expect(page.getByTestId('users-count')).toHaveText('1 user');
    await expect(page.getByRole('article')).toHaveCount(1);
    await expect(card).toContainText(email);
    await expect(card).toContainText('Finance');
    await expect(card).toContainText('7.5%');
    await expect(card).toContainText('Active');

    await page.getByLabel('Search users').fill(`${firstName}-nobody`);
    await expect(page.getByText('No users match your search')).toBeVisible();
    await expect(page.getByTestId('users-count')).toHaveText('0 users');
    await page.getByLabel('Search users').fill('');
  });

  await test.step('the role filter narrows the grid', async () => {
    const filter = page.getByRole('combobox', { name: 'Filter by role' });
    await filter.click();
    const options = page.getByRole('option');
    await expect(options).toHaveText([
      'All roles',
      'Super Admin',
      'Admin',
      'Sales Manager',
      'Sales',
      'Finance',
      'Client',
    ]);
    await page.getByRole('option', { name: 'Finance' }).click();
    await expect(card).toBeVisible();
    await expect(page.getByRole('article', { name: 'Casey Patel' })).toBeVisible();
    await expect(page.getByRole('article', { name: 'Alex Morgan' })).toHaveCount(0);

    await filter.click();
    await page.getByRole('option', { name: 'Client', exact: true }).click();
    await expect(page.getByRole('article', { name: 'Chris Holiday' })).toBeVisible();
    await expect(card).toHaveCount(0);

    await filter.click();
    await page.getByRole('option', { name: 'All roles' }).click();
    await expect(page.getByRole('article', { name: 'Alex Morgan' })).toBeVisible();
  });

  await test.step('editing shows the commission in percent and saves the change', async () => {
    await page.getByLabel('Search users').fill(firstName);
    await expect(page.getByRole('article')).toHaveCount(1);
    await card.getByRole('button', { name: /^Edit/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit User' });
    await expect(dialog.getByLabel('First Name')).toHaveValue(firstName);
    await expect(dialog.getByLabel('Email')).toHaveValue(email);
    await expect(dialog.getByLabel('Password')).toHaveValue('');
    await expect(dialog.getByText('Leave blank to keep the current password.')).toBeVisible();
    await expect(dialog.getByLabel('Role')).toHaveText('Finance');
    await expect(dialog.getByLabel('Commission Rate (%)')).toHaveValue('7.5');

    await dialog.getByLabel('Commission Rate (%)').fill('101');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await expect(dialog.getByText('Commission rate cannot exceed 100%')).toBeVisible();

    await dialog.getByLabel('Commission Rate (%)').fill('12.5');
    await dialog.getByLabel('Role').click();
    await page.getByRole('option', { name: 'Sales', exact: true }).click();
    await dialog.getByRole('switch', { name: 'Active' }).click();
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.method() === 'PATCH' && new URL(r.url()).pathname.startsWith('/api/users/')),
      dialog.getByRole('button', { name: 'Save Changes' }).click(),
    ]);
    const body = request.postDataJSON();
    expect(body).toMatchObject({ commissionRate: 0.125, role: 'sales', isActive: false });
    expect(body, 'a blank password is not sent').not.toHaveProperty('password');
    await expect(toast(page, 'User updated')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(card).toContainText('12.5%');
    await expect(card).toContainText('Sales');
    await expect(card).toContainText('Inactive');
  });

  await test.step('deleting asks first, then removes the card', async () => {
    await card.getByRole('button', { name: /^Delete/ }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete user?' });
    await expect(confirm).toContainText(fullName);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    await expect(card).toBeVisible();

    await card.getByRole('button', { name: /^Delete/ }).click();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(toast(page, 'User deleted')).toBeVisible();
    await expect(card).toHaveCount(0);
    await expect(page.getByTestId('users-count')).toHaveText('0 users');
  });
});

test('a refused delete shows the failure toast with the reason and keeps the card', async ({ page }) => {
  // The server refuses to delete a sales rep who still has contracts; stand in for that answer here so no
  // demo account is ever at risk.
  await page.route('**/api/users/*', (route) =>
    route.request().method() === 'DELETE'
      ? route.fulfill({
          status: 409,
          contentType: 'application/json',
          body: JSON.stringify({
            message: 'This user is the sales rep of 3 contracts. Deactivate the account instead.',
            code: 'CONFLICT',
          }),
        })
      : route.continue(),
  );
  await signInAs(page, 'admin', '/users');
  const card = page.getByRole('article', { name: 'Jordan Blake' });
  await card.getByRole('button', { name: /^Delete/ }).click();
  await page.getByRole('alertdialog', { name: 'Delete user?' }).getByRole('button', { name: 'Delete' }).click();
  const failure = toast(page, 'Failed to delete user');
  await expect(failure).toBeVisible();
  await expect(failure).toHaveAttribute('data-variant', 'destructive');
  await expect(failure).toContainText('Deactivate the account instead.');
  await expect(card).toBeVisible();
});

test('a client account created here is linked to its customer and sees its contracts', async ({
  page,
  browser,
  baseURL,
}) => {
  await signInAs(page, 'admin', '/users');
  const email = `${unique('client').replace(/\s+/g, '-').toLowerCase()}@example.test`;
  await page.getByRole('button', { name: 'Add User' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('First Name').fill('Casey');
  await dialog.getByLabel('Last Name').fill('Lights');
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Password').fill('client123');
  await dialog.getByRole('combobox', { name: 'Role' }).click();
  await page.getByRole('option', { name: 'Client', exact: true }).click();
  await dialog.getByRole('combobox', { name: 'Customer' }).click();
  await page.getByRole('option', { name: /^Holiday Lights Co\./ }).click();
  await dialog.getByRole('button', { name: 'Create User' }).click();
  await expect(toast(page, 'User created')).toBeVisible();

  const context = await browser.newContext({ baseURL });
  const client = await context.newPage();
  await client.goto('/');
  await client.getByLabel('Email Address').fill(email);
  await client.getByLabel('Password').fill('client123');
  await client.getByRole('button', { name: 'Sign In' }).click();
  await expect(client.getByRole('heading', { name: 'Welcome, Casey!' })).toBeVisible();
  await expectFirstClientContractShown(client);
  await context.close();
});
