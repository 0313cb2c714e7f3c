import type { Contract } from '@shared/contracts/contract-responses';
import { createContract, customerNamed, listContracts, productNamed } from './contracts-helpers';
import { apiAs, choose, expect, fromOurPage, signInAs, test, toast, unique } from './fixtures';

/** Today and yesterday as the server counts days (UTC), as yyyy-mm-dd. */
const isoDay = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

/** A calendar day plus whole months, clamped to the month's end (Jan 31 -> Feb 28). */
function plusMonths(day: string, months: number): string {
  const [y, m, d] = day.split('-').map(Number);
  const first = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  return new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), Math.min(d, last))).toISOString().slice(0, 10);
}
/** A figure before and after, as the preview shows it (the arrow is read "becomes"). */
const becomes = (from: string, to: string) => `${from} → becomes ${to}`;
const usd = (dollars: number) => `$${dollars.toLocaleString('en-US', { minimumFractionDigits: 2 })}`;

test('a CPM and a flat-rate line: the form explains the one-time charge; once sent, a line is added and one ended', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  await signInAs(page, 'sales', '/contracts/new');
  await choose(page, 'Customer', /Holiday Lights Co\./);
  await choose(page, 'Payment Mode', /Pay-Link/);
  await page.getByLabel('Term (months)').fill('6');

  // A CPM line: the quantity is thousands of impressions a month (100k at $24.00 CPM).
  await choose(page, 'Product', /Pre-roll Impressions/);
  await expect(page.getByLabel('Unit Price ($)')).toHaveValue('24.00');
  await page.getByLabel('Quantity').fill('100');
  await expect(page.getByLabel('Line 1 total')).toHaveText('$2,400.00');
  // A flat-rate line: billed once, not every month.
  await page.getByRole('button', { name: 'Add Product' }).click();
  await choose(page, 'Product', /CTN Seasonal Movie Special/, 1);
  await expect(page.getByLabel('Unit Price ($)').nth(1)).toHaveValue('2500.00');

  // ui-spec's total keeps its formula (every line + package + setup fee) ...
  await expect(page.getByTestId('summary-total')).toContainText('$4,900.00');
  // ... and what it bills is worked out here, from today (the start date), 6 months: the CPM line at $24.00
  // ($32.00 in season, October to December) for 100 thousand impressions a month, the special once at $2,500.00
  // ($3,500.00 in season) on the first invoice.
  const start = isoDay(0);
  const inSeason = (day: string) => Number(day.slice(5, 7)) >= 10;
  const cpm = (day: string) => (inSeason(day) ? 3_200 : 2_400);
  const special = inSeason(start) ? 3_500 : 2_500;
  const value = [0, 1, 2, 3, 4, 5].reduce((sum, k) => sum + cpm(plusMonths(start, k)), special);
  const billing = page.getByTestId('summary-billing');
  await expect(billing.getByTestId('summary-first-invoice')).toContainText(usd(cpm(start) + special));
  await expect(billing.getByTestId('summary-monthly')).toContainText('$2,400.00 / month');
  await expect(billing.getByTestId('summary-seasonal')).toContainText('$3,200.00 / month');
  await expect(billing.getByTestId('summary-one-time')).toContainText('CTN Seasonal Movie Special');
  await expect(billing.getByTestId('summary-one-time')).toContainText(usd(special));
  await expect(billing.getByTestId('summary-value')).toContainText(usd(value));
  await expect(billing.getByTestId('summary-value')).toContainText('over the term');

  const description = unique('E2E CPM and flat');
  await page.getByLabel('Description').fill(description);
  await page.getByRole('button', { name: 'Create & Send Contract' }).click();
  await expect(toast(page, 'Contract created successfully')).toBeVisible();
  await expect(page).toHaveURL(/\/contracts$/);

  // Sent with its pay link: the lines are locked, and the contract is amended line by line instead.
  const api = await apiAs(request, 'sales');
  const summaryRow = (await listContracts(api)).find((c) => c.description === description)!;
  await page.goto(`/contracts/${summaryRow.id}`);
  await expect(page.getByText('Cannot edit - payment processing started')).toBeVisible();
  const lines = page.getByRole('table', { name: 'Line items' });
  await expect(lines).toContainText('CPM (thousands of impressions a month)');
  await expect(lines).toContainText('Flat Rate, billed once');
  // The contract page says the same as the form did (the demo business charges no tax).
  const figures = page.getByTestId('billing-figures');
  await expect(figures.getByTestId('first-invoice')).toContainText(usd(cpm(start) + special));
  await expect(figures.getByTestId('monthly-amount')).toContainText('$2,400.00 / month');
  await expect(figures.getByTestId('one-time-charge')).toContainText(`${usd(special)} one-time`);
  await expect(figures.getByTestId('term-value')).toContainText(usd(value));

  await test.step('Add Line: refused in the past, then added from today', async () => {
    await page.getByRole('button', { name: 'Add Line' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a line' });
    await choose(dialog, 'Product', /Timed QR Code/);
    await expect(dialog.getByLabel('Unit Price ($)')).toHaveValue('350.00');
    await dialog.getByLabel('Flight Start').fill(isoDay(-1));
    // The preview checks what the amendment checks.
    await dialog.getByRole('button', { name: 'Preview' }).click();
    await expect(dialog.getByText('An amendment cannot start in the past').first()).toBeVisible();
    expect((await api.get<Contract>(`/api/contracts/${summaryRow.id}`)).lineItems).toHaveLength(2);

    await dialog.getByLabel('Flight Start').fill('');
    await dialog.getByRole('button', { name: 'Preview' }).click();
    // Nothing invoiced yet: no charge now; the monthly amount goes up by the line's $350.00.
    const preview = dialog.getByTestId('amendment-preview');
    await expect(preview.getByTestId('preview-no-adjustment')).toBeVisible();
    await expect(preview.getByTestId('preview-monthly')).toContainText(becomes('$2,400.00', '$2,750.00'));
    expect((await api.get<Contract>(`/api/contracts/${summaryRow.id}`)).lineItems).toHaveLength(2);
    await dialog.getByRole('button', { name: 'Add Line' }).click();
    await expect(toast(page, 'Line added')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(lines).toContainText('Timed QR Code Placement');
    const after = await api.get<Contract>(`/api/contracts/${summaryRow.id}`);
    const added = after.lineItems.find((l) => l.product.name === 'Timed QR Code Placement')!;
    expect(added).toMatchObject({ priceMetric: 'monthly', unitPrice: 350, flightStart: isoDay(0), flightEnd: null });
    expect(after.monthlyAmount).toBe(2750);
    await expect(page.getByTestId('monthly-amount')).toContainText('$2,750.00 / month');
  });

  await test.step('End: the line bills through today and cannot be ended again', async () => {
    await page.getByRole('button', { name: 'End Timed QR Code Placement' }).click();
    const dialog = page.getByRole('dialog', { name: 'End Timed QR Code Placement?' });
    await dialog.getByRole('button', { name: 'Preview' }).click();
    await expect(dialog.getByTestId('preview-monthly')).toContainText(becomes('$2,750.00', '$2,400.00'));
    await dialog.getByRole('button', { name: 'End Line' }).click();
    await expect(toast(page, 'Line ended')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(lines.getByText('Ends today')).toBeVisible();
    await expect(page.getByRole('button', { name: 'End Timed QR Code Placement' })).toHaveCount(0);
    const after = await api.get<Contract>(`/api/contracts/${summaryRow.id}`);
    expect(after.lineItems.find((l) => l.product.name === 'Timed QR Code Placement')?.flightEnd).toBe(isoDay(0));
    // An ended line leaves the monthly amount at once.
    expect(after.monthlyAmount).toBe(2400);
    await expect(page.getByTestId('monthly-amount')).toContainText('$2,400.00 / month');
  });
});

/** amount x part / whole in cents, rounded half away from zero (a second, simple computation for the test). */
const prorate = (cents: number, part: number, whole: number) => Math.round((cents * part) / whole);
const daysBetween = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 86_400_000 + 1;
const money = (cents: number) => (cents < 0 ? `-${usd(-cents / 100)}` : usd(cents / 100));
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const dayName = (day: string) => `${MONTHS[Number(day.slice(5, 7)) - 1]} ${Number(day.slice(8, 10))}`;

test('an active, invoiced contract: Add Line and End Line show the prorated charge or credit, the next invoice and the monthly amounts before confirming, and the schedule then bills exactly that', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  // Active from today and invoiced for its first month: $100.00 a month, no in-season price.
  const api = await apiAs(request, 'sales');
  const customer = await customerNamed(api, 'Holiday Lights Co.');
  const banner = await productNamed(api, 'Homepage Banner (728x90)');
  const title = unique('E2E amendment preview');
  const created = await createContract(api, {
    customerId: customer.id,
    title,
    lineItems: [{ productId: banner.id, quantity: 1, unitPrice: 100, discount: 0, seasonalPrice: null }],
  });
  await api.post(`/api/contracts/${created.id}/activate`, {});

  const today = isoDay(0);
  const periodEnd = new Date(Date.parse(plusMonths(today, 1)) - 86_400_000).toISOString().slice(0, 10);
  const nextPeriod = plusMonths(today, 1);
  const periodDays = daysBetween(today, periodEnd);
  // A $350.00 line from tomorrow: the days of this (invoiced) month it runs, charged on the next invoice.
  const charge = prorate(350_00, daysBetween(isoDay(1), periodEnd), periodDays);

  await signInAs(page, 'sales', `/contracts/${created.id}`);
  await page.getByRole('button', { name: 'Add Line' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a line' });
  await choose(dialog, 'Product', /Timed QR Code/);
  await dialog.getByLabel('Unit Price ($)').fill('350');
  await dialog.getByLabel('In-Season Price ($)').fill('');
  await dialog.getByLabel('Flight Start').fill(isoDay(1));
  await dialog.getByRole('button', { name: 'Preview' }).click();
  const preview = dialog.getByTestId('amendment-preview');
  await expect(preview.getByTestId('preview-adjustment')).toHaveCount(1);
  await expect(preview.getByTestId('preview-adjustment')).toContainText('Charged on the next invoice');
  const described = `Timed QR Code Placement: added, ${dayName(isoDay(1))}–${dayName(periodEnd)}, ${periodEnd.slice(0, 4)}`;
  await expect(preview.getByTestId('preview-adjustment')).toContainText(described);
  await expect(preview.getByTestId('preview-adjustment')).toContainText(money(charge));
  const nextTotal = 100_00 + 350_00 + charge;
  const dateText = (day: string) =>
    new Date(`${day}T00:00:00`).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
  await expect(preview.getByTestId('preview-next-invoice')).toContainText(
    becomes(`$100.00 on ${dateText(nextPeriod)}`, `${money(nextTotal)} on ${dateText(nextPeriod)}`),
  );
  await expect(preview.getByTestId('preview-monthly')).toContainText(becomes('$100.00', '$450.00'));
  await expect(preview.getByTestId('preview-seasonal')).toContainText(becomes('$100.00', '$450.00'));
  await page.screenshot({ path: 'test-results/amendment-preview.png', fullPage: true });
  // Nothing changed yet.
  expect((await api.get<Contract>(`/api/contracts/${created.id}`)).lineItems).toHaveLength(1);

  // A change to the form asks for a new preview before it can be confirmed.
  await dialog.getByLabel('Quantity').fill('2');
  await expect(preview).toHaveCount(0);
  await dialog.getByLabel('Quantity').fill('1');
  await dialog.getByRole('button', { name: 'Preview' }).click();
  await expect(preview.getByTestId('preview-adjustment')).toContainText(money(charge));
  await dialog.getByRole('button', { name: 'Add Line' }).click();
  await expect(toast(page, 'Line added')).toBeVisible();
  await expect(dialog).toBeHidden();

  // The schedule's next invoice carries the charge, itemised under its period, for the amount previewed.
  const schedule = page.getByTestId('billing-schedule');
  const adjustmentRow = schedule.getByTestId('schedule-adjustment');
  await expect(adjustmentRow).toHaveCount(1);
  await expect(adjustmentRow).toHaveAttribute('data-period', nextPeriod);
  await expect(adjustmentRow).toContainText(described);
  await expect(adjustmentRow).toContainText(money(charge));
  const periodRow = schedule.getByTestId('schedule-row').nth(1);
  await expect(periodRow).toContainText(money(nextTotal));
  await expect(page.getByTestId('monthly-amount')).toContainText('$450.00 / month');

  // End the banner from tomorrow: its remaining days of the invoiced month are credited.
  const credit = prorate(100_00, daysBetween(isoDay(1), periodEnd), periodDays);
  await page.getByRole('button', { name: /^End Homepage Banner/ }).click();
  const end = page.getByRole('dialog', { name: /^End Homepage Banner/ });
  await end.getByLabel('Last Day').fill(today);
  await end.getByRole('button', { name: 'Preview' }).click();
  const endPreview = end.getByTestId('amendment-preview');
  await expect(endPreview.getByTestId('preview-adjustment')).toContainText('Credited on the next invoice');
  await expect(endPreview.getByTestId('preview-adjustment')).toContainText(money(-credit));
  const afterEnd = 350_00 + charge - credit;
  await expect(endPreview.getByTestId('preview-next-invoice')).toContainText(`becomes ${money(afterEnd)}`);
  await expect(endPreview.getByTestId('preview-monthly')).toContainText(becomes('$450.00', '$350.00'));
  await end.getByRole('button', { name: 'End Line' }).click();
  await expect(toast(page, 'Line ended')).toBeVisible();
  await expect(schedule.getByTestId('schedule-adjustment')).toHaveCount(2);
  await expect(schedule.getByTestId('schedule-adjustment').nth(1)).toContainText(money(-credit));
  await expect(periodRow).toContainText(money(afterEnd));
  await page.screenshot({ path: 'test-results/schedule-adjustments.png', fullPage: true });
});

test('a contract paid ahead of its start: Add Line with a blank Flight Start adds the line from the start', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  // A pay-link contract starting in two weeks, signed and paid now (its first month is billed at once).
  const admin = await apiAs(request, 'admin');
  const customer = await customerNamed(admin, 'Holiday Lights Co.');
  const banner = await productNamed(admin, 'Homepage Banner (728x90)');
  const start = isoDay(14);
  const contract = await createContract(admin, {
    customerId: customer.id,
    startDate: start,
    title: unique('Paid ahead'),
    sendToCustomer: true,
    lineItems: [{ productId: banner.id, quantity: 1, unitPrice: 100, discount: 0, seasonalPrice: null }],
  });
  const { paymentUrl } = await admin.post<{ paymentUrl: string }>(
    `/api/contracts/${contract.id}/generate-payment-link`,
    {},
  );
  const payToken = new URL(paymentUrl).pathname.split('/').pop()!;
  const payLink = await (await request.get(`/api/pay/${payToken}`)).json();
  const signed = await request.post(`/api/io/${payLink.insertionOrder.token}/accept`, {
    data: { signerName: 'Holly Lights', agree: true },
    headers: fromOurPage(),
  });
  expect(signed.ok(), await signed.text()).toBeTruthy();
  const opened = await request.post(`/api/pay/${payToken}/checkout`, { headers: fromOurPage() });
  expect(opened.ok(), await opened.text()).toBeTruthy();
  const checkout = new URL((await opened.json()).checkoutUrl).pathname.split('/').pop()!;
  const paid = await request.post(`/api/checkout/${checkout}/pay`, {
    data: {
      cardNumber: '4242 4242 4242 4242',
      expiry: `12 / ${new Date().getUTCFullYear() + 2}`,
      cvc: '123',
      name: 'Holly Lights',
    },
    headers: fromOurPage(),
  });
  expect(paid.ok(), await paid.text()).toBeTruthy();

  await signInAs(page, 'admin', `/contracts/${contract.id}`);
  const startText = new Date(`${start}T00:00:00Z`).toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  });
  await expect(
    page.getByText(
      `Starts ${startText}: add a line or end one from that day. The next invoice settles the difference.`,
    ),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Add Line' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a line' });
  await expect(dialog.getByText(`Blank: the contract's start (${startText}).`)).toBeVisible();
  await choose(dialog, 'Product', /Timed QR Code Placement/);
  await dialog.getByRole('button', { name: 'Preview' }).click();
  await expect(dialog.getByTestId('amendment-preview')).toBeVisible();
  await expect(dialog.getByText("Flight cannot start before the contract's start date")).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Add Line' }).click();
  await expect(toast(page, 'Line added')).toBeVisible();
  const lines = await admin.get<Contract>(`/api/contracts/${contract.id}`);
  expect(lines.lineItems.map((l) => l.flightStart)).toEqual([start, start]);
});
