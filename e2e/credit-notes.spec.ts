import type { APIRequestContext } from '@playwright/test';
import type { CreditNote, CustomerCredit } from '@shared/contracts/credit-notes';
import type { Invoice, InvoiceSummary } from '@shared/contracts/invoices';
import { amountToCents, centsToPlain, formatAmount, formatCents } from '@shared/money';
import { productNamed } from './contracts-helpers';
import { apiAs, choose, expect, fromOurPage, signInAs, signInWith, test, toast, unique } from './fixtures';

/** The first day of the month `months` from now (UTC), as YYYY-MM-DD. */
function monthStart(months: number): string {
  const now = new Date();
  const date = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + months, 1));
  return date.toISOString().slice(0, 10);
}

/**
 * A customer of its own (its credit balance is the test's alone), with an active contract started two months
 * ago: activating it bills its three periods at once. Its invoices, oldest period first.
 */
async function customerWithInvoices(request: APIRequestContext) {
  const admin = await apiAs(request, 'admin');
  const name = unique('Credit Note Cinemas');
  const email = `${name.toLowerCase().replaceAll(' ', '-')}@example.test`;
  const customer = await admin.post<{ id: string; name: string }>('/api/customers', { name, email });
  const banner = await productNamed(admin, 'Homepage Banner (728x90)');
  const contract = await admin.post<{ id: string; status: string }>('/api/contracts', {
    customerId: customer.id,
    startDate: monthStart(-2),
    termMonths: 12,
    paymentMode: 'portal',
    setupFee: 0,
    description: unique('Credit note test'),
    makeActive: true,
    lineItems: [{ productId: banner.id, quantity: 1, unitPrice: 400, discount: 0 }],
  });
  expect(contract.status).toBe('active');
  const finance = await apiAs(request, 'finance');
  const issued = await finance.get<InvoiceSummary[]>(`/api/invoices?contractId=${contract.id}&limit=50`);
  expect(issued.length).toBeGreaterThanOrEqual(2);
  const invoices = [...issued].sort((a, b) => a.periodStart.localeCompare(b.periodStart));
  return { admin, finance, customer, email, invoices };
}

test('finance credits a pending and a paid invoice, finds the credit notes, and refunds part of the credit balance', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const { finance, customer, invoices } = await customerWithInvoices(request);
  const [pending, toPay] = invoices;
  expect(pending.status).toBe('pending');
  expect(pending.creditable).toBe(pending.total);
  // The second is paid in full by check.
  const paid = await finance.post<Invoice>(`/api/invoices/${toPay.id}/payments`, {
    amount: toPay.amountDue,
    method: 'check',
    reference: 'Check #4410',
  });
  expect(paid.status).toBe('paid');

  await signInAs(page, 'finance', '/invoices');
  await expect(page.getByRole('heading', { name: 'Invoices', level: 1 })).toBeVisible();

  await test.step('a $10.00 credit note on the pending invoice lowers what is due by $10.00', async () => {
    await page.getByLabel('Search invoices').fill(pending.number);
    await expect(page.getByTestId('invoices-count')).toHaveText('1 invoice');
    const row = page.getByTestId('invoice-row').filter({ hasText: pending.number });
    await row.getByRole('button', { name: pending.number, exact: true }).click();
    const view = page.getByRole('dialog', { name: new RegExp(`^${pending.number}`) });
    await expect(view.getByTestId('invoice-amount-due')).toContainText(formatAmount(pending.amountDue));

    await view.getByRole('button', { name: 'Issue Credit Note' }).click();
    const form = page.getByRole('dialog', { name: `Issue a credit note on ${pending.number}` });
    await expect(form.getByText(`At most ${formatAmount(pending.creditable)}`)).toBeVisible();
    // Nothing filled in: the shared rules' messages.
    await form.getByRole('button', { name: 'Issue Credit Note' }).click();
    await expect(form.getByText('Amount is required')).toBeVisible();
    await expect(form.getByText('Please give a reason for the credit')).toBeVisible();

    await form.getByLabel('Amount ($)').fill('10.00');
    await form.getByLabel('Reason').fill('Banner ran two days late');
    await form.getByRole('button', { name: 'Issue Credit Note' }).click();
    await expect(toast(page, 'Credit note issued')).toContainText(`credits $10.00 on ${pending.number}`);
    await expect(form).toBeHidden();

    const dueAfter = formatCents(amountToCents(pending.amountDue) - 1000);
    await expect(view.getByTestId('invoice-amount-due')).toContainText(dueAfter);
    await expect(view.getByTestId('invoice-figures')).toContainText('Credited$10.00');
    const listed = view.getByTestId('invoice-credit-note');
    await expect(listed).toHaveCount(1);
    await expect(listed).toContainText('Banner ran two days late');
    await expect(listed).toContainText('-$10.00');
    await expect(listed.getByRole('button', { name: /^Download CN-\d{4}-\d{6} as PDF$/ })).toBeVisible();
    // (Escape would dismiss the toast first: it opened above the dialog.)
    await view.getByRole('button', { name: 'Close' }).click();
    await expect(view).toBeHidden();
    await expect(row).toContainText(dueAfter);
  });

  const [note] = await finance.get<CreditNote[]>(`/api/credit-notes?invoiceId=${pending.id}`);
  expect(note).toMatchObject({ kind: 'partial', amount: 10, appliedToInvoice: 10, toCreditBalance: 0 });

  await test.step('the Type filter lists the credit note, kept in the address', async () => {
    await choose(page, 'Filter by type', 'Credit notes');
    await expect(page).toHaveURL(/\/invoices\?type=credit_notes$/);
    await page.getByLabel('Search credit notes').fill(pending.number);
    await expect(page.getByTestId('credit-notes-count')).toHaveText('1 credit note');
    const row = page.getByTestId('credit-note-row');
    await expect(row).toHaveAttribute('data-credit-note-number', note.number);
    for (const text of [pending.number, customer.name, 'Credit', 'Banner ran two days late', '$10.00']) {
      await expect(row).toContainText(text);
    }
    await expect(row.getByRole('button', { name: `Download ${note.number} as PDF` })).toBeVisible();
    await page.getByLabel('Search credit notes').fill('no such credit note');
    await expect(page.getByText('No credit notes found')).toBeVisible();

    // Reloaded, the screen still shows credit notes; back to invoices, the address forgets the type.
    await page.reload();
    await expect(page.getByTestId('credit-notes-count')).toBeVisible();
    await choose(page, 'Filter by type', 'Invoices');
    await expect(page).toHaveURL(/\/invoices$/);
  });

  await test.step('a credit on a paid invoice becomes the customer credit balance', async () => {
    await page.getByLabel('Search invoices').fill(toPay.number);
    await expect(page.getByTestId('invoices-count')).toHaveText('1 invoice');
    await page.getByTestId('invoice-row').getByRole('button', { name: toPay.number, exact: true }).click();
    const view = page.getByRole('dialog', { name: new RegExp(`^${toPay.number}`) });
    await view.getByRole('button', { name: 'Issue Credit Note' }).click();
    const form = page.getByRole('dialog', { name: `Issue a credit note on ${toPay.number}` });
    // More than the invoice's total is refused, with the most that may be credited named.
    await form.getByLabel('Amount ($)').fill(centsToPlain(amountToCents(toPay.total) + 1));
    await form.getByLabel('Reason').fill('Goodwill for a missed flight');
    await form.getByRole('button', { name: 'Issue Credit Note' }).click();
    await expect(
      form.getByText(`Amount cannot exceed what remains to credit on this invoice (${formatAmount(toPay.total)})`),
    ).toBeVisible();
    await form.getByLabel('Amount ($)').fill('50');
    await form.getByRole('button', { name: 'Issue Credit Note' }).click();
    await expect(toast(page, 'Credit note issued')).toContainText("$50.00 went to the customer's credit balance");
    await expect(view.getByTestId('invoice-credit-note')).toContainText('Goodwill for a missed flight');
    await expect(view.getByTestId('invoice-amount-due')).toContainText('$0.00');
    await view.getByRole('button', { name: 'Close' }).click();
    await expect(view).toBeHidden();
  });
  const [beyond] = await finance.get<CreditNote[]>(`/api/credit-notes?invoiceId=${toPay.id}`);
  expect(beyond).toMatchObject({ amount: 50, appliedToInvoice: 0, toCreditBalance: 50 });

  await test.step('the customer page shows the balance; finance refunds part of it', async () => {
    await page.goto(`/customers/${customer.id}`);
    const card = page.getByTestId('customer-credit');
    await expect(card.getByRole('heading', { name: 'Credit', exact: true })).toBeVisible();
    await expect(card.getByTestId('credit-balance')).toHaveText('$50.00');
    const entries = card.getByTestId('credit-entry');
    await expect(entries).toHaveCount(1);
    await expect(entries).toContainText('Credit beyond the amount due');
    await expect(entries).toContainText(beyond.number);
    await expect(entries).toContainText('+$50.00');
    await expect(card.getByTestId('customer-credit-note')).toHaveCount(2);

    await card.getByRole('button', { name: 'Refund Credit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Refund credit' });
    await expect(dialog.getByLabel('Amount ($)')).toHaveValue('50.00');
    await dialog.getByLabel('Amount ($)').fill('60');
    await dialog.getByRole('button', { name: 'Refund Credit' }).click();
    await expect(dialog.getByText('Amount cannot exceed the credit balance ($50.00)')).toBeVisible();
    await dialog.getByLabel('Amount ($)').fill('20');
    await choose(dialog, 'Method', 'Wire transfer');
    await dialog.getByLabel('Reference').fill('RF-2291');
    await dialog.getByRole('button', { name: 'Refund Credit' }).click();
    await expect(toast(page, 'Credit refunded')).toContainText('the credit balance is now $30.00');
    await expect(dialog).toBeHidden();
    await expect(card.getByTestId('credit-balance')).toHaveText('$30.00');
    await expect(entries).toHaveCount(2);
    await expect(entries.first()).toContainText('Credit refunded · Wire transfer · RF-2291');
    await expect(entries.first()).toContainText('-$20.00');

    const credit = await finance.get<CustomerCredit>(`/api/customers/${customer.id}/credit`);
    expect(credit.balance).toBe(30);
  });
});

test('a client sees its credit notes and its credit balance in the portal', async ({ page, request, mailbox }) => {
  test.setTimeout(180_000);
  const { admin, finance, customer, email, invoices } = await customerWithInvoices(request);
  const [first, second] = invoices;
  // Paid in full, then credited beyond what was due: the credit balance.
  await finance.post(`/api/invoices/${second.id}/payments`, { amount: second.amountDue, method: 'wire' });
  const beyond = await finance.post<CreditNote>(`/api/invoices/${second.id}/credit-notes`, {
    amount: 25,
    reason: 'Goodwill',
  });
  expect(beyond.toCreditBalance).toBe(25);

  // The customer's client account, its password set from the e-mailed link.
  await admin.post(`/api/customers/${customer.id}/invite`, {});
  const mail = await mailbox.waitFor((m) => m.to.includes(email) && m.text.includes('/set-password?token='));
  const token = /\/set-password\?token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
  const password = 'credit-2026';
  const set = await request.post('/api/auth/set-password', {
    data: { token, password, confirmPassword: password },
    headers: fromOurPage(),
  });
  expect(set.ok(), await set.text()).toBeTruthy();

  await signInWith(page, email, password, '/portal');
  const card = page.getByTestId('client-credit-notes');
  await expect(card.getByRole('heading', { name: 'Credit Notes' })).toBeVisible();
  await expect(card.getByTestId('client-credit-balance')).toHaveText('Credit balance: $25.00');
  const rows = card.getByTestId('client-credit-note');
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText(beyond.number);
  await expect(rows).toContainText(second.number);
  await expect(rows).toContainText('$25.00');
  await expect(rows.getByRole('button', { name: `Download ${beyond.number} as PDF` })).toBeVisible();

  // A credit within what is due adds a credit note and no balance.
  const within = await finance.post<CreditNote>(`/api/invoices/${first.id}/credit-notes`, {
    amount: 5,
    reason: 'Late start',
  });
  await finance.post(`/api/customers/${customer.id}/credit-refunds`, { amount: 25, method: 'check' });
  await page.reload();
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText(within.number);
  await expect(card.getByText('Credit balance')).toHaveCount(0);
});
