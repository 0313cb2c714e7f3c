import { createHash } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import type { Contract } from '@shared/contracts/contract-responses';
import type { ContractInsertionOrders } from '@shared/contracts/insertion-orders';
import { type Api, apiAs, expect, fromOurPage, signInAs, signInWith, test, toast, unique } from './fixtures';
import type { Mailbox } from './mailbox';

/**
 * Signed insertion orders (product.md section 15) as their people use them: a pay-link customer reviews and
 * signs the IO on the pay page, then pays; a client signs in the portal; staff see who signed which version,
 * download both PDFs and check a file against them.
 */

const today = () => {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
};

async function newCustomer(admin: Api, prefix: string) {
  const name = unique(prefix);
  const email = `${name.toLowerCase().replaceAll(' ', '-')}@example.test`;
  const customer = await admin.post<{ id: string; email: string }>('/api/customers', {
    name,
    email,
    contactPerson: 'Noor Haddad',
    company: name,
  });
  return { ...customer, name, email };
}

async function sentContract(request: APIRequestContext, paymentMode: 'pay_link' | 'portal', customerId: string) {
  const admin = await apiAs(request, 'admin');
  const [product] = await admin.get<{ id: string }[]>('/api/products?active=true&limit=1');
  return admin.post<Contract>('/api/contracts', {
    customerId,
    title: unique('IO campaign'),
    startDate: today(),
    termMonths: 6,
    setupFee: 0,
    paymentMode,
    sendToCustomer: true,
    makeActive: false,
    lineItems: [{ productId: product.id, quantity: 1, unitPrice: 320, discount: 0 }],
  });
}

test('a pay-link customer signs the insertion order on the pay page, then pays', async ({ page, request }) => {
  test.setTimeout(120_000);
  const admin = await apiAs(request, 'admin');
  const customer = await newCustomer(admin, 'Evergreen Lodge');
  const contract = await sentContract(request, 'pay_link', customer.id);
  expect(contract.insertionOrder).toMatchObject({ version: 1, status: 'sent' });
  const { paymentUrl } = await admin.post<{ paymentUrl: string }>(
    `/api/contracts/${contract.id}/generate-payment-link`,
    {},
  );

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(new URL(paymentUrl).pathname);
  // The IO step comes first: no Pay button until it is signed.
  await expect(page.getByText('Step 1 of 2: review and sign the insertion order.')).toBeVisible();
  await expect(page.getByRole('heading', { name: contract.title! })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Pay / })).toHaveCount(0);
  // The page fits a phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: 'docs/screenshots/io-sign.png', fullPage: true });

  // The shared schema's messages, and nothing is recorded.
  await page.getByRole('button', { name: 'Accept' }).click();
  await expect(page.getByText('Tick "I agree to these terms" to accept')).toBeVisible();
  await expect(page.getByText('Enter your full name (2-100 characters)')).toBeVisible();
  const still = await admin.get<ContractInsertionOrders>(`/api/contracts/${contract.id}/io`);
  expect(still.versions[0].status).toBe('sent');

  await page.getByLabel('I agree to these terms').check();
  await page.getByLabel('Full name').fill('Noor Haddad');
  await page.getByRole('button', { name: 'Accept' }).click();

  // Signed: the page moves on to payment.
  await expect(page.getByText('Total due now')).toBeVisible();
  const pay = page.getByRole('button', { name: /^Pay \$/ });
  await pay.click();
  await expect(page).toHaveURL(/\/checkout\/[A-Za-z0-9_-]+$/);
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiration (MM / YY)').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Name on card').fill('Noor Haddad');
  await page.getByRole('button', { name: /^Pay \$/ }).click();
  await expect(page.getByRole('heading', { name: 'Payment Successful' })).toBeVisible({ timeout: 30_000 });

  const io = await admin.get<ContractInsertionOrders>(`/api/contracts/${contract.id}/io`);
  expect(io.versions[0]).toMatchObject({ version: 1, status: 'accepted', signerName: 'Noor Haddad' });
  expect(io.versions[0].events.map((e) => e.type)).toEqual(expect.arrayContaining(['sent', 'viewed', 'accepted']));
  const after = await admin.get<Contract>(`/api/contracts/${contract.id}`);
  expect(after.status).toBe('active');
});

test('a client signs the insertion order in the portal', async ({ page, request }) => {
  test.setTimeout(120_000);
  const admin = await apiAs(request, 'admin');
  const customer = await newCustomer(admin, 'Snowfield Cinemas');
  await admin.post('/api/users', {
    firstName: 'Noor',
    lastName: 'Haddad',
    email: customer.email,
    password: 'winter-2026',
    role: 'client',
    customerId: customer.id,
    isActive: true,
  });
  const contract = await sentContract(request, 'portal', customer.id);

  // "To sign" on the client's dashboard and on the portal's contracts list.
  await signInWith(page, customer.email, 'winter-2026', '/');
  const item = page
    .getByRole('list', { name: 'My contracts' })
    .getByRole('listitem')
    .filter({ hasText: contract.title! });
  await expect(item.getByText('To sign', { exact: true })).toBeVisible();
  await page.goto('/portal');
  const row = page.getByRole('row').filter({ hasText: contract.title! });
  await expect(row.getByText('To sign', { exact: true })).toBeVisible();

  await page.goto(`/portal/contracts/${contract.id}`);
  const step = page.getByRole('region', { name: 'Insertion order', exact: true });
  await expect(step.getByRole('heading', { name: 'Review and sign' })).toBeVisible();
  // Declining needs a reason: back out of it, then sign.
  await step.getByRole('button', { name: 'Decline' }).click();
  await step.getByRole('button', { name: 'Decline' }).click();
  await expect(step.getByText('Tell us why you decline (1-1000 characters)')).toBeVisible();
  await step.getByRole('button', { name: 'Back' }).click();
  await step.getByLabel('I agree to these terms').check();
  await step.getByLabel('Full name').fill('Noor Haddad');
  await step.getByRole('button', { name: 'Accept' }).click();
  await expect(step.getByRole('heading', { name: /Signed by Noor Haddad on .+, version 1/ })).toBeVisible();

  const io = await admin.get<ContractInsertionOrders>(`/api/contracts/${contract.id}/io`);
  expect(io.versions[0]).toMatchObject({ status: 'accepted', signerName: 'Noor Haddad', signerEmail: customer.email });
  await page.goto('/portal');
  await expect(page.getByRole('row').filter({ hasText: contract.title! })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: contract.title! }).getByText('To sign')).toHaveCount(0);
  await page.goto('/');
  await expect(item).toBeVisible();
  await expect(item.getByText('To sign')).toHaveCount(0);
});

test('staff see the signature and check files against the versions', async ({ page, request }, testInfo) => {
  test.setTimeout(120_000);
  const admin = await apiAs(request, 'admin');
  const customer = await newCustomer(admin, 'Glacier Outfitters');
  const contract = await sentContract(request, 'pay_link', customer.id);
  const { paymentUrl } = await admin.post<{ paymentUrl: string }>(
    `/api/contracts/${contract.id}/generate-payment-link`,
    {},
  );
  const link = await (await request.get(`/api/pay/${new URL(paymentUrl).pathname.split('/').pop()}`)).json();
  const accepted = await request.post(`/api/io/${link.insertionOrder.token}/accept`, {
    data: { signerName: 'Lena Glacier', agree: true },
    headers: fromOurPage(),
  });
  expect(accepted.ok(), await accepted.text()).toBeTruthy();

  await signInAs(page, 'admin', `/contracts/${contract.id}`);
  const card = page.locator('[aria-labelledby="io-card-title"]');
  await expect(card.getByText(/Signed by Lena Glacier on .+, version 1/)).toBeVisible();
  await expect(card.getByRole('list', { name: 'Timeline of version 1' }).getByText('Accepted')).toBeVisible();

  // Download the signed PDF and check it: it matches version 1 as signed.
  const download = page.waitForEvent('download');
  await card.getByRole('button', { name: 'Signed PDF' }).click();
  const file = testInfo.outputPath('signed.pdf');
  await (await download).saveAs(file);
  const io = await admin.get<ContractInsertionOrders>(`/api/contracts/${contract.id}/io`);
  const { readFile } = await import('node:fs/promises');
  const bytes = await readFile(file);
  expect(createHash('sha256').update(bytes).digest('hex')).toBe(io.versions[0].signedSha256);

  await card.getByLabel('PDF to verify').setInputFiles(file);
  await expect(card.getByTestId('io-verify-result')).toContainText('Matches version 1 as signed');
  // A PDF that is not one of them.
  await card.getByLabel('PDF to verify').setInputFiles({
    name: 'other.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1'),
  });
  await expect(card.getByTestId('io-verify-result')).toContainText('Does not match any version of this contract');
});

/** The insertion order link of the newest "Review and sign" e-mail to `email` whose token is not in `seen`. */
async function ioLinkMailed(mailbox: Mailbox, email: string, seen: string[] = []) {
  const tokenOf = (text: string) =>
    /Review and sign the insertion order first: \S*\/io\/([A-Za-z0-9_-]+)/.exec(text)?.[1];
  const mail = await mailbox.waitFor((m) => {
    const token = m.to.includes(email) ? tokenOf(m.text) : undefined;
    return token !== undefined && !seen.includes(token);
  });
  return tokenOf(mail.text)!;
}

test('a customer declines from the e-mailed link; Send to Customer sends version 2, and the first link names it', async ({
  page,
  request,
  mailbox,
}) => {
  test.setTimeout(120_000);
  const admin = await apiAs(request, 'admin');
  const customer = await newCustomer(admin, 'Birchwood Bakery');
  const contract = await sentContract(request, 'pay_link', customer.id);
  const first = await ioLinkMailed(mailbox, customer.email);

  // The e-mailed link: the public page, signed out, with the PDF inline and the figures agreed to.
  await page.goto(`/io/${first}`);
  await expect(page.getByRole('heading', { level: 1, name: contract.title! })).toBeVisible();
  await expect(page.getByText(/Insertion order · version 1 · sent /)).toBeVisible();
  await expect(page.getByTitle('Insertion order, version 1 (PDF)')).toHaveAttribute(
    'src',
    new RegExp(`/api/io/${first}/pdf$`),
  );
  await expect(page.getByRole('link', { name: 'Download PDF' })).toHaveAttribute(
    'href',
    new RegExp(`/api/io/${first}/pdf$`),
  );
  // One line at $320.00 a month: the monthly figure and the first invoice's.
  await expect(page.getByRole('definition').filter({ hasText: '$320.00' }).first()).toBeVisible();

  // Decline, saying why.
  await page.getByRole('button', { name: 'Decline' }).click();
  await page.getByLabel('Why do you decline?').fill('The start date is too early for us');
  await page.getByRole('button', { name: 'Decline' }).click();
  await expect(page.getByRole('heading', { name: 'You declined this insertion order' })).toBeVisible();
  await expect(page.getByText('“The start date is too early for us”')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Accept' })).toHaveCount(0);

  // Staff: the card says so, and Send to Customer (offered again for a declined IO) sends version 2.
  await signInAs(page, 'admin', `/contracts/${contract.id}`);
  const card = page.locator('[aria-labelledby="io-card-title"]');
  await expect(card.getByText('Version 1 was declined: “The start date is too early for us”')).toBeVisible();
  await page
    .getByRole('region', { name: 'Contract status actions' })
    .getByRole('button', { name: 'Send to Customer' })
    .click();
  await expect(toast(page, 'Contract sent')).toBeVisible();
  await expect(card.getByText("Version 2 awaits the customer's signature (2 versions sent)")).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Contract status actions' }).getByRole('button', { name: 'Send to Customer' }),
  ).toHaveCount(0);
  // Version 1 is kept, collapsed, with its timeline.
  await card.getByText('Earlier versions (1)').click();
  const v1 = card.getByRole('list', { name: 'Timeline of version 1' });
  await expect(v1.getByText('Declined', { exact: true })).toBeVisible();
  await expect(v1.getByText('The start date is too early for us')).toBeVisible();

  // The first link now names the newest version, whose own link was e-mailed.
  const second = await ioLinkMailed(mailbox, customer.email, [first]);
  await page.context().clearCookies();
  await page.goto(`/io/${first}`);
  await expect(page.getByRole('heading', { name: 'A newer version of this insertion order was sent' })).toBeVisible();
  const open = page.getByRole('link', { name: 'Open version 2' });
  await expect(open).toHaveAttribute('href', new RegExp(`/io/${second}$`));
  await page.goto(new URL((await open.getAttribute('href'))!, page.url()).pathname);
  await expect(page.getByText(/Insertion order · version 2 · sent /)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Review and sign' })).toBeVisible();
});

test('the terms set in Contract Settings are the terms of the next insertion order', async ({ page, request }) => {
  test.setTimeout(120_000);
  const admin = await apiAs(request, 'admin');
  const before = await admin.get<Record<string, unknown>>('/api/settings/contracts');
  const terms = `${unique('Terms')}: ads run as booked; changes need a new insertion order.`;
  try {
    await signInAs(page, 'admin', '/settings');
    await page.getByRole('tab', { name: 'Contract Settings' }).click();
    const field = page.getByLabel('Insertion Order Terms');
    await expect(field).toHaveValue(before.ioTerms as string);
    await field.fill(terms);
    await page.getByRole('button', { name: 'Save Contract Settings' }).click();
    await expect(toast(page, 'Contract settings saved')).toBeVisible();
    await page.reload();
    await page.getByRole('tab', { name: 'Contract Settings' }).click();
    await expect(page.getByLabel('Insertion Order Terms')).toHaveValue(terms);

    // A contract sent now prints them.
    const customer = await newCustomer(admin, 'Juniper Books');
    const contract = await sentContract(request, 'pay_link', customer.id);
    const { paymentUrl } = await admin.post<{ paymentUrl: string }>(
      `/api/contracts/${contract.id}/generate-payment-link`,
      {},
    );
    const link = await (await request.get(`/api/pay/${new URL(paymentUrl).pathname.split('/').pop()}`)).json();
    const io = await (await request.get(`/api/io/${link.insertionOrder.token}`)).json();
    expect(io.figures.terms).toBe(terms);
  } finally {
    await admin.put('/api/settings/contracts', before);
  }
});

test('an edit of a sent contract supersedes its insertion order; Send to Customer sends the next version', async ({
  page,
  request,
  mailbox,
}) => {
  test.setTimeout(120_000);
  const admin = await apiAs(request, 'admin');
  const customer = await newCustomer(admin, 'Cedar Hall');
  const contract = await sentContract(request, 'portal', customer.id);
  const first = await ioLinkMailed(mailbox, customer.email);

  // A portal contract stays editable once sent: two units instead of one.
  await admin.patch(`/api/contracts/${contract.id}`, {
    customerId: customer.id,
    title: contract.title,
    startDate: contract.startDate,
    termMonths: 6,
    setupFee: 0,
    paymentMode: 'portal',
    sendToCustomer: false,
    makeActive: false,
    lineItems: [{ productId: contract.lineItems[0].productId, quantity: 2, unitPrice: 320, discount: 0 }],
  });

  // The customer's link: the version can no longer be signed.
  await page.goto(`/io/${first}`);
  await expect(page.getByRole('heading', { name: 'This insertion order was changed' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Accept' })).toHaveCount(0);

  // Staff: what changed and what Send to Customer does.
  await signInAs(page, 'admin', `/contracts/${contract.id}`);
  const card = page.locator('[aria-labelledby="io-card-title"]');
  await expect(
    card.getByText('The contract changed since version 1 was sent: Send to Customer sends version 2'),
  ).toBeVisible();
  await expect(
    card.getByRole('list', { name: 'Timeline of version 1' }).getByText('Superseded', { exact: true }),
  ).toBeVisible();
  const actions = page.getByRole('region', { name: 'Contract status actions' });
  await actions.getByRole('button', { name: 'Send to Customer' }).click();
  await expect(toast(page, 'Contract sent')).toBeVisible();
  await expect(card.getByText("Version 2 awaits the customer's signature (2 versions sent)")).toBeVisible();
  await expect(actions.getByRole('button', { name: 'Send to Customer' })).toHaveCount(0);
  const second = await ioLinkMailed(mailbox, customer.email, [first]);
  expect(second).not.toBe(first);
});
