import type { ContractSchedule, InvoiceSummary } from '@shared/contracts/invoices';
import { formatAmount } from '@shared/money';
import { customerNamed, productNamed } from './contracts-helpers';
import { apiAs, choose, expect, signInAs, test, toast, unique } from './fixtures';

/** The first day of the month `months` from now (UTC), as YYYY-MM-DD. */
function monthStart(months: number): string {
  const now = new Date();
  const date = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + months, 1));
  return date.toISOString().slice(0, 10);
}

test('finance records a partial then the final payment, and voids an invoice, on the Invoices screen', async ({
  page,
  request,
}) => {
  // Two payments, a void and the contract's page: many round trips on a busy machine.
  test.setTimeout(120_000);
  // An active contract started two months ago: activating it bills its three periods at once. The line has no
  // in-season price, so every period bills $400.00 whichever months they are.
  const admin = await apiAs(request, 'admin');
  const customer = await customerNamed(admin, 'Frost & Pine Outfitters');
  const banner = await productNamed(admin, 'Homepage Banner (728x90)');
  const description = unique('Invoice screen test');
  const contract = await admin.post<{ id: string; status: string }>('/api/contracts', {
    customerId: customer.id,
    startDate: monthStart(-2),
    termMonths: 12,
    paymentMode: 'portal',
    setupFee: 0,
    description,
    makeActive: true,
    lineItems: [{ productId: banner.id, quantity: 1, unitPrice: 400, discount: 0, seasonalPrice: null }],
  });
  expect(contract.status).toBe('active');
  const finance = await apiAs(request, 'finance');
  const issued = await finance.get<InvoiceSummary[]>(`/api/invoices?contractId=${contract.id}&limit=50`);
  expect(issued.length).toBeGreaterThanOrEqual(3);
  const [toPay, toVoid] = [...issued].sort((a, b) => a.periodStart.localeCompare(b.periodStart));
  expect(toPay.status).toBe('pending');
  expect(toPay.amountDue).toBe(400);

  await signInAs(page, 'finance', '/invoices');
  await expect(page.getByRole('heading', { name: 'Invoices', level: 1 })).toBeVisible();
  await page.getByLabel('Search invoices').fill(toPay.number);
  await expect(page.getByTestId('invoices-count')).toHaveText('1 invoice');
  const row = page.getByTestId('invoice-row').filter({ hasText: toPay.number });
  await expect(row).toContainText(formatAmount(toPay.total));

  // More than is due is refused in the dialog, with the amount due named.
  await row.getByRole('button', { name: `Record payment for ${toPay.number}` }).click();
  const dialog = page.getByRole('dialog', { name: `Record payment for ${toPay.number}` });
  await expect(dialog.getByTestId('payment-amount-due')).toHaveText(`${formatAmount(toPay.amountDue)} due`);
  await dialog.getByLabel('Amount ($)').fill('400.01');
  await dialog.getByRole('button', { name: 'Record Payment' }).click();
  await expect(
    dialog.getByText(`Amount cannot exceed the amount due (${formatAmount(toPay.amountDue)})`),
  ).toBeVisible();

  // A partial payment by wire.
  await dialog.getByLabel('Amount ($)').fill('150');
  await choose(dialog, 'Method', 'Wire transfer');
  await dialog.getByLabel('Reference').fill('FT-2291');
  await dialog.getByRole('button', { name: 'Record Payment' }).click();
  await expect(toast(page, 'Payment recorded')).toContainText('$250.00 is still due');
  await expect(dialog).toBeHidden();
  await expect(row).toContainText('$250.00');

  // The rest by check: the invoice is paid and offers no more payments.
  await row.getByRole('button', { name: `Record payment for ${toPay.number}` }).click();
  await expect(dialog.getByLabel('Amount ($)')).toHaveValue('250.00');
  await dialog.getByLabel('Reference').fill('Check #5120');
  await dialog.getByRole('button', { name: 'Record Payment' }).click();
  await expect(toast(page, 'Payment recorded')).toContainText(`Invoice ${toPay.number} is paid in full`);
  await expect(row.getByTestId('invoice-status')).toHaveText('Paid');
  await expect(row.getByRole('button', { name: `Record payment for ${toPay.number}` })).toHaveCount(0);

  // The invoice view lists both payments.
  await row.getByRole('button', { name: toPay.number, exact: true }).click();
  const view = page.getByRole('dialog');
  await expect(view.getByRole('region', { name: 'Payments' }).getByText('Wire transfer')).toBeVisible();
  await expect(view.getByText('Check #5120')).toBeVisible();
  await page.keyboard.press('Escape');

  // Void the next one, with a reason.
  await page.getByLabel('Search invoices').fill(toVoid.number);
  const voidRow = page.getByTestId('invoice-row').filter({ hasText: toVoid.number });
  await expect(page.getByTestId('invoices-count')).toHaveText('1 invoice');
  await voidRow.getByRole('button', { name: `Actions for ${toVoid.number}` }).click();
  await page.getByRole('menuitem', { name: 'Void Invoice' }).click();
  const confirm = page.getByRole('dialog', { name: `Void ${toVoid.number}?` });
  await confirm.getByRole('button', { name: 'Void Invoice' }).click();
  await expect(confirm.getByText('Please give a reason for voiding the invoice')).toBeVisible();
  await confirm.getByLabel('Reason').fill('Billed in error');
  await confirm.getByRole('button', { name: 'Void Invoice' }).click();
  await expect(toast(page, 'Invoice voided')).toBeVisible();
  await expect(voidRow.getByTestId('invoice-status')).toHaveText('Void');

  // The contract's invoice history shows both.
  await page.goto(`/contracts/${contract.id}`);
  const history = page.getByTestId('invoice-history');
  await expect(history.getByTestId('invoice-history-row').filter({ hasText: toPay.number })).toContainText('Paid');
  await expect(history.getByTestId('invoice-history-row').filter({ hasText: toVoid.number })).toContainText('Void');
});

test('a contract shows its next 12 billing periods with the in-season months marked', async ({ page, request }) => {
  const admin = await apiAs(request, 'admin');
  const customer = await customerNamed(admin, 'Holiday Lights Co.');
  const preroll = await productNamed(admin, 'Holiday Pre-roll Video (15s)');
  const contract = await admin.post<{ id: string }>('/api/contracts', {
    customerId: customer.id,
    startDate: monthStart(1),
    termMonths: 12,
    paymentMode: 'portal',
    setupFee: 0,
    description: unique('Schedule test'),
    lineItems: [{ productId: preroll.id, quantity: 1, unitPrice: preroll.defaultPrice, discount: 0 }],
  });
  const schedule = await admin.get<ContractSchedule>(`/api/contracts/${contract.id}/schedule`);
  expect(schedule.items).toHaveLength(12);
  const seasonal = schedule.items.filter((i) => ['10', '11', '12'].includes(i.periodStart.slice(5, 7)));
  expect(seasonal).toHaveLength(3);

  await signInAs(page, 'admin', `/contracts/${contract.id}`);
  const card = page.getByTestId('billing-schedule');
  await expect(card.getByRole('heading', { name: 'Billing schedule' })).toBeVisible();
  const rows = card.getByTestId('schedule-row');
  await expect(rows).toHaveCount(12);
  await expect(card.locator('[data-testid=schedule-row][data-in-season=true]')).toHaveCount(3);
  for (const item of seasonal) {
    const month = new Date(`${item.periodStart}T00:00:00`).toLocaleDateString('en-US', {
      month: 'short',
      year: 'numeric',
    });
    const row = rows.filter({ hasText: month });
    await expect(row).toContainText('In season');
    await expect(row).toContainText(formatAmount(item.total));
  }
  // Out of season, the regular price.
  const first = schedule.items[0];
  await expect(rows.first()).toContainText(formatAmount(first.total));
  await expect(page.getByText('No invoices issued yet')).toBeVisible();
});
