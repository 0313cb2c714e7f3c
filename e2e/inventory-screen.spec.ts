import { INVENTORY_MESSAGES } from '@shared/contracts/inventory';
import { createContract } from './contracts-helpers';
import { apiAs, expect, signInAs, test, unique } from './fixtures';

/**
 * The Inventory screen (product.md section 13): an inventory product of 2 slots a day, one slot of a day
 * booked by an active contract and the other held by a sent one, shows that day sold out in the calendar of
 * the current months; the day lists both contracts to a manager, and to a sales rep who is neither contract's
 * rep only the slots they take and until when. A second test reads a month's sell-through and booked value,
 * a sold-out day's next free dates, products side by side by day, the moving range and a phone.
 */

const today = () => new Date().toISOString().slice(0, 10);
/** A YYYY-MM-DD day plus whole days. */
const plusDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
/** The first day of the month `months` after the current one (UTC: the demo's business time zone). */
const monthFirst = (months: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + months, 1)).toISOString().slice(0, 10);
};
/** The last day of the month `months` after the current one. */
const monthLast = (months: number) => plusDays(monthFirst(months + 1), -1);
const monthName = (first: string) =>
  new Date(`${first}T00:00:00Z`).toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });

test('a manager sees a sold-out day of an inventory product and the contracts holding it', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const admin = await apiAs(request, 'admin');
  // A day two weeks ahead: in the current months whatever today is; the contracts start today.
  const day = plusDays(today(), 14);

  const productName = unique('Holiday Pre-roll');
  const product = await admin.post<{ id: string; capacity: number }>('/api/products', {
    name: productName,
    adType: 'pre_roll',
    defaultPrice: 500,
    priceMetric: 'flat',
    inventoryRequired: true,
    capacity: 2,
  });
  expect(product.capacity).toBe(2);
  const customerName = unique('Snowfall Outfitters');
  const customer = await admin.post<{ id: string }>('/api/customers', {
    name: customerName,
    email: `${customerName.toLowerCase().replaceAll(' ', '-')}@example.test`,
  });
  const line = { productId: product.id, quantity: 1, unitPrice: 500, discount: 0, flightStart: day, flightEnd: day };
  const booked = await createContract(admin, {
    customerId: customer.id,
    startDate: today(),
    termMonths: 12,
    description: unique('Winter sale'),
    makeActive: true,
    lineItems: [line],
  });
  expect(booked.status).toBe('active');
  const held = await createContract(admin, {
    customerId: customer.id,
    startDate: today(),
    termMonths: 12,
    description: unique('Boxing week'),
    sendToCustomer: true,
    lineItems: [line],
  });
  expect(held.status).toBe('sent');

  const calendarRequests: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/inventory') calendarRequests.push(new URL(r.url()).search);
  });
  await signInAs(page, 'sales_manager', '/inventory');
  await expect(page.getByRole('heading', { name: 'Inventory', level: 1 })).toBeVisible();
  // The current month and the next two by default (filled in from the server's answer).
  await expect(page.getByLabel('From', { exact: true })).toHaveValue(monthFirst(0), { timeout: 30_000 });
  await expect(page.getByLabel('To', { exact: true })).toHaveValue(monthLast(2));

  const card = page.getByTestId('inventory-product').filter({ hasText: productName });
  await expect(card).toContainText('Capacity: 2 slots a day');
  await expect(card.getByRole('heading', { name: monthName(`${day.slice(0, 7)}-01`) })).toBeVisible();
  const cell = card.getByRole('button', { name: new RegExp(`^${day}: 0 of 2 available, 1 booked, 1 held`) });
  await expect(cell).toHaveAttribute('data-sell-through', 'sold_out');
  // Booked, held and free apart.
  await expect(cell.locator('[data-figure="booked"]')).toHaveText('1B');
  await expect(cell.locator('[data-figure="held"]')).toHaveText('1H');
  await expect(cell.locator('[data-figure="available"]')).toHaveText('0F');
  // The days around it are free.
  await expect(card.locator(`[data-date="${plusDays(day, 1)}"]`)).toHaveAttribute('data-sell-through', 'free');

  await test.step('the day lists the contract booking it and the one holding it', async () => {
    await cell.click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('heading')).toContainText(productName);
    await expect(dialog).toContainText('0 of 2 slots available · 1 booked · 1 held');
    // Sold out: the next days with a slot free.
    await expect(dialog.getByTestId('inventory-next-free').getByRole('button')).toHaveCount(3);
    const holders = dialog.getByTestId('inventory-holder');
    await expect(holders).toHaveCount(2);
    const bookedRow = holders.filter({ has: page.locator('[data-status="active"]') });
    await expect(bookedRow).toHaveAttribute('data-kind', 'booked');
    await expect(bookedRow).toContainText(customerName);
    await expect(bookedRow).toContainText('Booked');
    const heldRow = holders.filter({ has: page.locator('[data-status="sent"]') });
    await expect(heldRow).toHaveAttribute('data-kind', 'held');
    await expect(heldRow).toContainText('Held');

    // Closing gives the focus back to the day.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(cell).toBeFocused();
  });

  await test.step('a range the API would refuse is not asked for', async () => {
    const before = calendarRequests.length;
    await page.getByLabel('To', { exact: true }).fill(plusDays(monthFirst(0), -1));
    await expect(page.getByText(INVENTORY_MESSAGES.toBeforeFrom)).toBeVisible();
    // An invalid range has nothing to ask for (checkRange, range.test.ts): the next request is the next valid
    // range's, and it is the only one.
    const valid = `?from=${monthFirst(0)}&to=${monthLast(1)}`;
    const asked = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/inventory');
    await page.getByLabel('To', { exact: true }).fill(monthLast(1));
    await expect(page.getByText(INVENTORY_MESSAGES.toBeforeFrom)).toHaveCount(0);
    await asked;
    expect(calendarRequests.slice(before)).toEqual([valid]);
    await page.getByRole('button', { name: 'Current months' }).click();
    await expect(page.getByText(INVENTORY_MESSAGES.toBeforeFrom)).toHaveCount(0);
    await expect(page.getByLabel('To', { exact: true })).toHaveValue(monthLast(2));
  });

  await test.step('the booking contract opens from the day', async () => {
    await cell.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    const link = dialog.getByRole('link', { name: new RegExp(`^Contract ${booked.id.slice(-8)}`) });
    await expect(link).toHaveAttribute('href', `/contracts/${booked.id}`);
    await link.click();
    await expect(page).toHaveURL(new RegExp(`/contracts/${booked.id}$`));
  });

  await test.step('the holding contract says how long its slots stay held', async () => {
    await page.goto(`/contracts/${held.id}`);
    await expect(page.getByTestId('inventory-hold')).toContainText('Its inventory slots are held until');
    await page.goto(`/contracts/${booked.id}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByTestId('inventory-hold')).toHaveCount(0);
  });

  await test.step("a sales rep sees other reps' contracts as the slots they take and until when", async () => {
    await signInAs(page, 'sales', '/inventory');
    const repCell = page
      .getByTestId('inventory-product')
      .filter({ hasText: productName })
      .getByRole('button', { name: new RegExp(`^${day}: 0 of 2 available, 1 booked, 1 held`) });
    await repCell.click();
    const dialog = page.getByRole('dialog');
    const holders = dialog.getByTestId('inventory-holder');
    await expect(holders).toHaveCount(2);
    const ends = new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', {
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      timeZone: 'UTC',
    });
    const bookedRow = holders.and(page.locator('[data-kind="booked"]'));
    await expect(bookedRow).toHaveAttribute('data-shown', 'units');
    await expect(bookedRow).toContainText('Booked');
    await expect(bookedRow).toContainText(ends);
    const heldRow = holders.and(page.locator('[data-kind="held"]'));
    await expect(heldRow).toHaveAttribute('data-shown', 'units');
    await expect(heldRow).toContainText('Held');
    await expect(heldRow).toContainText(ends);
    // Nothing that names the deals or their customer, and no way into them.
    await expect(dialog).not.toContainText(customerName);
    await expect(dialog).not.toContainText(booked.id.slice(-8));
    await expect(dialog).not.toContainText(held.id.slice(-8));
    await expect(dialog.getByRole('link')).toHaveCount(0);
    await expect(dialog.locator('[data-status]')).toHaveCount(0);
    await page.keyboard.press('Escape');
  });
});

test("a month's sell-through and booked value, a sold-out day's next free dates, products side by side", async ({
  page,
  request,
}) => {
  test.setTimeout(360_000);
  const admin = await apiAs(request, 'admin');
  // Next month (always in the current months): M-01 ... M-last, `length` days.
  const first = monthFirst(1);
  const last = monthLast(1);
  const length = Number(last.slice(8, 10));
  const on = (n: number) => `${first.slice(0, 8)}${String(n).padStart(2, '0')}`;

  const product = (name: string, capacity: number) =>
    admin.post<{ id: string }>('/api/products', {
      name,
      adType: 'pre_roll',
      defaultPrice: 100,
      priceMetric: 'monthly',
      inventoryRequired: true,
      capacity,
    });
  const preRollName = unique('Pre-roll Trio');
  const takeoverName = unique('Homepage Solo');
  const preRoll = await product(preRollName, 3);
  const takeover = await product(takeoverName, 1);
  const customerName = unique('Frost Fair');
  const customer = await admin.post<{ id: string }>('/api/customers', {
    name: customerName,
    email: `${customerName.toLowerCase().replaceAll(' ', '-')}@example.test`,
  });
  const contract = (
    productId: string,
    quantity: number,
    unitPrice: number,
    from: string,
    to: string,
    status: 'active' | 'sent',
  ) =>
    createContract(admin, {
      customerId: customer.id,
      startDate: from,
      termMonths: 1,
      description: unique('Winter run'),
      ...(status === 'active' ? { makeActive: true } : { sendToCustomer: true }),
      // A line at no charge still needs a contract with an amount: a setup fee, which is not the line's.
      setupFee: unitPrice === 0 ? 50 : 0,
      lineItems: [{ productId, quantity, unitPrice, discount: 0, flightStart: from, flightEnd: to }],
    });
  // Pre-roll (3 a day): 2 booked the whole month at $3,100 a month each; 1 held on the 8th-10th; 1 booked on
  // the 11th-12th at no charge (a setup fee is not booked value). The 8th-12th are sold out. The takeover (1 a day): booked on the 9th.
  await contract(preRoll.id, 2, 3100, first, last, 'active');
  await contract(preRoll.id, 1, 0, on(8), on(10), 'sent');
  await contract(preRoll.id, 1, 0, on(11), on(12), 'active');
  await contract(takeover.id, 1, 0, on(9), on(9), 'active');
  // 2 x length + 2 booked slot-days of 3 x length, in percent with one decimal.
  const sellThrough: Record<number, string> = { 28: '69.0%', 29: '69.0%', 30: '68.9%', 31: '68.8%' };

  await signInAs(page, 'sales_manager', '/inventory');
  const card = page.getByTestId('inventory-product').filter({ hasText: preRollName });
  await expect(card).toBeVisible({ timeout: 30_000 });

  await test.step('a month says its sell-through and what its bookings bill', async () => {
    const summary = card.locator(`[data-testid="inventory-month-summary"][data-month="${first.slice(0, 7)}"]`);
    await expect(summary.getByTestId('month-sell-through')).toHaveText(sellThrough[length]);
    // $6,200 a month for the whole month; the other booking bills nothing.
    await expect(summary.getByTestId('month-booked-value')).toHaveText('$6,200.00');
    await expect(summary).toContainText(`${2 * length + 2} of ${3 * length} slot-days booked, 3 held`);
  });

  await test.step('a sold-out day offers the next free dates, which open', async () => {
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath('inventory-calendars.png'), fullPage: true });
    const cell = card.locator(`[data-date="${on(9)}"]`);
    await expect(cell).toHaveAttribute('data-sell-through', 'sold_out');
    await expect(cell.locator('[data-figure="booked"]')).toHaveText('2B');
    await expect(cell.locator('[data-figure="held"]')).toHaveText('1H');
    await expect(cell.locator('[data-figure="available"]')).toHaveText('0F');
    await cell.click();
    const dialog = page.getByRole('dialog');
    const nextFree = dialog.getByTestId('inventory-next-free');
    await expect(nextFree.getByRole('button')).toHaveCount(3);
    await page.screenshot({ path: test.info().outputPath('inventory-sold-out-day.png') });
    expect(
      await nextFree.locator('[data-date]').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('data-date'))),
    ).toEqual([on(13), on(14), on(15)]);
    await nextFree.locator(`[data-date="${on(13)}"]`).click();
    await expect(dialog.getByRole('heading')).toContainText(
      new Date(`${on(13)}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' }),
    );
    await expect(dialog).toContainText('1 of 3 slots available · 2 booked · 0 held');
    await expect(dialog.getByTestId('inventory-next-free')).toHaveCount(0);
    await page.keyboard.press('Escape');
  });

  await test.step('products side by side, a column per day', async () => {
    await page.getByRole('button', { name: 'Products × days' }).click();
    await expect(page).toHaveURL(/view=grid/);
    const grid = page.getByTestId('inventory-grid');
    const preRollRow = grid.getByTestId('inventory-grid-row').filter({ hasText: preRollName });
    const takeoverRow = grid.getByTestId('inventory-grid-row').filter({ hasText: takeoverName });
    // A column for every day of the current months.
    const rangeDays =
      (Date.parse(`${monthLast(2)}T00:00:00Z`) - Date.parse(`${monthFirst(0)}T00:00:00Z`)) / 86_400_000 + 1;
    await expect(preRollRow.locator('[data-date]')).toHaveCount(rangeDays);
    const preRollDay = preRollRow.getByRole('button', {
      name: `${preRollName}, ${on(9)}: 0 of 3 available, 2 booked, 1 held`,
    });
    await expect(preRollDay).toHaveAttribute('data-sell-through', 'sold_out');
    const takeoverDay = takeoverRow.getByRole('button', {
      name: `${takeoverName}, ${on(9)}: 0 of 1 available, 1 booked, 0 held`,
    });
    await expect(takeoverDay).toHaveAttribute('data-sell-through', 'sold_out');
    await expect(takeoverDay.locator('[data-figure="booked"]')).toHaveText('1B');
    await expect(takeoverRow.locator(`[data-date="${on(10)}"]`)).toHaveAttribute('data-sell-through', 'free');
    // The arrow keys move between products on the same day.
    await preRollDay.focus();
    await page.keyboard.press('ArrowDown');
    await expect(page.locator(':focus')).toHaveAttribute('data-date', on(9));
    // The months of each product side by side.
    const months = page.getByTestId('inventory-months').locator(`tr[data-product-id="${preRoll.id}"]`);
    await expect(months.locator(`[data-month="${first.slice(0, 7)}"]`).getByTestId('month-booked-value')).toHaveText(
      '$6,200.00',
    );
    await page.screenshot({ path: test.info().outputPath('inventory-grid.png'), fullPage: true });
    // The day opens from the grid too.
    await preRollDay.click();
    await expect(page.getByRole('dialog').getByTestId('inventory-next-free').getByRole('button')).toHaveCount(3);
    await page.keyboard.press('Escape');
  });

  await test.step('the range moves to later and earlier months', async () => {
    await page.getByRole('button', { name: /^Later/ }).click();
    await expect(page.getByLabel('From', { exact: true })).toHaveValue(monthFirst(3));
    await expect(page.getByLabel('To', { exact: true })).toHaveValue(monthLast(5));
    await expect(page).toHaveURL(new RegExp(`from=${monthFirst(3)}`));
    await expect(page.getByTestId('inventory-summary')).toContainText(
      new Date(`${monthFirst(3)}T00:00:00Z`).toLocaleDateString('en-US', {
        month: 'short',
        day: 'numeric',
        year: 'numeric',
        timeZone: 'UTC',
      }),
    );
    await page.getByRole('button', { name: /^Earlier/ }).click();
    await expect(page.getByLabel('From', { exact: true })).toHaveValue(monthFirst(0));
    await expect(page).not.toHaveURL(/from=/);
  });

  await test.step('a phone shows both views without scrolling the page sideways', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const view of ['Calendars', 'Products × days']) {
      await page.getByRole('button', { name: view }).click();
      await expect(page.getByTestId('inventory-calendar')).toBeVisible();
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, view).toBeLessThanOrEqual(390);
    }
    await page.screenshot({ path: test.info().outputPath('inventory-phone-grid.png') });
    await page.getByRole('button', { name: 'Calendars' }).click();
    const phoneCell = card.locator(`[data-date="${on(9)}"]`);
    await phoneCell.scrollIntoViewIfNeeded();
    await expect(phoneCell.locator('[data-figure="available"]')).toBeVisible();
    const box = await phoneCell.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await page.screenshot({ path: test.info().outputPath('inventory-phone.png'), fullPage: false });
  });
});
