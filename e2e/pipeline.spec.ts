import type { Locator, Page } from '@playwright/test';
import { apiAs, choose, expect, signInAs, test, toast, unique } from './fixtures';

/**
 * The Pipeline screen (product.md section 19) against the real server: a manager creates a deal in the dialog, the
 * board counts it in Lead, the card moves to the next stage with the keyboard alone, and a drop on Lost asks why.
 */

type StageFigures = { id: string; name: string; kind: string; count: number; total: number; weighted: number };
type Summary = { stages: StageFigures[] };

const usd = (dollars: number) => `$${dollars.toLocaleString('en-US', { minimumFractionDigits: 2 })}`;
const deals = (count: number) => `${count} ${count === 1 ? 'deal' : 'deals'}`;

const column = (page: Page, stage: string) =>
  page.getByTestId('pipeline-board').getByRole('region', { name: stage, exact: true });
/** What a screen reader hears from the board (dnd-kit's live region). */
const announcement = (page: Page) => page.locator('[id^="DndLiveRegion"]');

async function expectHeader(scope: Locator, count: number, total: number) {
  await expect(scope.getByTestId('stage-count')).toHaveText(deals(count));
  await expect(scope.getByTestId('stage-total')).toHaveText(usd(total));
}

/** The stages' figures as the API counts them now (other tests of this worker may have added deals). */
async function summary(page: Page) {
  const manager = await apiAs(page.request, 'sales_manager');
  const figures = await manager.get<Summary>('/api/pipeline/summary');
  return (name: string) => {
    const stage = figures.stages.find((s) => s.name === name);
    expect(stage, `the pipeline has a ${name} stage`).toBeTruthy();
    return stage!;
  };
}

test('a manager creates a deal, moves it with the keyboard alone, and a drop on Lost asks why', async ({ page }) => {
  test.slow();
  const title = unique('Holiday banners');
  const prospect = unique('Harbor Bakery');
  await signInAs(page, 'sales_manager', '/pipeline');
  await expect(page.getByRole('heading', { name: 'Pipeline', exact: true })).toBeVisible();
  const before = await summary(page);

  await test.step('the dialog creates the deal for a new prospect', async () => {
    await page.getByRole('button', { name: 'New deal' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New deal' });
    await dialog.getByRole('button', { name: 'Create deal' }).click();
    await expect(dialog.getByText('Title is required')).toBeVisible();
    await dialog.getByLabel('New prospect').check();
    await dialog.getByLabel('Prospect name').fill(prospect);
    await dialog.getByLabel('Prospect e-mail').fill(`${prospect.replaceAll(' ', '.').toLowerCase()}@example.test`);
    await dialog.getByLabel('Title', { exact: true }).fill(title);
    await dialog.getByLabel('Amount ($)').fill('12500');
    await expect(dialog.getByLabel('Probability (%)')).toHaveAttribute('placeholder', 'Stage default: 10%');
    await choose(dialog, 'Source', 'Referral');
    await dialog.getByRole('button', { name: 'Create deal' }).click();
    await expect(toast(page, 'Deal created')).toBeVisible();
    await expect(dialog).toBeHidden();
  });

  const lead = column(page, 'Lead');
  const qualified = column(page, 'Qualified');
  const card = (scope: Locator) => scope.getByRole('article', { name: title });

  await test.step('the board shows it in Lead, counted in the header', async () => {
    await expect(card(lead)).toBeVisible();
    await expect(card(lead)).toContainText(prospect);
    await expect(card(lead)).toContainText('$12,500.00');
    await expectHeader(lead, before('Lead').count + 1, before('Lead').total + 12500);
  });

  await test.step('Space, ArrowRight, Space on its handle moves it to Qualified', async () => {
    await card(lead)
      .getByRole('button', { name: `Move deal ${title}` })
      .focus();
    await page.keyboard.press('Space');
    await expect(announcement(page)).toHaveText(`Picked up deal ${title}.`);
    await page.keyboard.press('ArrowRight');
    await expect(announcement(page)).toHaveText('Moved over Qualified.');
    await page.keyboard.press('Space');
    await expect(announcement(page)).toHaveText('Dropped in Qualified.');
    await expect(card(qualified)).toBeVisible();
    await expect(card(lead)).toHaveCount(0);
    // The keyboard stays with the card, now in its new column.
    await expect(card(qualified).getByRole('button', { name: `Move deal ${title}` })).toBeFocused();
    await expectHeader(lead, before('Lead').count, before('Lead').total);
    await expectHeader(qualified, before('Qualified').count + 1, before('Qualified').total + 12500);
    // The server agrees once the board has refetched.
    await page.reload();
    await expect(card(column(page, 'Qualified'))).toBeVisible();
  });

  await test.step('dropped on Lost, it asks why and moves with the reason', async () => {
    const lostStage = before('Lost');
    await card(column(page, 'Qualified'))
      .getByRole('button', { name: `Move deal ${title}` })
      .focus();
    await page.keyboard.press('Space');
    await expect(announcement(page)).toHaveText(`Picked up deal ${title}.`);
    for (let step = 0; step < 8; step++) {
      await page.keyboard.press('ArrowRight');
      if ((await announcement(page).textContent()) === 'Moved over Lost.') break;
      await expect(announcement(page)).toHaveText(/^Moved over /);
    }
    await expect(announcement(page)).toHaveText('Moved over Lost.');
    await page.keyboard.press('Space');
    const dialog = page.getByRole('dialog', { name: 'Why was it lost?' });
    await expect(dialog).toContainText(`${title} moves to Lost.`);
    await dialog.getByRole('button', { name: 'Mark as lost' }).click();
    await expect(dialog.getByText('Choose the reason the deal was lost')).toBeVisible();
    await choose(dialog, 'Lost reason', 'Budget');
    await dialog.getByRole('button', { name: 'Mark as lost' }).click();
    await expect(dialog).toBeHidden();
    const lost = column(page, 'Lost');
    await expect(card(lost)).toBeVisible();
    await expect(card(lost).getByRole('button', { name: `Move deal ${title}` })).toBeFocused();
    await expectHeader(lost, lostStage.count + 1, lostStage.total + 12500);
    await expect(card(column(page, 'Qualified'))).toHaveCount(0);
  });

  await test.step('its details say why it was lost', async () => {
    await card(column(page, 'Lost')).getByRole('button', { name: title, exact: true }).click();
    const details = page.getByRole('dialog', { name: title });
    await expect(details).toContainText('Lost reason');
    await expect(details).toContainText('Budget');
    await expect(details.getByRole('button', { name: 'Mark as lost' })).toHaveCount(0);
  });
});

test('a card moves with the mouse too', async ({ page }) => {
  const manager = await apiAs(page.request, 'sales_manager');
  const [customer] = await manager.get<{ id: string }[]>('/api/customers?limit=1');
  const deal = await manager.post<{ title: string }>('/api/deals', {
    customerId: customer.id,
    title: unique('Radio spots'),
    amount: 2000,
  });
  await signInAs(page, 'sales_manager', '/pipeline');
  const handle = column(page, 'Lead')
    .getByRole('article', { name: deal.title })
    .getByRole('button', { name: `Move deal ${deal.title}` });
  const from = (await handle.boundingBox())!;
  const to = (await column(page, 'Qualified').boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + 40, from.y + 10, { steps: 5 });
  await page.mouse.move(to.x + to.width / 2, to.y + 120, { steps: 10 });
  await expect(announcement(page)).toHaveText('Moved over Qualified.');
  await page.mouse.up();
  await expect(column(page, 'Qualified').getByRole('article', { name: deal.title })).toBeVisible();
  await expect(column(page, 'Lead').getByRole('article', { name: deal.title })).toHaveCount(0);
});

test('from its details a deal drafts its contract, and an open deal without one can be deleted', async ({ page }) => {
  const manager = await apiAs(page.request, 'sales_manager');
  const [customer] = await manager.get<{ id: string }[]>('/api/customers?limit=1');
  const [product] = await manager.get<{ id: string }[]>('/api/products?active=true&limit=1');
  // The contract starts with the deal's lines.
  const contracted = await manager.post<{ title: string }>('/api/deals', {
    customerId: customer.id,
    title: unique('Winter billboard'),
    amount: 6000,
    flightStart: '2027-01-01',
    flightEnd: '2027-03-31',
    lines: [{ productId: product.id, quantity: 2, unitPrice: 3000 }],
  });
  const doomed = await manager.post<{ title: string }>('/api/deals', {
    customerId: customer.id,
    title: unique('Abandoned idea'),
    amount: 100,
  });
  await signInAs(page, 'sales_manager', '/pipeline');

  await column(page, 'Lead').getByRole('button', { name: contracted.title, exact: true }).click();
  let details = page.getByRole('dialog', { name: contracted.title });
  await details.getByRole('button', { name: 'Create contract' }).click();
  await expect(toast(page, 'Draft contract created')).toBeVisible();
  await expect(details.getByRole('button', { name: 'Create contract' })).toHaveCount(0);
  await expect(details.getByRole('button', { name: 'Delete' })).toHaveCount(0);
  await details.getByRole('link', { name: 'Open contract' }).click();
  await expect(page).toHaveURL(/\/contracts\/[0-9a-f-]+\/edit$/);

  await page.goto('/pipeline');
  await column(page, 'Lead').getByRole('button', { name: doomed.title, exact: true }).click();
  details = page.getByRole('dialog', { name: doomed.title });
  await details.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete this deal?' });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(toast(page, 'Deal deleted')).toBeVisible();
  await expect(page.getByRole('article', { name: doomed.title })).toHaveCount(0);
});

test('the list sorts on the server by the header chosen', async ({ page }) => {
  const manager = await apiAs(page.request, 'sales_manager');
  const [customer] = await manager.get<{ id: string }[]>('/api/customers?limit=1');
  const tag = unique('Sorted');
  for (const amount of [300, 100, 200]) {
    await manager.post('/api/deals', { customerId: customer.id, title: `${tag} ${amount}`, amount });
  }
  await signInAs(page, 'sales_manager', `/pipeline?view=list&q=${encodeURIComponent(tag)}`);
  const rows = page.getByTestId('deal-row');
  await expect(page.getByTestId('deals-count')).toHaveText('3 deals');
  await page.getByRole('button', { name: 'Amount' }).click();
  await expect(page).toHaveURL(/[?&]sort=amount/);
  await expect(rows.getByRole('rowheader')).toHaveText([`${tag} 100`, `${tag} 200`, `${tag} 300`]);
  await page.getByRole('button', { name: 'Amount' }).click();
  await expect(page).toHaveURL(/[?&]sort=-amount/);
  await expect(rows.getByRole('rowheader')).toHaveText([`${tag} 300`, `${tag} 200`, `${tag} 100`]);
  await expect(page.getByRole('columnheader', { name: 'Amount' })).toHaveAttribute('aria-sort', 'descending');
});

test('the filters live in the address and a rep sees no rep filter', async ({ page }) => {
  await signInAs(page, 'sales_manager', '/pipeline');
  await expect(page.getByRole('combobox', { name: 'Rep' })).toBeVisible();
  await choose(page, 'Source', 'Referral');
  await expect(page).toHaveURL(/[?&]source=referral/);
  await page.getByLabel('Close month').fill('2027-03');
  await expect(page).toHaveURL(/[?&]month=2027-03/);
  await page.getByRole('button', { name: 'List', exact: true }).click();
  await expect(page).toHaveURL(/[?&]view=list/);
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Source' })).toHaveText('Referral');
  await expect(page.getByLabel('Close month')).toHaveValue('2027-03');
  await expect(page.getByRole('button', { name: 'List', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('deals-count')).toHaveText(/^\d+ deals?$/);

  await signInAs(page, 'sales', '/pipeline');
  await expect(page.getByRole('heading', { name: 'Pipeline', exact: true })).toBeVisible();
  await expect(page.getByLabel('Source')).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Rep' })).toHaveCount(0);
});

test.describe('on a 360 px phone', () => {
  test.use({ viewport: { width: 360, height: 800 } });

  test('the board scrolls sideways inside itself and the page does not', async ({ page }) => {
    const manager = await apiAs(page.request, 'sales_manager');
    const customers = await manager.get<{ id: string }[]>('/api/customers?limit=1');
    await manager.post('/api/deals', {
      customerId: customers[0].id,
      title: unique('A deal with a rather long title that has to wrap on a phone'),
      amount: 980,
      source: 'inbound',
    });
    await signInAs(page, 'sales_manager', '/pipeline');
    const board = page.getByTestId('pipeline-board');
    await expect(board.getByRole('region').first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    const widths = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      viewport: window.innerWidth,
    }));
    expect(widths.page, 'the page is no wider than the phone').toBeLessThanOrEqual(widths.viewport);
    expect(
      await board.evaluate((element) => element.scrollWidth > element.clientWidth),
      'the columns scroll inside the board',
    ).toBe(true);
  });
});
