import { readFile } from 'node:fs/promises';
import type { CheckoutReceipt, PayLink } from '@shared/contracts/checkout';
import type { Contract } from '@shared/contracts/contract-responses';
import { pdfText } from '../server/test/pdf';
import { type Api, apiAs, expect, signInAs, signInWith, test, unique } from './fixtures';

/**
 * The payer's last page and the next step after signing (product.md section 17): a pay-link payer without an
 * account pays with the built-in checkout and sees what was paid, downloads the receipt and goes back to the pay
 * page (never the staff sign-in); a portal client signs the insertion order and is told when the first invoice
 * comes, and staff see what the contract waits for.
 */

/** The business day as the demo counts it (UTC), `days` from today. */
const dayFromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
/** "Dec 15, 2026", formatted here. */
const printed = (day: string) =>
  new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${day}T12:00:00Z`),
  );
const dollars = (amount: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(amount);

async function newCustomer(admin: Api, prefix: string) {
  const name = unique(prefix);
  const email = `${name.toLowerCase().replaceAll(' ', '-')}@example.test`;
  const customer = await admin.post<{ id: string }>('/api/customers', { name, email, company: name });
  return { ...customer, name, email };
}

async function contractFor(admin: Api, customerId: string, options: Record<string, unknown>) {
  const [product] = await admin.get<{ id: string }[]>('/api/products?active=true&limit=1');
  return admin.post<Contract>('/api/contracts', {
    customerId,
    title: unique('Receipt campaign'),
    termMonths: 6,
    setupFee: 0,
    lineItems: [{ productId: product.id, quantity: 1, unitPrice: 240, discount: 0 }],
    ...options,
  });
}

test('a pay-link payer sees what was paid, downloads the receipt and goes back to the pay page', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const admin = await apiAs(request, 'admin');
  const customer = await newCustomer(admin, 'Frostline Diner');
  // Live from today: its first invoice is issued at once and waits on the pay link.
  const contract = await contractFor(admin, customer.id, {
    startDate: dayFromToday(0),
    paymentMode: 'pay_link',
    sendToCustomer: false,
    makeActive: true,
  });
  const { paymentUrl } = await admin.post<{ paymentUrl: string }>(
    `/api/contracts/${contract.id}/generate-payment-link`,
    {},
  );
  const payPath = new URL(paymentUrl).pathname;
  const link = (await (await request.get(`/api${payPath.replace('/p/', '/pay/')}`)).json()) as PayLink;
  expect(link.invoices).toHaveLength(1);
  const [invoice] = link.invoices;
  const amount = dollars(link.totalDue);

  await page.goto(payPath);
  await page.getByRole('button', { name: `Pay ${amount}` }).click();
  await expect(page).toHaveURL(/\/checkout\/[A-Za-z0-9_-]+$/);
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiration (MM / YY)').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Name on card').fill('Frost Line');
  await page.getByRole('button', { name: `Pay ${amount}` }).click();

  // ui-spec's page, and what was paid.
  await expect(page).toHaveURL(new RegExp(`/payment/success\\?checkout=[A-Za-z0-9_-]+&contract=${contract.id}$`));
  await expect(page.getByRole('heading', { name: 'Payment Successful' })).toBeVisible();
  await expect(page.getByText('Thank you for your payment. A receipt is on its way to your inbox.')).toBeVisible();
  await expect(page.getByText(`Contract ID: ${contract.id}`)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Return to Dashboard' })).toHaveAttribute('href', '/');
  const checkout = new URL(page.url()).searchParams.get('checkout')!;
  const receipt = (await (await request.get(`/api/checkout/${checkout}/receipt`)).json()) as CheckoutReceipt;
  const facts = page.getByTestId('receipt-facts');
  await expect(facts.getByRole('definition').filter({ hasText: invoice.number })).toBeVisible();
  await expect(facts.getByRole('definition').filter({ hasText: amount }).first()).toBeVisible();
  await expect(facts.getByRole('definition').filter({ hasText: printed(receipt.receipt!.paidOn) })).toBeVisible();
  await expect(facts.getByText('Visa ending in 4242')).toBeVisible();
  await expect(page.getByText(`The receipt was e-mailed to ${customer.email}.`)).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('payment-success-1366.png'), fullPage: true });

  // The receipt as a PDF, through the same checkout.
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download receipt (PDF)' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`receipt-${invoice.number}.pdf`);
  const saved = testInfo.outputPath('receipt.pdf');
  await file.saveAs(saved);
  const text = pdfText(await readFile(saved));
  expect(text).toContain(invoice.number);
  expect(text).toContain(amount);
  expect(text).toContain('Visa ending in 4242');

  // It fits a phone.
  await page.setViewportSize({ width: 360, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  // The way forward is the pay page, not the staff sign-in.
  await page.getByRole('link', { name: 'Back to your payment page' }).click();
  await expect(page).toHaveURL(new RegExp(`${payPath}$`));
  await expect(page.getByRole('heading', { name: 'Nothing is due right now' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'CRM Login' })).toHaveCount(0);
});

test('a portal client signs the insertion order and is told when the first invoice comes; staff see the next step', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const admin = await apiAs(request, 'admin');
  const customer = await newCustomer(admin, 'Icicle Cinema');
  await admin.post('/api/users', {
    firstName: 'Ivy',
    lastName: 'Icicle',
    email: customer.email,
    password: 'winter-2026',
    role: 'client',
    customerId: customer.id,
    isActive: true,
  });
  const start = dayFromToday(20);
  const contract = await contractFor(admin, customer.id, {
    startDate: start,
    paymentMode: 'portal',
    sendToCustomer: true,
    makeActive: false,
  });

  await signInWith(page, customer.email, 'winter-2026', `/portal/contracts/${contract.id}`);
  const step = page.getByRole('region', { name: 'Insertion order', exact: true });
  await expect(step.getByRole('heading', { name: 'Review and sign' })).toBeVisible();
  await expect(page.getByTestId('client-next-step')).toHaveCount(0);
  await step.getByLabel('I agree to these terms').check();
  await step.getByLabel('Full name').fill('Ivy Icicle');
  await step.getByRole('button', { name: 'Accept' }).click();
  await expect(step.getByRole('heading', { name: /Signed by Ivy Icicle on .+, version 1/ })).toBeVisible();
  const next = page.getByRole('region', { name: `Signed — your first invoice is issued on ${printed(start)}` });
  await expect(next).toBeVisible();
  await expect(next).toContainText('you pay it here with Pay Now');
  await page.setViewportSize({ width: 360, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  // The portal's list says it too.
  await page.setViewportSize({ width: 1366, height: 860 });
  await page.goto('/portal');
  const row = page.getByRole('row').filter({ hasText: contract.title! });
  await expect(row.getByTestId('contract-next-step')).toHaveText(`First invoice ${printed(start)}`);

  // Staff: the contract waits for its activation.
  await signInAs(page, 'admin', `/contracts/${contract.id}`);
  const note = page.getByTestId('contract-next-step');
  await expect(note).toContainText('Signed, ready to activate');
  await expect(note).toContainText(`its first invoice is issued on ${printed(start)} once it is active`);
});
