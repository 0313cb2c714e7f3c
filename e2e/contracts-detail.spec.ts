import type { Contract } from '@shared/contracts/contract-responses';
import { createDraft, findInList, listContracts } from './contracts-helpers';
import { apiAs, expect, signInAs, test, toast, unique } from './fixtures';

test('a pay-link contract: figures, the link with Copy Link and Preview, Resend Receipt', async ({
  page,
  context,
  request,
  baseURL,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const api = await apiAs(request, 'admin');
  const summary = (await listContracts(api, '&status=active')).find(
    (c) =>
      c.paymentMode === 'pay_link' && c.payLinkToken && c.description === 'Pre-roll with QR codes to the ticket page',
  )!;
  const contract = await api.get<Contract>(`/api/contracts/${summary.id}`);
  await signInAs(page, 'admin', `/contracts/${contract.id}`);

  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Contract ${contract.id.slice(-8)}`);
  await expect(page.getByText('Active', { exact: true })).toBeVisible();
  await expect(page.getByText('Cannot edit - payment processing started')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Edit' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete', exact: true })).toHaveCount(0);

  // Customer, terms and line items.
  await expect(page.getByText(contract.customer!.email)).toBeVisible();
  await expect(page.getByText('6 months')).toBeVisible();
  await expect(page.getByText('Pay-Link').first()).toBeVisible();
  const lines = page.getByRole('table', { name: 'Line items' });
  await expect(lines.getByRole('row')).toHaveCount(contract.lineItems.length + 2);
  await expect(lines).toContainText('Timed QR Code Placement');
  await expect(lines).toContainText('-$50.00');

  const figures = page.getByTestId('billing-figures');
  await expect(figures.getByTestId('monthly-amount')).toContainText('$1,850.00 / month');
  await expect(figures).toContainText('In season (Oct–Dec)');

  // The link as the customer gets it: the demo server has no PUBLIC_URL, so its own listen address.
  const link = `${baseURL}/p/${contract.payLinkToken}`;
  await expect(page.getByLabel('Payment link')).toHaveValue(link);
  await expect(page.getByRole('link', { name: /Preview/ })).toHaveAttribute('href', link);
  await expect(page.getByRole('link', { name: /Preview/ })).toHaveAttribute('target', '_blank');
  await page.getByRole('button', { name: 'Copy Link' }).click();
  await expect(toast(page, 'Payment link copied')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

  // The demo's billing history has payments on it: the latest receipt is e-mailed again.
  await page.getByRole('button', { name: 'Resend Receipt' }).click();
  await expect(toast(page, 'Receipt sent')).toContainText(contract.customer!.email);

  // The actions an active contract allows.
  await expect(page.getByRole('button', { name: 'Pause' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Activate' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Send to Customer' })).toHaveCount(0);
});

test('a portal contract with a package: package details, setup fee, portal access line', async ({ page, request }) => {
  const api = await apiAs(request, 'admin');
  const summary = (await listContracts(api)).find(
    (c) => c.description === 'Holiday Starter package for the winter light show',
  )!;
  await signInAs(page, 'admin', `/contracts/${summary.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Holiday Lights: season launch');
  await expect(page.getByRole('heading', { name: 'Package Details' })).toBeVisible();
  const pkg = page.getByTestId('package-details');
  await expect(pkg).toContainText('Holiday Starter');
  await expect(pkg).toContainText('$1,500.00 / month');
  await expect(pkg).toContainText('QR links to the customer’s holiday offer page');
  await expect(page.getByRole('table', { name: 'Line items' })).toHaveCount(0);

  await expect(page.getByTestId('monthly-amount')).toContainText('$1,500.00 / month');
  const figures = page.getByTestId('payment-figures');
  await expect(figures).toContainText('Setup Fee');
  await expect(figures).toContainText('$250.00 one-time');
  await expect(figures).toContainText('$1,750.00');
  await expect(figures).toContainText('Client Portal');
  await expect(page.getByText('Contact customer portal feature coming soon')).toHaveCount(0);
  await expect(page.getByLabel('Payment link')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Copy Link' })).toHaveCount(0);
  // Customer Portal access: without Stripe, the address of the customer's own contract page, to send.
  const access = page.getByTestId('customer-portal-access');
  await expect(access).toContainText('Customer Portal access');
  await access.getByRole('button', { name: 'Open Customer Portal' }).click();
  await expect(access.getByRole('textbox')).toHaveValue(new RegExp(`/portal/contracts/${summary.id}$`));
  await expect(access.getByRole('button', { name: 'Copy Link' })).toBeVisible();
});

test('Send to Customer e-mails a draft and marks it Sent', async ({ page, request, mailbox }) => {
  const description = unique('E2E send');
  const draft = await createDraft(request, 'sales', description);
  await signInAs(page, 'sales', `/contracts/${draft.id}`);
  await expect(page.getByText('Draft', { exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Edit' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Delete', exact: true })).toBeVisible();
  await expect(page.getByText('Cannot edit - payment processing started')).toHaveCount(0);

  await page.getByRole('button', { name: 'Send to Customer' }).click();
  await expect(toast(page, 'Contract sent')).toContainText(`e-mailed to ${draft.customer!.email}`);
  await expect(page.getByRole('heading', { level: 1 }).locator('..').getByText('Sent', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send to Customer' })).toHaveCount(0);
  // The send froze the contract as its insertion order's version 1, awaiting the customer's signature.
  await expect(page.getByText("Version 1 awaits the customer's signature")).toBeVisible();
  // A sent pay-link contract has its link, and its payment processing has started.
  await expect(page.getByLabel('Payment link')).toHaveValue(/\/p\/[\w-]{20,}$/);
  await expect(page.getByText('Cannot edit - payment processing started')).toBeVisible();

  const admin = await apiAs(request, 'admin');
  const sent = await admin.get<Contract>(`/api/contracts/${draft.id}`);
  // The customer receives the pay link; staff see the e-mail in the outbox with its token hidden.
  const delivered = await mailbox.waitFor(
    (m) => m.to.includes(draft.customer!.email) && m.text.includes(`/p/${sent.payLinkToken}`),
  );
  expect(delivered.subject).toMatch(/ready for payment/);
  const outbox =
    await admin.get<{ to: string; subject: string; text: string; entityId: string }[]>('/api/outbox?limit=100');
  const mail = outbox.find((m) => m.entityId === draft.id);
  expect(mail, 'the pay-link e-mail is in the outbox').toBeTruthy();
  expect(mail!.to).toBe(draft.customer!.email);
  expect(mail!.subject).toMatch(/ready for payment/);
  expect(mail!.text).toContain('/p/[hidden]');
  expect(JSON.stringify(outbox)).not.toContain(sent.payLinkToken!);
});

test('status actions: activate, pause, resume, and cancel with a required reason', async ({ page, request }) => {
  const description = unique('E2E status');
  const draft = await createDraft(request, 'sales_manager', description, { paymentMode: 'portal' });
  await signInAs(page, 'sales_manager', `/contracts/${draft.id}`);
  const badge = (label: string) =>
    page.getByRole('heading', { level: 1 }).locator('..').getByText(label, { exact: true });

  await page.getByRole('button', { name: 'Activate' }).click();
  await expect(toast(page, 'Contract activated')).toBeVisible();
  await expect(badge('Active')).toBeVisible();
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(toast(page, 'Contract paused')).toBeVisible();
  await expect(badge('Paused')).toHaveClass(/bg-red-100/);
  // The badge gives the real reason: the contract is paused (no payment has started).
  await expect(page.getByText('Cannot edit - contract paused')).toBeVisible();
  await expect(page.getByText('Cannot edit - payment processing started')).toHaveCount(0);
  await page.getByRole('button', { name: 'Resume' }).click();
  await expect(toast(page, 'Contract resumed')).toBeVisible();
  await expect(badge('Active')).toHaveClass(/bg-green-100/);

  await page.getByRole('button', { name: 'Cancel' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Cancel Contract' }).click();
  await expect(dialog.getByText('Please give a reason for canceling the contract')).toBeVisible();
  await dialog.getByLabel('Reason for canceling').fill('Budget moved to print');
  await dialog.getByRole('button', { name: 'Cancel Contract' }).click();
  await expect(toast(page, 'Contract canceled')).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(badge('Canceled')).toBeVisible();
  await expect(page.getByText('Cannot edit - contract canceled')).toBeVisible();
  await expect(page.getByText('Budget moved to print')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Pause' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Cancel' })).toHaveCount(0);

  // The list shows the new status too.
  await page.getByRole('link', { name: 'Back to contracts' }).click();
  const row = await findInList(page, description);
  await expect(row.getByText('Canceled', { exact: true })).toBeVisible();
});

test('a draft pay-link contract: Generate Payment Link on the detail page; delete goes back to the list', async ({
  page,
  context,
  request,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const description = unique('E2E detail link');
  const draft = await createDraft(request, 'admin', description);
  await signInAs(page, 'admin', `/contracts/${draft.id}`);
  await expect(page.getByText('No payment link has been created yet.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Resend Receipt' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Generate Payment Link' }).click();
  await expect(toast(page, 'Payment link created and copied')).toBeVisible();
  // The link on the page is the one on the clipboard.
  await expect(page.getByLabel('Payment link')).toHaveValue(/\/p\/[\w-]{20,}$/);
  const shown = await page.getByLabel('Payment link').inputValue();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(shown);

  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete Contract' }).click();
  await expect(toast(page, 'Contract deleted')).toBeVisible();
  await expect(page).toHaveURL(/\/contracts$/);
});

test('detail errors: not found, and a failed request', async ({ page }) => {
  await signInAs(page, 'admin', '/contracts/00000000-0000-4000-8000-000000000000');
  await expect(page.getByText('Contract not found')).toBeVisible();

  await page.route('**/api/contracts/11111111-1111-4111-8111-111111111111', (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ code: 'internal' }) }),
  );
  await page.goto('/contracts/11111111-1111-4111-8111-111111111111');
  await expect(page.getByText('Error loading contract')).toBeVisible();
});
