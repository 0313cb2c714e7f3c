import fs from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import type { PaymentMethods } from '@shared/contracts/autopay';
import type { InvoiceSummary } from '@shared/contracts/invoices';
import { type Api, apiAs, expect, fromOurPage, signInAs, signInWith, test, toast, unique } from './fixtures';
import type { Mailbox } from './mailbox';

/**
 * Autopay in the browser (product.md section 18), each customer made fresh through the API: a pay-link checkout
 * that saves its card (finance then reads the method and its consent record on the customer page); a set-up link
 * e-mailed by finance and opened from the e-mail, whose card is declined for insufficient funds on the overdue
 * invoice (the invoice dialog's attempts, then "Charge now"); the client portal's Payment methods (add, autopay off
 * and on, remove); and an expired card's hard decline.
 *
 * With AUTOPAY_SHOTS=<folder> it also saves there the portal's Payment methods page, the set-up page, the invoice
 * dialog's attempts and the customer page's expired card, each at 360 px and at desktop width.
 */

const SHOTS = process.env.AUTOPAY_SHOTS;
const DESKTOP = { width: 1366, height: 860 };
const PHONE = { width: 360, height: 780 };

const money = (amount: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(amount);
const isoDay = (offsetDays = 0) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

/** The whole page, or one part of it, at 360 px and at desktop width (only with AUTOPAY_SHOTS). */
async function shoot(page: Page, name: string, part?: Locator) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const [label, viewport] of [
    ['360', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    await page.setViewportSize(viewport);
    const file = path.join(SHOTS, `${name}-${label}.png`);
    await (part ? part.screenshot({ path: file }) : page.screenshot({ path: file, fullPage: true }));
  }
}

/** A new customer with an e-mail address of its own. */
async function newCustomer(admin: Api, prefix: string) {
  const name = unique(prefix);
  const email = `${name.toLowerCase().replace(/\W+/g, '-')}@example.test`;
  const customer = await admin.post<{ id: string; name: string }>('/api/customers', {
    name,
    email,
    contactPerson: 'Mia Lind',
    company: name,
  });
  return { id: customer.id, name, email };
}

/**
 * An active $200.00 pay-link contract of the customer starting `startDate` (its first invoice is due a week later:
 * overdue when it started more than a week ago); answers the contract and its first invoice.
 */
async function activePayLinkContract(request: APIRequestContext, customerId: string, startDate: string) {
  const admin = await apiAs(request, 'admin');
  const [product] = await admin.get<{ id: string }[]>('/api/products?active=true&limit=1');
  const contract = await admin.post<{ id: string; status: string; payLinkToken: string | null }>('/api/contracts', {
    customerId,
    title: unique('Autopay campaign'),
    startDate,
    termMonths: 6,
    paymentMode: 'pay_link',
    setupFee: 0,
    sendToCustomer: false,
    makeActive: true,
    lineItems: [{ productId: product.id, quantity: 1, unitPrice: 200, discount: 0 }],
  });
  expect(contract.status).toBe('active');
  const finance = await apiAs(request, 'finance');
  const invoices = await finance.get<InvoiceSummary[]>(`/api/invoices?contractId=${contract.id}&limit=50`);
  const [first] = [...invoices].sort((a, b) => a.periodStart.localeCompare(b.periodStart));
  expect(first, 'the contract issued its first invoice').toBeTruthy();
  return { contract, invoice: first };
}

/** Finance e-mails the customer a set-up link through the API; answers the link as the e-mail carries it. */
async function setupLinkByEmail(request: APIRequestContext, mailbox: Mailbox, customer: { id: string; email: string }) {
  const finance = await apiAs(request, 'finance');
  await finance.post(`/api/customers/${customer.id}/payment-setup-link`, {});
  return setupLinkIn(mailbox, customer.email);
}

async function setupLinkIn(mailbox: Mailbox, email: string): Promise<string> {
  const mail = await mailbox.waitFor((m) => m.to.includes(email) && m.subject.startsWith('Set up automatic payment'));
  const link = /Save a payment method: (\S+)/.exec(mail.text)?.[1];
  expect(link, mail.text).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/setup\/[A-Za-z0-9_-]{43}$/);
  return link!;
}

/** The card fields of the checkout and the set-up page (one form, one set of labels). */
async function fillCard(page: Page, number: string, name = 'Mia Lind') {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiration (MM / YY)').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Name on card').fill(name);
}

/** Opens an invoice of the contract page's Invoice history in the invoice dialog. */
async function openInvoiceDialog(page: Page, contractId: string, number: string) {
  await signInAs(page, 'finance', `/contracts/${contractId}`);
  await page.getByTestId('invoice-history').getByRole('button', { name: number, exact: true }).click();
  const dialog = page.getByTestId('invoice-dialog');
  await expect(dialog.getByRole('heading', { name: number })).toBeVisible();
  return dialog;
}

test.describe('autopay', () => {
  test.use({ viewport: DESKTOP });

  test('a pay-link checkout saves its card: the customer has autopay, and finance sees the method and its consent', async ({
    page,
    request,
  }) => {
    const admin = await apiAs(request, 'admin');
    const customer = await newCustomer(admin, 'Saffron Kitchens');
    const { contract } = await activePayLinkContract(request, customer.id, isoDay());
    expect(contract.payLinkToken).toBeTruthy();
    const link = (await (await request.get(`/api/pay/${contract.payLinkToken}`)).json()) as {
      state: string;
      totalDue: number;
    };
    expect(link.state).toBe('due');
    const due = money(link.totalDue);

    await page.goto(`/p/${contract.payLinkToken}`);
    await page.getByRole('button', { name: `Pay ${due}` }).click();
    await expect(page.getByRole('heading', { name: 'Pay with card' })).toBeVisible();
    await fillCard(page, '4242 4242 4242 4242', 'Noel Frost');
    const save = page.getByRole('checkbox', {
      name: 'Save this card and pay future invoices of this contract automatically',
    });
    await expect(save).not.toBeChecked();
    await save.check();
    // The consent the box stands for shows under it once ticked.
    const consent = page.getByText(/^I authorise .+ to charge this payment method for the invoices of my contracts/);
    await expect(consent).toBeVisible();
    const consentText = (await consent.textContent())!;
    await page.getByRole('button', { name: `Pay ${due}` }).click();
    await expect(page.getByRole('heading', { name: 'Payment Successful' })).toBeVisible();

    // The customer now has autopay, to the card just paid with.
    const finance = await apiAs(request, 'finance');
    const methods = await finance.get<PaymentMethods>(`/api/customers/${customer.id}/payment-methods`);
    expect(methods.autopay.enabled).toBe(true);
    expect(methods.methods.map((m) => [m.label, m.isDefault, m.status])).toEqual([['Visa •••• 4242', true, 'active']]);

    await signInAs(page, 'finance', `/customers/${customer.id}`);
    const card = page.getByTestId('payment-methods-card');
    await expect(card.getByRole('heading', { name: 'Payment methods and autopay' })).toBeVisible();
    await expect(card.getByTestId('autopay-state')).toHaveText(
      'Autopay on: invoices are charged to Visa •••• 4242 on their due date',
    );
    const row = card.getByTestId('payment-method-row');
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('Visa •••• 4242');
    await expect(row).toContainText('Default');
    await expect(row).toContainText('12/2034');
    await expect(row).toContainText('Active');
    await expect(row).toContainText('Noel Frost');
    await expect(row).toContainText(customer.email);

    const record = row.getByTestId('consent-record');
    await expect(record.getByText('Text agreed')).toBeHidden();
    await record.getByText('Consent record').click();
    await expect(record.getByText('Text agreed')).toBeVisible();
    await expect(record.getByText(consentText, { exact: true })).toBeVisible();
    await expect(record.locator('dd').nth(1)).toHaveText('127.0.0.1');
    await expect(record.locator('dd').nth(2)).toContainText('Chrome');
  });

  test('a set-up link e-mailed by finance saves a card with too little funds: the overdue invoice fails, and Charge now fails again', async ({
    page,
    browser,
    request,
    mailbox,
  }) => {
    const admin = await apiAs(request, 'admin');
    const customer = await newCustomer(admin, 'Juniper Dental');
    // Started ten days ago: its first invoice was due three days ago.
    const { contract, invoice } = await activePayLinkContract(request, customer.id, isoDay(-10));
    expect(invoice.overdue).toBe(true);

    await signInAs(page, 'finance', `/customers/${customer.id}`);
    const card = page.getByTestId('payment-methods-card');
    await expect(card.getByTestId('autopay-state')).toHaveText('Autopay off');
    await expect(card.getByText('No payment method on file.')).toBeVisible();
    const send = card.getByRole('button', { name: `E-mail ${customer.name} a link to save a payment method` });
    await expect(send).toHaveText('Send set-up link');
    await send.click();
    await expect(toast(page, `Set-up link sent to ${customer.email}`)).toBeVisible();

    // The customer opens the link of the e-mail, signed out.
    const url = await setupLinkIn(mailbox, customer.email);
    const context = await browser.newContext({ viewport: DESKTOP });
    const customerPage = await context.newPage();
    await customerPage.goto(url);
    await expect(
      customerPage.getByRole('heading', { name: `Save a payment method for ${customer.name}` }),
    ).toBeVisible();
    await fillCard(customerPage, '4000 0000 0000 9995');
    await customerPage.getByRole('button', { name: 'Save payment method' }).click();
    await expect(customerPage.getByText('Please agree to automatic payments to save this card')).toBeVisible();
    await customerPage.getByRole('checkbox', { name: /^I authorise .+ to charge this payment method/ }).check();
    await expect(customerPage.getByText('Please agree to automatic payments to save this card')).toBeHidden();
    await customerPage.getByRole('button', { name: 'Save payment method' }).click();
    await expect(customerPage.getByRole('heading', { name: 'Payment method saved' })).toBeVisible();
    await expect(customerPage.getByText('Visa •••• 9995', { exact: true })).toBeVisible();
    await context.close();

    // Saved, the overdue invoice was charged at once and declined; the next attempt is scheduled.
    const dialog = await openInvoiceDialog(page, contract.id, invoice.number);
    const autopay = dialog.getByTestId('invoice-autopay');
    await expect(autopay.getByRole('heading', { name: 'Autopay' })).toBeVisible();
    const attempts = autopay.getByRole('table', { name: `Autopay attempts of ${invoice.number}` });
    const rows = attempts.getByTestId('autopay-attempt');
    await expect(rows).toHaveCount(1);
    await expect(rows.nth(0).getByRole('rowheader')).toHaveText('Attempt 1');
    await expect(rows.nth(0)).toContainText('Failed');
    await expect(rows.nth(0)).toContainText('Your card has insufficient funds.');
    await expect(rows.nth(0).getByRole('cell').last()).not.toHaveText('—');

    await autopay
      .getByRole('button', { name: `Charge ${invoice.number} to the customer's payment method now` })
      .click();
    await expect(toast(page, 'Charge failed')).toContainText('Your card has insufficient funds.');
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(1).getByRole('rowheader')).toHaveText('Attempt 2');
    await expect(rows.nth(1)).toContainText('Failed');
    await expect(rows.nth(1)).toContainText('Your card has insufficient funds.');
    await expect(dialog.getByTestId('invoice-amount-due')).toContainText(money(invoice.amountDue));
    // At 1366 px the attempts fit the dialog's column: no sideways scroll, the last column in view.
    await expect(autopay.getByRole('region', { name: /scrolls sideways/ })).toHaveCount(0);
    await expect(rows.nth(1).getByRole('cell').last()).toBeInViewport();
    await shoot(page, 'invoice-autopay', autopay);
    // On a phone each attempt is a card titled "Attempt 2", the word shown.
    await page.setViewportSize(PHONE);
    const cards = autopay
      .getByRole('list', { name: `Autopay attempts of ${invoice.number}` })
      .getByTestId('autopay-attempt');
    await expect(cards).toHaveCount(2);
    await expect(cards.nth(1).getByText('Attempt 2', { exact: true })).toBeVisible();
    // The word is laid out, not the 1 px box of a text for screen readers only.
    const word = await cards.nth(1).getByText('Attempt', { exact: true }).boundingBox();
    expect(word?.width).toBeGreaterThan(20);
  });

  test('a client adds a card in the portal, turns autopay off and on, and removes the card', async ({
    page,
    request,
  }) => {
    const admin = await apiAs(request, 'admin');
    const customer = await newCustomer(admin, 'Birch Yoga');
    const email = `client-${customer.email}`;
    await admin.post('/api/users', {
      firstName: 'Mia',
      lastName: 'Lind',
      email,
      password: 'birch-2026',
      role: 'client',
      commissionRate: 0,
      customerId: customer.id,
      isActive: true,
    });
    await signInWith(page, email, 'birch-2026', '/');
    await page.getByRole('link', { name: 'Payment methods' }).click();
    await expect(page).toHaveURL(/\/portal\/payment-methods$/);
    await expect(page.getByRole('heading', { name: 'Payment methods', level: 1 })).toBeVisible();
    await expect(page.getByText('No payment method on file yet.')).toBeVisible();
    const autopay = page.getByRole('switch', { name: 'Autopay' });
    await expect(autopay).not.toBeChecked();
    await expect(autopay).toBeDisabled();
    await expect(page.getByTestId('autopay-hint')).toHaveText('Add a payment method before turning autopay on.');

    await page.getByRole('button', { name: 'Add a payment method' }).click();
    await expect(page).toHaveURL(/\/setup\/[A-Za-z0-9_-]{43}$/);
    await expect(page.getByRole('heading', { name: `Save a payment method for ${customer.name}` })).toBeVisible();
    // The first method is the default anyway: no "Make default" box.
    await expect(page.getByRole('checkbox', { name: 'Make default' })).toHaveCount(0);
    await shoot(page, 'setup');
    await fillCard(page, '5555 5555 5555 4444');
    await page.getByRole('checkbox', { name: /^I authorise .+ to charge this payment method/ }).check();
    await page.getByRole('button', { name: 'Save payment method' }).click();
    await expect(page.getByRole('heading', { name: 'Payment method saved' })).toBeVisible();
    await expect(page.getByText(/is saved: your invoices will be charged to it automatically/)).toContainText(
      'Mastercard •••• 4444',
    );
    await page.getByRole('link', { name: 'Back to payment methods' }).click();

    await expect(page).toHaveURL(/\/portal\/payment-methods$/);
    const method = page.getByTestId('payment-method');
    await expect(method).toHaveCount(1);
    await expect(method).toContainText('Mastercard •••• 4444');
    await expect(method).toContainText('Default');
    await expect(method).toContainText('Expires 12/2034');
    await expect(autopay).toBeChecked();
    await expect(
      page.getByText('On: open invoices are charged to Mastercard •••• 4444 on their due date.'),
    ).toBeVisible();
    await shoot(page, 'payment-methods');

    await autopay.click();
    await expect(toast(page, 'Autopay is off')).toBeVisible();
    await expect(autopay).not.toBeChecked();
    await expect(page.getByText('Off: you pay each invoice yourself.')).toBeVisible();
    await autopay.click();
    await expect(toast(page, 'Autopay is on')).toBeVisible();
    await expect(autopay).toBeChecked();
    await expect(
      page.getByText('On: open invoices are charged to Mastercard •••• 4444 on their due date.'),
    ).toBeVisible();

    await method.getByRole('button', { name: 'Remove Mastercard •••• 4444' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Remove Mastercard •••• 4444?' });
    await expect(confirm).toContainText('autopay turns off, and you pay each invoice yourself.');
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await expect(toast(page, 'Payment method removed. Autopay is now off: no method is left to charge.')).toBeVisible();
    await expect(confirm).toBeHidden();
    await expect(method).toHaveCount(0);
    await expect(page.getByText('No payment method on file yet.')).toBeVisible();
    await expect(autopay).not.toBeChecked();
    await expect(autopay).toBeDisabled();
  });

  test('an expired card is declined for good: the invoice dialog says why, with no retry and no Charge now', async ({
    page,
    request,
    mailbox,
  }) => {
    const admin = await apiAs(request, 'admin');
    const customer = await newCustomer(admin, 'Cobalt Printers');
    const { contract, invoice } = await activePayLinkContract(request, customer.id, isoDay(-10));
    expect(invoice.overdue).toBe(true);
    // The customer saves the card through the e-mailed link (the set-up page is test 2's and 3's).
    const url = await setupLinkByEmail(request, mailbox, customer);
    const token = url.split('/').pop();
    const saved = await request.post(`/api/setup/${token}`, {
      data: { cardNumber: '4000000000000069', expiry: '12 / 34', cvc: '123', name: 'Mia Lind', consent: true },
      headers: fromOurPage(),
    });
    expect(saved.ok(), await saved.text()).toBeTruthy();

    const dialog = await openInvoiceDialog(page, contract.id, invoice.number);
    const autopay = dialog.getByTestId('invoice-autopay');
    const rows = autopay
      .getByRole('table', { name: `Autopay attempts of ${invoice.number}` })
      .getByTestId('autopay-attempt');
    await expect(rows).toHaveCount(1);
    await expect(rows.nth(0).getByRole('rowheader')).toHaveText('Attempt 1');
    await expect(rows.nth(0)).toContainText('Failed');
    await expect(rows.nth(0)).toContainText('Your card has expired.');
    // A hard decline is not retried, and the card is no longer charged.
    await expect(rows.nth(0).getByRole('cell').last()).toHaveText('—');
    await expect(autopay.getByRole('button', { name: /to the customer's payment method now/ })).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();

    await page.goto(`/customers/${customer.id}`);
    const row = page.getByTestId('payment-methods-card').getByTestId('payment-method-row');
    await expect(row).toContainText('Visa •••• 0069');
    await expect(row).toContainText('Expired');
    // Autopay stays on with nothing to charge: finance is told to send a set-up link, and can still turn it off.
    const card = page.getByTestId('payment-methods-card');
    await expect(card.getByTestId('autopay-state')).toHaveText(
      'Autopay on, but no active payment method to charge: send the customer a set-up link.',
    );
    await expect(card.getByRole('button', { name: 'Turn autopay off' })).toBeVisible();
    await shoot(page, 'customer-expired-card', page.getByTestId('payment-methods-card'));
  });
});
