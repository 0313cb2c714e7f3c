import type { Locator, Page } from '@playwright/test';
import { apiAs, type DemoAccount, expect, signInAs, signInWith, test, unique } from './fixtures';

/**
 * Tables that fit: at 1280x800 every staff list's table fits its frame, or (scrolling sideways) keeps the
 * record's first column and its actions in view; narrower, a table that scrolls shows a shadow where more
 * columns are; below 640 px each row is a card with its identity, amount, status and main action in view.
 */

type Screen = { role: DemoAccount; path: string; caption: string; row: string };

/** Every staff screen whose list is a table, with the table's caption and its rows' test id. */
const STAFF_LISTS: Screen[] = [
  { role: 'finance', path: '/invoices', caption: 'Invoices', row: 'invoice-row' },
  { role: 'finance', path: '/invoices?type=credit_notes', caption: 'Credit notes', row: 'credit-note-row' },
  { role: 'admin', path: '/contracts', caption: 'Contracts', row: 'contract-row' },
  { role: 'sales', path: '/contracts', caption: 'Contracts', row: 'contract-row' },
  { role: 'admin', path: '/commissions', caption: 'Commission history', row: 'commission-row' },
  { role: 'sales', path: '/commissions', caption: 'Commission history', row: 'commission-row' },
  { role: 'admin', path: '/payouts', caption: 'Payout requests', row: 'payout-row' },
];

/** The box of an element, which must be on screen. */
async function box(locator: Locator) {
  const b = await locator.boundingBox();
  expect(b, 'the element is on screen').not.toBeNull();
  return b!;
}

/** Whether the box lies inside the window, across (the window's width). */
async function withinWindow(page: Page, locator: Locator) {
  const b = await box(locator);
  const width = page.viewportSize()!.width;
  return b.x >= 0 && b.x + b.width <= width + 0.5;
}

async function open(page: Page, screen: Screen) {
  await signInAs(page, screen.role, screen.path);
  await expect(page.getByTestId(screen.row).first()).toBeVisible();
}

test.describe('at 1280x800', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  for (const screen of STAFF_LISTS) {
    test(`${screen.role} ${screen.path}: the table fits, or its first column and actions stay in view`, async ({
      page,
    }) => {
      await open(page, screen);
      const table = page.getByRole('table', { name: screen.caption });
      const sizes = await table.evaluate((element) => ({
        table: element.scrollWidth,
        frame: (element.parentElement as HTMLElement).clientWidth,
      }));
      const row = page.getByTestId(screen.row).first();
      const first = row.locator('th, td').first();
      const last = row.locator('th, td').last();
      if (sizes.table > sizes.frame) {
        expect(await withinWindow(page, first), 'the first column is in view').toBe(true);
        expect(await withinWindow(page, last), 'the actions are in view').toBe(true);
      }
      // Whether it scrolls or not: the page itself never does, and the row's first and last cells are on it.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
      expect(await withinWindow(page, first)).toBe(true);
      expect(await withinWindow(page, last)).toBe(true);
    });
  }

  test('the Invoices table fits with Record Payment, the menu and the number in view', async ({ page }) => {
    await signInAs(page, 'finance', '/invoices?overdue=true');
    const table = page.getByRole('table', { name: 'Invoices' });
    const row = page.getByTestId('invoice-row').first();
    await expect(row).toBeVisible();
    const sizes = await table.evaluate((element) => ({
      table: element.scrollWidth,
      frame: (element.parentElement as HTMLElement).clientWidth,
    }));
    expect(sizes.table, 'the table is no wider than its frame').toBeLessThanOrEqual(sizes.frame);
    const number = (await row.getAttribute('data-invoice-number'))!;
    for (const target of [
      row.getByRole('button', { name: number, exact: true }),
      row.getByRole('button', { name: `Record payment for ${number}` }),
      row.getByRole('button', { name: `Actions for ${number}` }),
    ]) {
      await expect(target).toBeVisible();
      expect(await withinWindow(page, target)).toBe(true);
    }
    // Every header the screen had is there (the period under the number at this width).
    for (const header of ['Invoice', 'Customer', 'Due', 'Total', 'Amount due', 'Status']) {
      await expect(table.getByRole('columnheader', { name: header, exact: true })).toBeVisible();
    }
    await expect(row).toContainText(/[A-Z][a-z]{2} \d{1,2} – [A-Z][a-z]{2} \d{1,2}, \d{4}/);
    await page.screenshot({ path: test.info().outputPath('invoices-1280.png') });
  });
});

test('narrower, a table that scrolls keeps the number and the actions in view, with a shadow where more is', async ({
  page,
}) => {
  await page.setViewportSize({ width: 800, height: 800 });
  await signInAs(page, 'finance', '/invoices');
  const row = page.getByTestId('invoice-row').first();
  await expect(row).toBeVisible();
  const scroller = page.getByRole('region', { name: 'Invoices (scrolls sideways)' });
  await expect(scroller).toBeVisible();
  const number = row.locator('td').first();
  const actions = row.locator('td').last();
  const shadow = (cell: Locator) => cell.evaluate((element) => getComputedStyle(element).boxShadow);

  // At the start: nothing hidden on the left, more on the right (the actions cast a shadow over it).
  expect(await shadow(number)).toBe('none');
  expect(await shadow(actions)).not.toBe('none');
  const frame = await box(scroller);
  for (const cell of [number, actions]) {
    const b = await box(cell);
    expect(b.x).toBeGreaterThanOrEqual(frame.x - 0.5);
    expect(b.x + b.width).toBeLessThanOrEqual(frame.x + frame.width + 0.5);
  }

  // Scrolled to the end: the number is still at the left, now with a shadow; nothing more on the right.
  await scroller.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
  await expect.poll(() => shadow(number)).not.toBe('none');
  await expect.poll(() => shadow(actions)).toBe('none');
  for (const cell of [number, actions]) {
    const b = await box(cell);
    expect(b.x).toBeGreaterThanOrEqual(frame.x - 0.5);
    expect(b.x + b.width).toBeLessThanOrEqual(frame.x + frame.width + 0.5);
  }
  // The keyboard scrolls it too.
  await scroller.focus();
  await expect(scroller).toBeFocused();
});

test.describe('on a 390x844 phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  /** The cards of a list: none of it a table, each card's parts in view without scrolling sideways. */
  async function expectCards(page: Page, screen: Screen, parts: ('amount' | 'status' | 'actions')[]) {
    await open(page, screen);
    await expect(page.getByRole('table', { name: screen.caption })).toHaveCount(0);
    const list = page.getByRole('list', { name: screen.caption });
    const card = list.getByTestId(screen.row).first();
    for (const part of parts) {
      const target = card.locator(`[data-card-role="${part}"]`);
      await expect(target, `${screen.path}: the card's ${part}`).toBeVisible();
      await expect(target).not.toBeEmpty();
      expect(await withinWindow(page, target)).toBe(true);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    return card;
  }

  test('invoices are cards with the number, amount due, status, Record Payment and the menu', async ({ page }) => {
    const card = await expectCards(
      page,
      { role: 'finance', path: '/invoices?overdue=true', caption: 'Invoices', row: 'invoice-row' },
      ['amount', 'status', 'actions'],
    );
    const number = (await card.getAttribute('data-invoice-number'))!;
    await expect(card.locator('[data-card-role="amount"]')).toContainText(/\$[\d,]+\.\d{2}/);
    await expect(card.locator('[data-card-role="amount"]')).toContainText('Amount due');
    await expect(card.locator('[data-card-role="status"]')).toContainText('Overdue');
    const pay = card.getByRole('button', { name: `Record payment for ${number}` });
    await expect(pay).toBeVisible();
    await expect(pay).toContainText('Record Payment');
    await expect(card.getByRole('button', { name: `Actions for ${number}` })).toBeVisible();
    await expect(card.getByRole('button', { name: number, exact: true })).toBeVisible();
  });

  test('credit notes are cards with the amount, kind and PDF', async ({ page }) => {
    await expectCards(
      page,
      { role: 'finance', path: '/invoices?type=credit_notes', caption: 'Credit notes', row: 'credit-note-row' },
      ['amount', 'status', 'actions'],
    );
  });

  test('contracts are cards with the value, status and actions', async ({ page }) => {
    await open(page, { role: 'admin', path: '/contracts', caption: 'Contracts', row: 'contract-row' });
    const card = page.getByRole('list', { name: 'Contracts' }).getByTestId('contract-row').first();
    const id = (await card.getAttribute('data-contract-id'))!;
    for (const target of [
      card.getByTestId('contract-value'),
      card.getByRole('link', { name: `Contract ${id.slice(-8)}` }),
      card.getByRole('button', { name: /actions/i }),
    ]) {
      await expect(target).toBeVisible();
      expect(await withinWindow(page, target)).toBe(true);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  test('commissions are cards with the amount and status', async ({ page }) => {
    await expectCards(
      page,
      { role: 'admin', path: '/commissions', caption: 'Commission history', row: 'commission-row' },
      ['amount', 'status'],
    );
  });

  test('payout requests are cards with the amount, status and actions', async ({ page }) => {
    await expectCards(page, { role: 'admin', path: '/payouts', caption: 'Payout requests', row: 'payout-row' }, [
      'amount',
      'status',
      'actions',
    ]);
  });

  test("the portal's invoices show the amount and Pay Now without scrolling sideways", async ({ page, request }) => {
    test.setTimeout(120_000);
    // A client whose active contract has issued its first invoice, still to pay.
    const admin = await apiAs(request, 'admin');
    const name = unique('Lumen Theatres');
    const customer = await admin.post('/api/customers', {
      name,
      email: `${name.toLowerCase().replaceAll(' ', '-')}@example.test`,
      contactPerson: 'Ines Roy',
      company: name,
    });
    const [product] = await admin.get<{ id: string }[]>('/api/products?limit=1');
    await admin.post('/api/contracts', {
      customerId: customer.id,
      title: `${name} spring campaign`,
      startDate: new Date().toISOString().slice(0, 10),
      paymentMode: 'portal',
      makeActive: true,
      lineItems: [{ productId: product.id, quantity: 1, unitPrice: 950, discount: 0 }],
    });
    const email = `client-${customer.id.slice(0, 8)}@example.test`;
    await admin.post('/api/users', {
      firstName: 'Ines',
      lastName: 'Roy',
      email,
      password: 'client-pass',
      role: 'client',
      commissionRate: 0,
      customerId: customer.id,
    });

    await signInWith(page, email, 'client-pass', '/portal');
    await expect(page.getByRole('table', { name: 'Recent invoices' })).toHaveCount(0);
    const card = page.getByRole('list', { name: 'Recent invoices' }).getByTestId('client-invoice').first();
    await expect(card).toBeVisible();
    const response = await page.request.get('/api/client/invoices');
    expect(response.ok()).toBeTruthy();
    const [invoice] = (await response.json()) as { number: string; amount: number; status: string }[];
    expect(invoice.status).toBe('pending');
    const dollars = `$${invoice.amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
    await expect(card).toContainText(invoice.number);
    const amount = card.locator('[data-card-role="amount"]');
    await expect(amount).toContainText(dollars);
    await expect(card.locator('[data-card-role="status"]')).toContainText('Pending');
    const pay = card.getByRole('button', { name: `Pay ${invoice.number} now` });
    await expect(pay).toContainText('Pay Now');
    for (const target of [amount, pay]) {
      await target.scrollIntoViewIfNeeded();
      expect(await withinWindow(page, target), 'in view without scrolling sideways').toBe(true);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // The contracts and credit notes are cards too.
    await expect(page.getByRole('table')).toHaveCount(0);
    await card.screenshot({ path: test.info().outputPath('portal-invoice-card-390.png') });
    await page.screenshot({ path: test.info().outputPath('portal-390.png'), fullPage: true });
  });
});
