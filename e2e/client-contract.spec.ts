import type { Page } from '@playwright/test';
import type { ClientContractDetail, ClientSummary } from '@shared/contracts/client-portal';
import type { ContractSummary } from '@shared/contracts/contract-responses';
import { apiAs, expect, signInAs, signInWith, test, tokenFor, unique } from './fixtures';

/**
 * The client's view of its contracts: a contract page of its own (lines, flights, upcoming invoices, invoices,
 * delivery, documents), opened from the portal, the dashboard and the Contracts list; what is overdue and a
 * contract paused for non-payment, with what to pay and Pay Now, on the dashboard, the portal and the page.
 *
 * The demo's non-paying customer "Peppermint Spa & Salon" has a contract paused for non-payment with an overdue
 * invoice (e2e/dunning.spec.ts pays it later in the run: test files run in name order on a worker, so this one
 * sees it unpaid).
 */

const PAUSED_DESCRIPTION = 'Gift-card season overlay, paused for non-payment';
const HOLIDAY_LIGHTS = 'Holiday Lights: season launch';

/** A client account of the customer whose contract is paused for non-payment (made by an admin, with a password). */
async function clientOfPausedCustomer(page: Page) {
  const admin = await apiAs(page.request, 'admin');
  const paused = (await admin.get<ContractSummary[]>('/api/contracts?status=paused&limit=100')).find(
    (c) => c.description === PAUSED_DESCRIPTION,
  );
  expect(paused?.pauseReason, 'the demo has a contract paused for non-payment').toBe('non_payment');
  const email = `${unique('peppermint').replace(/\s/g, '-')}@example.test`;
  await admin.post('/api/users', {
    firstName: 'Pia',
    lastName: 'Peppermint',
    email,
    password: 'mint-2026',
    role: 'client',
    commissionRate: 0,
    customerId: paused!.customerId,
    isActive: true,
  });
  return { email, password: 'mint-2026', contract: paused! };
}

async function bearerOf(page: Page, email: string, password = 'demo1234') {
  return { Authorization: `Bearer ${await tokenFor(page.request, email, password)}` };
}

async function clientApi(page: Page, email: string, password: string) {
  const headers = { Authorization: `Bearer ${await tokenFor(page.request, email, password)}` };
  return async <T>(path: string) => {
    const response = await page.request.get(path, { headers });
    expect(response.ok(), path).toBeTruthy();
    return (await response.json()) as T;
  };
}

test('a client opens a contract from the portal and from the dashboard: lines, schedule, invoices, delivery, documents', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1366, height: 800 });
  await signInAs(page, 'client', '/portal');
  const contracts = page.getByRole('table', { name: 'My contracts' });
  await contracts.getByRole('link', { name: HOLIDAY_LIGHTS }).click();
  await expect(page).toHaveURL(/\/portal\/contracts\/[0-9a-f-]{36}$/);
  const id = page.url().split('/').pop()!;
  const get = await clientApi(page, 'client@demo.test', 'demo1234');
  const detail = await get<ClientContractDetail>(`/api/client/contracts/${id}`);

  await expect(page.getByRole('heading', { level: 1 })).toHaveText(HOLIDAY_LIGHTS);
  await expect(page.getByText(`Contract #${id.slice(-6)}`)).toBeVisible();
  // What was bought: the package and its monthly amount from the billing engine.
  await expect(page.getByText(`Package: ${detail.package!.name}`)).toBeVisible();
  await expect(page.getByText('$1,500.00 a month').first()).toBeVisible();
  // The upcoming invoices, the invoices with their PDF, the documents.
  await expect(page.getByRole('heading', { name: 'Upcoming invoices' })).toBeVisible();
  await expect(page.getByTestId('schedule-item').first()).toBeVisible();
  const invoices = page.getByTestId('client-contract-invoices');
  await expect(invoices.getByTestId('client-contract-invoice').first()).toBeVisible();
  await expect(invoices.getByRole('button', { name: /PDF/ }).first()).toBeVisible();
  const documents = page.getByTestId('client-contract-documents');
  await expect(documents.getByRole('heading', { name: 'Credit notes' })).toBeVisible();
  await expect(documents.getByRole('heading', { name: 'Creatives' })).toBeVisible();
  await expect(
    documents.getByRole('list', { name: 'Invoices' }).getByRole('button', { name: /PDF/ }).first(),
  ).toBeVisible();
  await expect(page.getByTestId('payment-alerts')).toHaveCount(0);

  // A CPM campaign sold to this client today: the dashboard lists it first; its page shows its delivery.
  const admin = await apiAs(page.request, 'admin');
  const me = await (
    await page.request.get('/api/auth/me', { headers: await bearerOf(page, 'client@demo.test') })
  ).json();
  const products = await admin.get<{ id: string; priceMetric: string; name: string }[]>('/api/products?limit=100');
  const cpmProduct = products.find((p) => p.name === 'Pre-roll Impressions (15s, CPM)')!;
  const title = unique('Impressions push');
  const created = await admin.post<{ id: string }>('/api/contracts', {
    customerId: (me.user ?? me).customerId,
    title,
    startDate: new Date().toISOString().slice(0, 10),
    paymentMode: 'portal',
    makeActive: true,
    lineItems: [{ productId: cpmProduct.id, quantity: 100, unitPrice: 24, discount: 0 }],
  });
  await page.goto('/');
  const list = page.getByRole('list', { name: 'My contracts' });
  await list.getByRole('link', { name: title, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/portal/contracts/${created.id}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  const lines = page.getByRole('table', { name: 'Contract lines' });
  await expect(lines.getByTestId('client-contract-line')).toHaveCount(1);
  await expect(lines).toContainText('Pre-roll Impressions (15s, CPM)');
  await expect(lines).toContainText('CPM');
  await expect(lines).toContainText('$32.00'); // the in-season price
  await expect(page.getByRole('heading', { name: 'Delivery' })).toBeVisible();
  await expect(page.getByTestId('schedule-item').first()).toBeVisible();
  await page.screenshot({ path: 'docs/screenshots/client-contract.png', fullPage: false });

  // From the Contracts entry too; another customer's contract is not found.
  await page.goto('/contracts');
  await page.getByTestId('contract-row').getByRole('link', { name: HOLIDAY_LIGHTS }).click();
  await expect(page).toHaveURL(new RegExp(`/portal/contracts/${id}$`));
  const theirs = (await (await apiAs(page.request, 'admin')).get<ContractSummary[]>('/api/contracts?limit=100')).find(
    (c) => c.customerName === 'Frost & Pine Outfitters' && c.status !== 'draft',
  )!;
  await page.goto(`/portal/contracts/${theirs.id}`);
  await expect(page.getByRole('alert').filter({ hasText: 'Contract not found' })).toBeVisible();
});

test('an overdue invoice and a contract paused for non-payment say so with what to pay and Pay Now', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { email, password, contract } = await clientOfPausedCustomer(page);
  const get = await clientApi(page, email, password);
  const summary = await get<ClientSummary>('/api/client/summary');
  expect(summary.overdueCount).toBeGreaterThan(0);
  const oldest = summary.overdueInvoices[0];
  const due = `$${oldest.amountDue.toLocaleString('en-US', { minimumFractionDigits: 2 })} due`;

  await signInWith(page, email, password, '/');
  for (const where of ['dashboard', 'portal'] as const) {
    if (where === 'portal') await page.goto('/portal');
    const alerts = page.getByTestId('payment-alerts');
    // The first paint of a screen can be slow on a busy machine.
    await expect(alerts, where).toContainText('overdue on', { timeout: 30_000 });
    await expect(alerts.getByTestId('paused-for-non-payment'), where).toContainText(
      'is paused for non-payment: it resumes by itself when its overdue invoices are paid.',
    );
    const row = alerts.getByTestId('overdue-invoice').filter({ hasText: oldest.number });
    await expect(row, where).toContainText(due);
    await expect(row.getByRole('button', { name: `Pay ${oldest.number} now` }), where).toBeVisible();
  }

  // The paused contract's own page says the same, and Pay Now opens the checkout for the invoice.
  await page.getByTestId('paused-for-non-payment').getByRole('link').first().click();
  await expect(page).toHaveURL(new RegExp(`/portal/contracts/${contract.id}$`));
  await expect(page.getByText('Paused', { exact: true }).first()).toBeVisible();
  const alerts = page.getByTestId('payment-alerts');
  await expect(alerts).toContainText('is paused for non-payment');
  const invoiceRow = page.getByTestId('client-contract-invoice').filter({ hasText: oldest.number });
  await expect(invoiceRow).toContainText('Overdue');
  await alerts.getByRole('button', { name: `Pay ${oldest.number} now` }).click();
  await expect(page).toHaveURL(/\/checkout\/[A-Za-z0-9_-]+$/, { timeout: 20_000 });
});

test('on a 390 px phone the contract page fits, with the overdue invoice and Pay Now in view', async ({ page }) => {
  test.setTimeout(120_000);
  const { email, password, contract } = await clientOfPausedCustomer(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await signInWith(page, email, password, `/portal/contracts/${contract.id}`);
  const alerts = page.getByTestId('payment-alerts');
  await expect(alerts.getByRole('button', { name: /^Pay .* now$/ }).first()).toBeVisible();
  await expect(alerts.getByTestId('overdue-invoice').first()).toContainText('due');
  await expect(page.getByRole('heading', { name: 'Upcoming invoices' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Documents' })).toBeVisible();
  const invoice = page.getByTestId('client-contract-invoice').first();
  await invoice.scrollIntoViewIfNeeded();
  await expect(invoice).toContainText('$');
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    viewport: window.innerWidth,
  }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.viewport);
  await page.screenshot({ path: 'test-results/client-contract-phone.png', fullPage: true });
});

test('staff copy the customer portal link of a portal contract, and the client opens it', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const admin = await apiAs(page.request, 'admin');
  const contract = (await admin.get<ContractSummary[]>('/api/contracts?limit=100')).find(
    (c) => c.title === HOLIDAY_LIGHTS,
  )!;
  await signInAs(page, 'admin', `/contracts/${contract.id}`);
  const access = page.getByTestId('customer-portal-access');
  await access.getByRole('button', { name: 'Open Customer Portal' }).click();
  const link = access.getByRole('textbox');
  await expect(link).toHaveValue(new RegExp(`/portal/contracts/${contract.id}$`));
  const url = new URL(await link.inputValue());

  const client = await browser.newPage({ baseURL: page.url().replace(/\/contracts\/.*$/, '') });
  await signInAs(client, 'client', url.pathname);
  await expect(client.getByRole('heading', { level: 1 })).toHaveText(HOLIDAY_LIGHTS);
  // Managing payment details is the portal's page of the payment methods on file and autopay.
  await client.getByRole('link', { name: 'Manage payment details' }).click();
  await expect(client).toHaveURL(/\/portal\/payment-methods$/);
  await expect(client.getByRole('heading', { level: 1 })).toHaveText('Payment methods');
  await client.close();
});
