import fs from 'node:fs';
import path from 'node:path';
import type { InvoiceTimeline } from '@shared/contracts/invoice-timeline';
import type { InvoiceSummary } from '@shared/contracts/invoices';
import { formatAmount } from '@shared/money';
import { customerNamed, productNamed } from './contracts-helpers';
import { apiAs, expect, signInAs, test, toast, unique } from './fixtures';

/**
 * An active $300.00 banner contract starting today (its in-season price in October to December): activating it
 * issues its first invoice, due in a week (not overdue, so a payment does not set dunning off).
 */
async function issuedInvoice(request: Parameters<typeof apiAs>[0]): Promise<InvoiceSummary> {
  const admin = await apiAs(request, 'admin');
  const customer = await customerNamed(admin, 'Frost & Pine Outfitters');
  const banner = await productNamed(admin, 'Homepage Banner (728x90)');
  const contract = await admin.post<{ id: string; status: string }>('/api/contracts', {
    customerId: customer.id,
    startDate: new Date().toISOString().slice(0, 10),
    termMonths: 12,
    paymentMode: 'portal',
    setupFee: 0,
    description: unique('Invoice dialog test'),
    makeActive: true,
    lineItems: [{ productId: banner.id, quantity: 1, unitPrice: 300, discount: 0 }],
  });
  expect(contract.status).toBe('active');
  const finance = await apiAs(request, 'finance');
  const issued = await finance.get<InvoiceSummary[]>(`/api/invoices?contractId=${contract.id}&limit=50`);
  const [oldest] = [...issued].sort((a, b) => a.periodStart.localeCompare(b.periodStart));
  expect(oldest.status).toBe('pending');
  return oldest;
}

test.describe('the invoice dialog', () => {
  test.use({ viewport: { width: 1366, height: 800 } });

  test('finance sees the timeline, records a payment from the dialog, and downloads the PDF', async ({
    page,
    request,
  }) => {
    // Many steps, each a round trip on a busy machine.
    test.setTimeout(180_000);
    const invoice = await issuedInvoice(request);
    const finance = await apiAs(request, 'finance');
    const before = await finance.get<InvoiceTimeline>(`/api/invoices/${invoice.id}/timeline`);
    expect(before.events.map((e) => e.kind)).toEqual(['issued', 'emailed']);

    await signInAs(page, 'finance', '/invoices');
    await page.getByLabel('Search invoices').fill(invoice.number);
    await expect(page.getByTestId('invoices-count')).toHaveText('1 invoice');
    const row = page.getByTestId('invoice-row').filter({ hasText: invoice.number });
    await row.getByRole('button', { name: invoice.number, exact: true }).click();

    const dialog = page.getByTestId('invoice-dialog');
    await expect(dialog.getByRole('heading', { name: invoice.number })).toBeVisible();
    // The row's actions, here too.
    const actions = dialog.getByTestId('invoice-dialog-actions');
    for (const name of [
      'Record Payment',
      'Issue Credit Note',
      `E-mail ${invoice.number} to the customer again`,
      `Download ${invoice.number} as PDF`,
      'Void Invoice',
    ]) {
      await expect(actions.getByRole('button', { name })).toBeVisible();
    }
    // The timeline: issued, then its e-mail.
    const timeline = dialog.getByTestId('invoice-timeline');
    const events = timeline.getByTestId('invoice-timeline-event');
    await expect(events).toHaveCount(2);
    await expect(events.nth(0)).toHaveAttribute('data-kind', 'issued');
    await expect(events.nth(0)).toContainText('Issued');
    await expect(events.nth(0)).toContainText(formatAmount(invoice.total));
    await expect(events.nth(1)).toHaveAttribute('data-kind', 'emailed');
    await expect(events.nth(1)).toContainText(`Invoice ${invoice.number}:`);

    // A partial payment from the dialog, with the row's own form.
    await actions.getByRole('button', { name: 'Record Payment' }).click();
    const form = page.getByRole('dialog', { name: `Record payment for ${invoice.number}` });
    await expect(form.getByLabel('Amount ($)')).toHaveValue(invoice.amountDue.toFixed(2));
    await form.getByLabel('Amount ($)').fill('120');
    await form.getByLabel('Reference').fill('Check #7781');
    await form.getByRole('button', { name: 'Record Payment' }).click();
    const stillDue = formatAmount((Math.round(invoice.amountDue * 100) - 120_00) / 100);
    await expect(toast(page, 'Payment recorded')).toContainText(`${stillDue} is still due`);
    await expect(form).toBeHidden();

    // The dialog updates: what is due, the payment, and the timeline's new entries.
    await expect(dialog.getByTestId('invoice-amount-due')).toContainText(stillDue);
    await expect(dialog.getByText('Check #7781')).toBeVisible();
    const payment = timeline.locator('[data-kind=payment]');
    await expect(payment).toContainText('Payment received');
    await expect(payment).toContainText('$120.00');
    await expect(payment).toContainText('Check');
    await expect(timeline.getByText(`Receipt for invoice ${invoice.number}: $120.00 received`)).toBeVisible();
    await expect(actions.getByRole('button', { name: 'Void and Refund' })).toBeVisible();

    // Resend: the invoice's e-mail again, listed on the timeline.
    await actions.getByRole('button', { name: `E-mail ${invoice.number} to the customer again` }).click();
    await expect(toast(page, 'Invoice sent')).toContainText(`Invoice ${invoice.number} was e-mailed again`);
    await expect(timeline.getByText(`Invoice ${invoice.number}: ${stillDue} due`)).toBeVisible();

    fs.mkdirSync('docs/screenshots', { recursive: true });
    await page.screenshot({ path: path.join('docs', 'screenshots', 'invoice-dialog.png') });

    // The PDF, from the dialog.
    const download = page.waitForEvent('download');
    await actions.getByRole('button', { name: `Download ${invoice.number} as PDF` }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`${invoice.number}.pdf`);
    const bytes = fs.readFileSync(await file.path());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(bytes.toString('latin1').match(/\/Type \/Page\b/g)).toHaveLength(1);

    // Closed, the row shows the new amount due.
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(row).toContainText(stillDue);
  });

  test('a sales rep reads the timeline of an own invoice without the finance actions', async ({ page, request }) => {
    const sales = await apiAs(request, 'sales');
    const [own] = await sales.get<InvoiceSummary[]>('/api/invoices?limit=1');
    expect(own, 'the demo rep has invoices').toBeTruthy();
    await signInAs(page, 'sales', `/contracts/${own.contractId}`);
    const history = page.getByTestId('invoice-history');
    await history.getByRole('button', { name: own.number, exact: true }).click();
    const dialog = page.getByTestId('invoice-dialog');
    await expect(dialog.getByTestId('invoice-timeline-event').first()).toContainText('Issued');
    const actions = dialog.getByTestId('invoice-dialog-actions');
    await expect(actions.getByRole('button', { name: `Download ${own.number} as PDF` })).toBeVisible();
    for (const name of [
      'Record Payment',
      'Issue Credit Note',
      `E-mail ${own.number} to the customer again`,
      'Void Invoice',
      'Void and Refund',
    ]) {
      await expect(actions.getByRole('button', { name })).toHaveCount(0);
    }
  });
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the dialog fits: actions in view, the timeline below the figures', async ({ page, request }) => {
    const invoice = await issuedInvoice(request);
    await signInAs(page, 'finance', '/invoices');
    await page.getByLabel('Search invoices').fill(invoice.number);
    await expect(page.getByTestId('invoices-count')).toHaveText('1 invoice');
    await page
      .getByTestId('invoice-row')
      .filter({ hasText: invoice.number })
      .getByRole('button', { name: invoice.number, exact: true })
      .click();
    const dialog = page.getByTestId('invoice-dialog');
    const record = dialog.getByTestId('invoice-dialog-actions').getByRole('button', { name: 'Record Payment' });
    await expect(record).toBeInViewport();
    const box = await dialog.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBeTruthy();
    const timeline = dialog.getByTestId('invoice-timeline');
    await timeline.scrollIntoViewIfNeeded();
    await expect(timeline.getByTestId('invoice-timeline-event').first()).toContainText('Issued');
    // Nothing in the dialog is wider than the screen.
    const overflow = await dialog.evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
