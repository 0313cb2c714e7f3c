import type { APIRequestContext, Page } from '@playwright/test';
import { apiAs, DEMO_ACCOUNTS, DEMO_PASSWORD, expect, fromOurPage, signInWith, test, toast, unique } from './fixtures';

/**
 * The client portal end to end: a new client is invited by e-mail (a set-password link, read from the
 * delivered e-mail; admins see it in the outbox with its token hidden), sets a password, signs in, sees its
 * real figures, pays its invoice with Pay Now, uploads a creative and downloads it; staff record the delivery
 * of a CPM line that the client then sees.
 */

type OutboxRow = { to: string; subject: string; text: string; entityId: string | null };
type Invoice = { id: string; number: string; status: string; amount: number; amountDue: number; dueDate: string };

const money = (amount: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(amount);
const day = (iso: string) =>
  new Date(`${iso}T00:00:00`).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
const today = () => {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
};

async function bearer(request: APIRequestContext, email: string, password = DEMO_PASSWORD) {
  const login = await request.post('/api/auth/login', { data: { email, password }, headers: fromOurPage() });
  expect(login.ok(), `sign-in as ${email}`).toBeTruthy();
  return { Authorization: `Bearer ${(await login.json()).token}` };
}

async function getJson<T>(request: APIRequestContext, path: string, headers: Record<string, string>): Promise<T> {
  const response = await request.get(path, { headers });
  expect(response.ok(), `GET ${path}`).toBeTruthy();
  return (await response.json()) as T;
}

/** A new customer with a portal contract for one product line (sent to the customer, or made active). */
async function newCustomerWithContract(
  request: APIRequestContext,
  options: { sendToCustomer?: boolean; makeActive?: boolean },
) {
  const admin = await apiAs(request, 'admin');
  const headers = await bearer(request, DEMO_ACCOUNTS.admin);
  const name = unique('Aurora Cinemas');
  const email = `${name.toLowerCase().replaceAll(' ', '-')}@example.test`;
  const customer = await admin.post('/api/customers', { name, email, contactPerson: 'Mia Lind', company: name });
  const [product] = await getJson<{ id: string }[]>(request, '/api/products?limit=1', headers);
  const title = `${name} winter campaign`;
  const contract = await admin.post('/api/contracts', {
    customerId: customer.id,
    title,
    startDate: today(),
    paymentMode: 'portal',
    sendToCustomer: options.sendToCustomer ?? false,
    makeActive: options.makeActive ?? false,
    lineItems: [{ productId: product.id, quantity: 1, unitPrice: 250, discount: 0 }],
  });
  return { admin, headers, customer, email, contract, title };
}

/** A PDF of the given size (a real header and trailer around padding). */
function pdfBytes(size: number): Buffer {
  const head = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n', 'latin1');
  const tail = Buffer.from('\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1');
  return Buffer.concat([head, Buffer.alloc(size - head.length - tail.length, 0x20), tail]);
}

async function throttleUploads(page: Page, bytesPerSecond: number) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond,
  });
  return () =>
    cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
}

test('a new client sets a password from the e-mailed link, signs in, pays with Pay Now, uploads a creative and downloads it', async ({
  page,
  request,
  mailbox,
}) => {
  test.setTimeout(240_000);
  const { admin, headers, email, contract, title } = await newCustomerWithContract(request, { sendToCustomer: true });
  expect(contract.status).toBe('sent');

  // The invitation as admins read it in the outbox: a set-password link with its token hidden, no password.
  const outbox = await getJson<OutboxRow[]>(request, '/api/outbox?limit=200', headers);
  const mail = outbox.find((m) => m.to === email && m.entityId === contract.id);
  expect(mail, 'the invitation is in the outbox').toBeTruthy();
  expect(mail!.text).not.toMatch(/temporary password/i);
  expect(mail!.text).toMatch(/Set your password: \S+\/set-password\?token=\[hidden\]$/m);
  // The invitation as the client receives it: the link that works.
  const delivered = await mailbox.waitFor((m) => m.to.includes(email) && m.text.includes('Set your password:'));
  expect(delivered.text).not.toMatch(/temporary password/i);
  const link = /Set your password: (\S+)/.exec(delivered.text)?.[1];
  expect(link).toMatch(/\/set-password\?token=[A-Za-z0-9_-]{43}$/);
  const url = new URL(link!);

  // The public screen: the form's rules, then the password is set and nobody is signed in.
  await page.goto(url.pathname + url.search);
  await expect(page.getByRole('heading', { name: 'Set your password' })).toBeVisible();
  await page.getByLabel('New Password').fill('short');
  await page.getByLabel('Confirm Password').fill('other');
  await page.getByRole('button', { name: 'Set Password' }).click();
  await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();
  await page.getByLabel('New Password').fill('aurora-2026');
  await page.getByLabel('Confirm Password').fill('aurora-2026');
  await page.getByRole('button', { name: 'Set Password' }).click();
  await expect(page.getByRole('heading', { name: 'Password set' })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();

  // The link works once.
  await page.goto(url.pathname + url.search);
  await page.getByLabel('New Password').fill('another-1');
  await page.getByLabel('Confirm Password').fill('another-1');
  await page.getByRole('button', { name: 'Set Password' }).click();
  await expect(page.getByRole('heading', { name: 'This link cannot be used' })).toBeVisible();
  await expect(page.getByText('This link has already been used.')).toBeVisible();

  // Signing in through the login screen, as the client would.
  await page.getByRole('link', { name: 'Go to Sign In' }).click();
  await page.getByLabel('Email Address').fill(email);
  await page.getByLabel('Password').fill('aurora-2026');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('heading', { name: 'Welcome, Mia!' })).toBeVisible();

  // Staff activate the contract: its first invoice is issued.
  await admin.post(`/api/contracts/${contract.id}/activate`, {});
  const clientHeaders = await bearer(request, email, 'aurora-2026');
  const invoices = await getJson<Invoice[]>(request, '/api/client/invoices', clientHeaders);
  expect(invoices.length).toBeGreaterThan(0);
  const pending = invoices.filter((i) => i.status === 'pending');
  const outstanding = pending.reduce((sum, i) => sum + Math.round(i.amountDue * 100), 0) / 100;
  const first = [...pending].sort((a, b) => a.dueDate.localeCompare(b.dueDate))[0];

  // Real figures on the dashboard: the active contract, what is due, when.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Welcome, Mia!' })).toBeVisible();
  const card = (label: string) => page.locator('main').locator('div.p-5', { hasText: label });
  await expect(card('Active Contracts')).toContainText('1');
  await expect(card('Outstanding Balance')).toContainText(money(outstanding));
  await expect(card('Next Payment')).toContainText(money(first.amountDue));
  await expect(card('Next Payment')).toContainText(`Due ${day(first.dueDate)}`);
  await expect(card('Account Status')).toContainText('Active');
  await expect(page.getByText(title)).toBeVisible();
  await expect(page.getByText(`Invoice #${first.id.slice(-6)}`)).toBeVisible();

  // The portal: the same figures, the invoice with Pay Now and its PDF.
  await page.getByRole('link', { name: 'Client Portal' }).first().click();
  await expect(page.getByRole('heading', { name: 'Client Portal' })).toBeVisible();
  await expect(page.getByTestId('figure-active-campaigns')).toContainText('1');
  await expect(page.getByTestId('figure-outstanding-balance')).toContainText(money(outstanding));
  const row = page.getByTestId('client-invoice').filter({ hasText: first.number });
  await expect(row).toContainText('Pending');
  const pdf = page.waitForEvent('download');
  await row.getByRole('button', { name: `Download ${first.number} as PDF` }).click();
  expect((await pdf).suggestedFilename()).toBe(`${first.number}.pdf`);

  // Pay Now: the built-in checkout with the test card, then the success page.
  await row.getByRole('button', { name: `Pay ${first.number} now` }).click();
  await expect(page).toHaveURL(/\/checkout\/[A-Za-z0-9_-]+$/);
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiration (MM / YY)').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Name on card').fill('Mia Lind');
  await page.getByRole('button', { name: /^Pay \$/ }).click();
  await expect(page.getByRole('heading', { name: 'Payment Successful' })).toBeVisible();

  await page.goto('/portal');
  const paidRow = page.getByTestId('client-invoice').filter({ hasText: first.number });
  await expect(paidRow).toContainText('Paid');
  await expect(paidRow.getByRole('button', { name: /now$/ })).toHaveCount(0);
  await expect(page.getByTestId('figure-outstanding-balance')).toContainText(money(outstanding - first.amountDue));

  // A creative: a progress bar while it travels (uploads throttled to 256 KB/s), then listed, then downloaded.
  await expect(page.getByText(`For ${title}`)).toBeVisible();
  await expect(page.getByText('Up to 10MB each for images, videos, pdf, doc, docx')).toBeVisible();
  const bytes = pdfBytes(1024 * 1024);
  await page
    .getByLabel('Creative file')
    .setInputFiles({ name: 'winter-banner.pdf', mimeType: 'application/pdf', buffer: bytes });
  const unthrottle = await throttleUploads(page, 256 * 1024);
  await page.getByRole('button', { name: 'Upload' }).click();
  const progress = page.getByRole('progressbar', { name: 'Upload progress' });
  await expect(progress).toBeVisible();
  await expect(page.getByText(/Uploading\.\.\. \d+%/)).toBeVisible();
  await expect(toast(page, 'Creative uploaded')).toBeVisible({ timeout: 30_000 });
  await unthrottle();
  await expect(progress).toHaveCount(0);
  const listed = page.getByRole('list', { name: `Creatives for ${title}` }).getByTestId('creative');
  await expect(listed).toHaveCount(1);
  await expect(listed).toContainText('winter-banner.pdf');
  await expect(listed).toContainText('PDF · 1 MB');
  const download = page.waitForEvent('download');
  await listed.getByRole('button', { name: 'Download winter-banner.pdf' }).click();
  const saved = await (await download).path();
  const { readFile } = await import('node:fs/promises');
  expect(Buffer.compare(await readFile(saved!), bytes)).toBe(0);

  // Staff see it on the contract page, with a download.
  await signInWith(page, DEMO_ACCOUNTS.admin, DEMO_PASSWORD, `/contracts/${contract.id}`);
  const creatives = page.getByTestId('contract-creatives');
  await expect(creatives).toContainText('winter-banner.pdf');
  await expect(creatives.getByRole('button', { name: 'Download winter-banner.pdf' })).toBeVisible();
});

test('campaign performance: none reported yet, then the delivery staff record on the contract page', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const admin = await apiAs(request, 'admin');
  const name = unique('Aurora Cinemas');
  const customer = await admin.post('/api/customers', {
    name,
    email: `${name.toLowerCase().replaceAll(' ', '-')}@example.test`,
    contactPerson: 'Mia Lind',
    company: name,
  });
  const products = await admin.get<{ id: string; name: string; priceMetric: string }[]>('/api/products?limit=500');
  const cpm = products.find((p) => p.priceMetric === 'cpm')!;
  // Started two months ago and made active: its two past periods are billed and have ended.
  const now = new Date();
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 2, 1)).toISOString().slice(0, 10);
  const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const lastMonthName = lastMonth.toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
  const title = `${name} winter campaign`;
  const contract = await admin.post('/api/contracts', {
    customerId: customer.id,
    title,
    startDate: start,
    termMonths: 12,
    paymentMode: 'portal',
    underDeliveryRemedy: 'credit',
    makeActive: true,
    lineItems: [{ productId: cpm.id, quantity: 150, unitPrice: 12, discount: 0 }],
  });
  const email = `client-${customer.id.slice(0, 8)}@example.test`;
  await admin.post('/api/users', {
    firstName: 'Rae',
    lastName: 'Client',
    email,
    password: 'client-pass',
    role: 'client',
    commissionRate: 0,
    customerId: customer.id,
  });

  await signInWith(page, email, 'client-pass', '/portal');
  const card = page.getByTestId('performance-card');
  await expect(card).toContainText('No delivery reported yet');

  await signInWith(page, DEMO_ACCOUNTS.admin, DEMO_PASSWORD, `/contracts/${contract.id}`);
  const delivery = page.getByTestId('delivery-card');
  await delivery.getByRole('button', { name: `Record delivery of ${cpm.name} for ${lastMonthName}` }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Impressions').fill('120000');
  await dialog.getByLabel('Clicks').fill('3000');
  await dialog.getByRole('button', { name: 'Record Delivery' }).click();
  await expect(toast(page, 'Delivery recorded')).toBeVisible();
  await expect(delivery.getByTestId('delivery-row').filter({ hasText: lastMonthName })).toContainText(
    'Credit note CN-',
  );

  await signInWith(page, email, 'client-pass', '/portal');
  await expect(card).not.toContainText('No delivery reported yet');
  await expect(card).toContainText(`Latest reported month: ${lastMonthName}`);
  await expect(card).toContainText('120,000');
  await expect(card).toContainText('150,000');
  await expect(card).toContainText('80.0%');
  await expect(card).toContainText('3,000 (2.5%)');
  await expect(card).toContainText('Credit note CN-');
  await expect(page.getByText(title).first()).toBeVisible();
});

test('staff send set-password links: a password reset from the Users screen, an invitation from a customer page', async ({
  page,
  request,
  mailbox,
}) => {
  const { customer, email: customerEmail, headers } = await newCustomerWithContract(request, {});
  const admin = await apiAs(request, 'admin');
  const userEmail = `${unique('reset').replaceAll(' ', '-')}@example.test`;
  await admin.post('/api/users', {
    firstName: 'Reset',
    lastName: 'Me',
    email: userEmail,
    password: 'original-1',
    role: 'finance',
  });

  await signInWith(page, DEMO_ACCOUNTS.admin, DEMO_PASSWORD, '/users');
  await page.getByLabel('Search users').fill(userEmail);
  const userCard = page.getByTestId('user-card').filter({ hasText: userEmail });
  await userCard.getByRole('button', { name: 'Reset password of Reset Me' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(userEmail);
  await dialog.getByRole('button', { name: 'Send Link' }).click();
  await expect(toast(page, 'Password reset sent')).toBeVisible();

  await page.goto(`/customers/${customer.id}`);
  await page.getByRole('button', { name: 'Invite to Client Portal' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Send Invitation' }).click();
  await expect(toast(page, 'Invitation sent')).toBeVisible();

  const outbox = await getJson<OutboxRow[]>(request, '/api/outbox?limit=200', headers);
  const reset = outbox.find((m) => m.to === userEmail);
  const invitation = outbox.find((m) => m.to === customerEmail);
  expect(reset?.subject).toBe('Reset your AdCRM password');
  expect(invitation?.subject).toBe('Your AdCRM client portal invitation');
  // Staff read both with the token hidden; each recipient gets the link that works.
  for (const mail of [reset!, invitation!]) {
    expect(mail.text).toContain('/set-password?token=[hidden]');
    expect(mail.text).not.toContain('original-1');
  }
  for (const to of [userEmail, customerEmail]) {
    const delivered = await mailbox.waitFor((m) => m.to.includes(to) && m.text.includes('/set-password?token='));
    expect(delivered.text).toMatch(/\/set-password\?token=[A-Za-z0-9_-]{43}/);
    expect(delivered.text).not.toContain('original-1');
  }
});
