import {
  createContract,
  createDraft,
  customerNamed,
  findInList,
  listContracts,
  productNamed,
} from './contracts-helpers';
import { apiAs, choose, expect, signInAs, test, toast, unique } from './fixtures';

test('the list shows every column, searches, filters by status and pages on the server', async ({ page, request }) => {
  const api = await apiAs(request, 'admin');
  const all = await listContracts(api);
  await signInAs(page, 'admin', '/contracts');
  await expect(page.getByRole('heading', { name: 'Contracts', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'New Contract' })).toHaveAttribute('href', '/contracts/new');
  await expect(page.getByTestId('contracts-count')).toHaveText(`${all.length} contracts`);
  for (const header of ['ID', 'Description', 'Customer', 'Status', 'Value', 'Start Date', 'Term']) {
    await expect(page.getByRole('columnheader', { name: header, exact: true })).toBeVisible();
  }
  const pages = Math.ceil(all.length / 20);
  await expect(page.getByTestId('contract-row')).toHaveCount(20);
  await expect(page.getByText(`Page 1 of ${pages}`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Previous' })).toBeDisabled();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText(`Page 2 of ${pages}`)).toBeVisible();
  await expect(page.getByTestId('contract-row')).toHaveCount(Math.min(20, all.length - 20));
  await page.getByRole('button', { name: 'Previous' }).click();
  await expect(page.getByText(`Page 1 of ${pages}`)).toBeVisible();

  // Search by description: the row shows short id, customer, status badge, start date and term.
  const portalPlan = all.find((c) => c.description === 'Holiday Starter package for the winter light show')!;
  const row = await findInList(page, 'winter light show');
  await expect(row.getByRole('link', { name: `Contract ${portalPlan.id.slice(-8)}` })).toBeVisible();
  await expect(row).toContainText('Holiday Lights Co.');
  await expect(row.getByText('Active', { exact: true })).toHaveClass(/bg-green-100/);
  await expect(row).toContainText('12 months');
  await expect(row).toContainText('Auto-stops');
  // Each row shows what the contract bills over its term: 12 months of the $1,500.00 package + the $250.00
  // setup fee.
  await expect(row.getByTestId('contract-value')).toContainText('$18,250.00');
  await expect(row.getByTestId('contract-value')).toContainText('over the term');

  // Search by contract id.
  await findInList(page, portalPlan.id.slice(-8));
  await page.getByLabel('Search contracts').fill('no such contract anywhere');
  await expect(page.getByText('No contracts found')).toBeVisible();
  await page.getByLabel('Search contracts').fill('');

  // Status filter, on the server; each badge in its colour.
  const colours = { Paused: /bg-red-100/, Completed: /bg-blue-100/, Sent: /bg-yellow-100/, Draft: /bg-slate-100/ };
  for (const [label, colour] of Object.entries(colours)) {
    const expected = all.filter((c) => c.status === label.toLowerCase()).length;
    await choose(page, 'Filter by status', label);
    await expect(page.getByTestId('contracts-count')).toHaveText(
      `${expected} ${label.toLowerCase()} contract${expected === 1 ? '' : 's'}`,
    );
    // A page holds 20: more of a status than that page on the server too.
    await expect(page.getByTestId('contract-row')).toHaveCount(Math.min(20, expected));
    await expect(page.getByTestId('contract-row').first().getByText(label, { exact: true })).toHaveClass(colour);
  }
  await choose(page, 'Filter by status', 'All');
  await expect(page.getByTestId('contracts-count')).toHaveText(`${all.length} contracts`);

  // A contract without a description says so; an indefinite one says so.
  const indefinite = all.find((c) => c.termMonths === null)!;
  const indefiniteRow = await findInList(page, indefinite.id.slice(-8));
  await expect(indefiniteRow).toContainText('Indefinite');
});

test('View Details opens the contract; a draft can be edited in the dialog', async ({ page, request }) => {
  const description = unique('E2E dialog');
  const contract = await createDraft(request, 'sales', description);
  await signInAs(page, 'sales', '/contracts');
  await findInList(page, description);
  const actions = page.getByRole('button', { name: `Actions for contract ${contract.id.slice(-8)}` });

  await actions.click();
  // A pay-link contract without a link offers to create one.
  await expect(page.getByRole('menuitem', { name: 'Generate Payment Link' })).toBeVisible();
  await page.getByRole('menuitem', { name: 'Edit Contract' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: `Edit Contract ${contract.id.slice(-8)}` })).toBeVisible();
  await expect(dialog.getByLabel('Description')).toHaveValue(description);
  await expect(dialog.getByRole('switch', { name: 'Send to customer immediately' })).not.toBeChecked();

  // Cancel closes the dialog without saving.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);

  await actions.click();
  await page.getByRole('menuitem', { name: 'Edit Contract' }).click();
  const edited = `${description} (edited)`;
  await dialog.getByLabel('Description').fill(edited);
  await dialog.getByLabel('Term (months)').fill('3');
  await dialog.getByRole('button', { name: 'Update Contract' }).click();
  await expect(toast(page, 'Contract updated successfully')).toBeVisible();
  await expect(dialog).toHaveCount(0);
  const row = page.getByTestId('contract-row');
  await expect(row).toContainText(edited);
  await expect(row).toContainText('3 months');

  await actions.click();
  await page.getByRole('menuitem', { name: 'View Details' }).click();
  await expect(page).toHaveURL(new RegExp(`/contracts/${contract.id}$`));
  await expect(page.getByText(edited)).toBeVisible();
});

test('deleting asks for confirmation first', async ({ page, request }) => {
  const description = unique('E2E delete');
  const contract = await createDraft(request, 'sales', description);
  await signInAs(page, 'sales', '/contracts');
  await findInList(page, description);
  const actions = page.getByRole('button', { name: `Actions for contract ${contract.id.slice(-8)}` });

  await actions.click();
  await page.getByRole('menuitem', { name: 'Delete Contract' }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText('Delete this contract?');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('contract-row')).toHaveCount(1);

  await actions.click();
  await page.getByRole('menuitem', { name: 'Delete Contract' }).click();
  await confirm.getByRole('button', { name: 'Delete Contract' }).click();
  await expect(toast(page, 'Contract deleted')).toBeVisible();
  await expect(page.getByText('No contracts found')).toBeVisible();
  const response = await request.get(`/api/contracts/${contract.id}`, {
    headers: (await apiAs(request, 'sales')).headers,
  });
  expect(response.status()).toBe(404);
});

test('a refused delete shows "Failed to delete contract" with the reason', async ({ page, request }) => {
  const description = unique('E2E refused delete');
  const contract = await createDraft(request, 'sales', description);
  await signInAs(page, 'sales', '/contracts');
  await findInList(page, description);
  await page.route(`**/api/contracts/${contract.id}`, (route) =>
    route.request().method() === 'DELETE'
      ? route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ code: 'internal' }),
        })
      : route.continue(),
  );
  await page.getByRole('button', { name: `Actions for contract ${contract.id.slice(-8)}` }).click();
  await page.getByRole('menuitem', { name: 'Delete Contract' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete Contract' }).click();
  await expect(toast(page, 'Failed to delete contract')).toContainText('There was an error deleting the contract.');
  await expect(page.getByTestId('contract-row')).toHaveCount(1);
});

test('pay links: copy an existing one, generate a new one, refuse a $0.00 contract', async ({
  page,
  context,
  request,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const api = await apiAs(request, 'admin');
  const withLink = (await listContracts(api, '&status=active')).find(
    (c) => c.paymentMode === 'pay_link' && c.payLinkToken,
  )!;
  await signInAs(page, 'admin', '/contracts');

  await findInList(page, withLink.id.slice(-8));
  await page.getByRole('button', { name: `Actions for contract ${withLink.id.slice(-8)}` }).click();
  await expect(page.getByRole('menuitem', { name: 'Generate Payment Link' })).toHaveCount(0);
  // Payment processing started: no edit, no delete.
  await expect(page.getByRole('menuitem', { name: 'Edit Contract' })).toHaveCount(0);
  await expect(page.getByRole('menuitem', { name: 'Delete Contract' })).toHaveCount(0);
  await page.getByRole('menuitem', { name: 'Copy Payment Link' }).click();
  await expect(toast(page, 'Payment link copied')).toBeVisible();
  const origin = new URL(page.url()).origin;
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${origin}/p/${withLink.payLinkToken}`);

  // A draft pay-link contract has no link yet: generating creates and copies it.
  const description = unique('E2E generate link');
  const draft = await createDraft(request, 'admin', description);
  await findInList(page, description);
  await page.getByRole('button', { name: `Actions for contract ${draft.id.slice(-8)}` }).click();
  await page.getByRole('menuitem', { name: 'Generate Payment Link' }).click();
  await expect(toast(page, 'Payment link created and copied')).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toMatch(/\/p\/[\w-]{20,}$/);
  await page.getByRole('button', { name: `Actions for contract ${draft.id.slice(-8)}` }).click();
  await expect(page.getByRole('menuitem', { name: 'Copy Payment Link' })).toBeVisible();
  await page.keyboard.press('Escape');

  // A contract of $0.00 is refused without asking the server.
  const free = unique('E2E zero');
  const customer = await customerNamed(api, 'Holiday Lights Co.');
  const banner = await productNamed(api, 'Homepage Banner (728x90)');
  const zero = await createContract(api, {
    customerId: customer.id,
    description: free,
    lineItems: [{ productId: banner.id, quantity: 1, unitPrice: 0, discount: 0 }],
  });
  let called = false;
  await page.route(`**/api/contracts/${zero.id}/generate-payment-link`, (route) => {
    called = true;
    return route.continue();
  });
  await findInList(page, free);
  await page.getByRole('button', { name: `Actions for contract ${zero.id.slice(-8)}` }).click();
  await page.getByRole('menuitem', { name: 'Generate Payment Link' }).click();
  await expect(toast(page, 'Cannot generate payment link')).toContainText(
    'Contract has $0.00 amount. Please add line items, select a package, or set a setup fee first.',
  );
  expect(called).toBe(false);
});

test('a failed pay link shows "Failed to generate payment link"', async ({ page, request }) => {
  const description = unique('E2E link failure');
  const draft = await createDraft(request, 'sales', description);
  await signInAs(page, 'sales', '/contracts');
  await page.route(`**/api/contracts/${draft.id}/generate-payment-link`, (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ code: 'internal' }) }),
  );
  await findInList(page, description);
  await page.getByRole('button', { name: `Actions for contract ${draft.id.slice(-8)}` }).click();
  await page.getByRole('menuitem', { name: 'Generate Payment Link' }).click();
  await expect(toast(page, 'Failed to generate payment link')).toContainText(
    'There was an error generating the payment link.',
  );
});

test('sales sees only their own contracts; another rep’s contract is "Contract not found"', async ({
  page,
  request,
}) => {
  const own = await listContracts(await apiAs(request, 'sales'));
  const theirs = await listContracts(await apiAs(request, 'sales2'));
  expect(theirs.length).toBeGreaterThan(0);
  await signInAs(page, 'sales', '/contracts');
  await expect(page.getByTestId('contracts-count')).toHaveText(`${own.length} contracts`);
  await page.getByLabel('Search contracts').fill(theirs[0].id.slice(-8));
  await expect(page.getByText('No contracts found')).toBeVisible();

  await page.goto(`/contracts/${theirs[0].id}`);
  await expect(page.getByText('Contract not found')).toBeVisible();
  await page.goto(`/contracts/${theirs[0].id}/edit`);
  await expect(page.getByText('Contract not found')).toBeVisible();
});

test('finance reads contracts but cannot create, edit, delete or change them', async ({ page, request }) => {
  const all = await listContracts(await apiAs(request, 'admin'));
  const draft = all.find((c) => c.status === 'draft')!;
  await signInAs(page, 'finance', '/contracts');
  await expect(page.getByTestId('contracts-count')).toHaveText(`${all.length} contracts`);
  await expect(page.getByRole('link', { name: 'New Contract' })).toHaveCount(0);
  await findInList(page, draft.id.slice(-8));
  await page.getByRole('button', { name: `Actions for contract ${draft.id.slice(-8)}` }).click();
  await expect(page.getByRole('menuitem', { name: 'View Details' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Edit Contract' })).toHaveCount(0);
  await expect(page.getByRole('menuitem', { name: 'Delete Contract' })).toHaveCount(0);
  await expect(page.getByRole('menuitem', { name: 'Generate Payment Link' })).toHaveCount(0);
  await page.getByRole('menuitem', { name: 'View Details' }).click();
  await expect(page.getByRole('button', { name: 'Send to Customer' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Edit' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete' })).toHaveCount(0);

  await page.goto('/contracts/new');
  await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
});

test("a client sees their own company's contracts, read-only, with their value", async ({ page }) => {
  await signInAs(page, 'client', '/contracts');
  const response = await page.request.get('/api/client/contracts?limit=20');
  const own = (await response.json()) as {
    id: string;
    title: string | null;
    monthlyAmount: number;
    termValue: number | null;
  }[];
  const total = Number(response.headers()['x-total-count']);
  expect(total, 'the demo client has contracts').toBeGreaterThan(0);
  await expect(page.getByRole('heading', { name: 'Contracts', exact: true })).toBeVisible();
  await expect(page.getByTestId('contracts-count')).toHaveText(`${total} contract${total === 1 ? '' : 's'}`);
  await expect(page.getByTestId('contract-row')).toHaveCount(own.length);
  const first = page.getByTestId('contract-row').first();
  await expect(first).toContainText(own[0].title || `Contract ${own[0].id.slice(-8)}`);
  // The value the billing engine gives it: over its term, or per month with no end date.
  const value = own[0].termValue ?? own[0].monthlyAmount;
  await expect(first.getByTestId('contract-value')).toContainText(
    value.toLocaleString('en-US', { style: 'currency', currency: 'USD' }),
  );
  await expect(page.getByText('Access Denied')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'New Contract' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Actions for contract/ })).toHaveCount(0);
  await page.goto('/contracts/new');
  await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
});
