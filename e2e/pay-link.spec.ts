import type { APIRequestContext } from '@playwright/test';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, expect, fromOurPage, test } from './fixtures';

/**
 * A customer pays a demo pay link signed out: the declined test card first (its message shows, nothing
 * is paid), then the good one (the success page, and the invoice is paid).
 */

type PayLink = {
  state: string;
  totalDue: number;
  invoices: { id: string; status: string }[];
  contract: { id: string };
  insertionOrder: { status: string } | null;
};
type ContractRow = { id: string; status: string; paymentMode: string; payLinkToken: string | null };

async function staffHeaders(request: APIRequestContext) {
  const login = await request.post('/api/auth/login', {
    data: { email: DEMO_ACCOUNTS.finance, password: DEMO_PASSWORD },
    headers: fromOurPage(),
  });
  expect(login.ok()).toBeTruthy();
  return { Authorization: `Bearer ${(await login.json()).token}` };
}

/** A demo pay link with something due now (other tests may have paid some): open invoices preferred. */
async function payLinkWithSomethingDue(request: APIRequestContext): Promise<{ token: string; link: PayLink }> {
  const headers = await staffHeaders(request);
  const contracts = (await (await request.get('/api/contracts?limit=500', { headers })).json()) as ContractRow[];
  const candidates = contracts.filter((c) => c.paymentMode === 'pay_link' && c.payLinkToken);
  const due: { token: string; link: PayLink }[] = [];
  for (const contract of candidates) {
    const response = await request.get(`/api/pay/${contract.payLinkToken}`);
    const link = (await response.json()) as PayLink;
    // Payable now: nothing to sign first, or its insertion order signed (product.md section 15).
    const payable = link.insertionOrder === null || link.insertionOrder.status === 'accepted';
    if (link.state === 'due' && payable) due.push({ token: contract.payLinkToken!, link });
  }
  const withInvoices = due.find((d) => d.link.invoices.length > 0);
  const chosen = withInvoices ?? due[0];
  expect(chosen, 'a demo pay link with something due').toBeTruthy();
  return chosen;
}

async function invoiceStatuses(request: APIRequestContext, contractId: string) {
  const headers = await staffHeaders(request);
  const rows = (await (await request.get(`/api/invoices?contractId=${contractId}&limit=100`, { headers })).json()) as {
    id: string;
    status: string;
    amountPaid: number;
  }[];
  return rows;
}

test('pay a pay link signed out: declined card, then the good card', async ({ page, request }) => {
  const { token, link } = await payLinkWithSomethingDue(request);
  const before = await invoiceStatuses(request, link.contract.id);
  const dueText = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(link.totalDue);

  await page.goto(`/p/${token}`);
  await expect(page.getByText('Total due now')).toBeVisible();
  await expect(page.getByTestId('total-due')).toHaveText(dueText);
  await page.getByRole('button', { name: `Pay ${dueText}` }).click();

  await expect(page).toHaveURL(/\/checkout\/[A-Za-z0-9_-]+$/);
  await expect(page.getByRole('heading', { name: 'Pay with card' })).toBeVisible();
  await expect(page.getByTestId('checkout-amount')).toHaveText(dueText);

  // Inline validation from the shared schema.
  await page.getByLabel('Card number').fill('4242 4242 4242 4241');
  await page.getByLabel('Name on card').click();
  await expect(page.getByText('Your card number is invalid.')).toBeVisible();

  await page.getByLabel('Card number').fill('4000 0000 0000 0002');
  await page.getByLabel('Expiration (MM / YY)').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Name on card').fill('Noel Frost');
  await page.getByRole('button', { name: `Pay ${dueText}` }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Your card was declined.' })).toBeVisible();
  await expect(page).toHaveURL(/\/checkout\//);

  // Nothing was paid: the link still asks for the same amount, no invoice gained a payment.
  const afterDecline = (await (await request.get(`/api/pay/${token}`)).json()) as PayLink;
  expect(afterDecline.state).toBe('due');
  expect(afterDecline.totalDue).toBe(link.totalDue);
  const unpaid = await invoiceStatuses(request, link.contract.id);
  expect(unpaid.filter((i) => i.status === 'paid').length).toBe(before.filter((i) => i.status === 'paid').length);

  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByRole('button', { name: `Pay ${dueText}` }).click();

  await expect(page).toHaveURL(new RegExp(`/payment/success\\?checkout=[A-Za-z0-9_-]+&contract=${link.contract.id}$`));
  await expect(page.getByRole('heading', { name: 'Payment Successful' })).toBeVisible();
  await expect(page.getByText(link.contract.id)).toBeVisible();

  // Paid: every invoice of the checkout is paid (a first payment: the contract's first invoice is).
  const after = await invoiceStatuses(request, link.contract.id);
  if (link.invoices.length > 0) {
    for (const invoice of link.invoices) expect(after.find((i) => i.id === invoice.id)?.status).toBe('paid');
    await page.goto(`/p/${token}`);
    await expect(page.getByRole('heading', { name: 'Nothing is due right now' })).toBeVisible();
    await expect(page.getByRole('button', { name: /^Pay / })).toHaveCount(0);
  } else {
    expect(after.filter((i) => i.status === 'paid').length).toBeGreaterThan(0);
  }
});

test('an unknown pay link says so', async ({ page }) => {
  await page.goto('/p/this-link-does-not-exist-at-all');
  await expect(page.getByRole('heading', { name: 'This payment link is not valid' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Pay / })).toHaveCount(0);
});
