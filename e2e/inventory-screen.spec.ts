import { INVENTORY_MESSAGES } from '@shared/contracts/inventory';
import { createContract } from './contracts-helpers';
import { apiAs, expect, signInAs, test, unique } from './fixtures';

/**
 * The Inventory screen (product.md section 13): an inventory product of 2 slots a day, one slot of a day
 * booked by an active contract and the other held by a sent one, shows that day sold out in the season's
 * calendar; the day lists both contracts to a manager, and to a sales rep who is neither contract's rep only the
 * slots they take and until when.
 */

const today = () => new Date().toISOString().slice(0, 10);

test('a manager sees a sold-out day of an inventory product and the contracts holding it', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const admin = await apiAs(request, 'admin');
  const year = today().slice(0, 4);
  // A day of this year's season that is not past: the contracts start today.
  const day = today() > `${year}-12-15` ? today() : `${year}-12-15`;

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
  // The season by default.
  await expect(page.getByLabel('From', { exact: true })).toHaveValue(`${year}-10-01`);
  await expect(page.getByLabel('To', { exact: true })).toHaveValue(`${year}-12-31`);

  const card = page.getByTestId('inventory-product').filter({ hasText: productName });
  await expect(card).toContainText('Capacity: 2 slots a day');
  await expect(card.getByRole('heading', { name: `December ${year}` })).toBeVisible();
  const cell = card.getByRole('button', { name: new RegExp(`^${day}: 0 of 2 available, 1 booked, 1 held`) });
  await expect(cell).toHaveAttribute('data-sell-through', 'sold_out');
  await expect(cell).toContainText('0/2');
  // The days around it are free.
  await expect(card.locator(`[data-date="${year}-12-31"]`)).toHaveAttribute('data-sell-through', 'free');

  await test.step('the day lists the contract booking it and the one holding it', async () => {
    await cell.click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('heading')).toContainText(productName);
    await expect(dialog).toContainText('0 of 2 slots available · 1 booked · 1 held');
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
    await page.getByLabel('To', { exact: true }).fill(`${year}-09-01`);
    await expect(page.getByText(INVENTORY_MESSAGES.toBeforeFrom)).toBeVisible();
    await page.waitForTimeout(800);
    expect(calendarRequests.slice(before)).toEqual([]);
    await page.getByRole('button', { name: 'Holiday season' }).click();
    await expect(page.getByText(INVENTORY_MESSAGES.toBeforeFrom)).toHaveCount(0);
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
