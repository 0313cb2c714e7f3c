import type { Page } from '@playwright/test';
import { apiAs, choose, expect, signInAs, test, toast } from './fixtures';

/**
 * The Forecast screen (product.md section 19) against the real server and the demo's deals and targets (the manager
 * set each rep's target for the next six months: Jordan Blake $15,000.00, Taylor Nguyen $12,000.00): a manager
 * opens it from the sidebar, sees both reps and their targets, sets a target and sees it; a rep sees their own row;
 * a phone scrolls the table, not the page.
 */

type Month = { month: string; booked: number; target: number | null; attainment: number | null };
type Forecast = { months: string[]; rows: { ownerId: string; ownerName: string; months: Month[] }[] };

const usd = (dollars: number) => `$${dollars.toLocaleString('en-US', { minimumFractionDigits: 2 })}`;
const monthName = (month: string) =>
  new Date(`${month}-01T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });
/** The badge of a month with a target, as the table writes it. */
const badge = (m: Month) =>
  `${(m.attainment ?? 0).toLocaleString('en-US', { maximumFractionDigits: 1 })}% of ${usd(m.target ?? 0)}`;

const table = (page: Page) => page.getByTestId('forecast-table');
const repRow = (page: Page, name: string) =>
  table(page)
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name, exact: true }) });

test('a manager opens the forecast from the sidebar, sees each rep and target, and sets a target', async ({ page }) => {
  test.slow();
  const manager = await apiAs(page.request, 'sales_manager');
  const before = await manager.get<Forecast>('/api/forecast?months=12');
  const jordan = before.rows.find((row) => row.ownerName === 'Jordan Blake');
  const taylor = before.rows.find((row) => row.ownerName === 'Taylor Nguyen');
  expect(jordan && taylor, 'the demo has both reps').toBeTruthy();
  expect(jordan!.months[0].target, 'the demo set this month’s target').toBe(15000);

  await signInAs(page, 'sales_manager', '/');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Forecast', exact: true }).click();
  await expect(page).toHaveURL(/\/forecast$/);
  await expect(page.getByRole('heading', { name: 'Forecast', level: 1 })).toBeVisible();

  await test.step('both reps have a row with this month’s target, and All reps adds them up', async () => {
    const headers = table(page).getByRole('columnheader');
    await expect(headers).toHaveCount(13);
    await expect(headers.nth(1)).toHaveText(monthName(before.months[0]));
    await expect(repRow(page, 'Jordan Blake').getByRole('cell').first()).toContainText(badge(jordan!.months[0]));
    await expect(repRow(page, 'Taylor Nguyen').getByRole('cell').first()).toContainText(badge(taylor!.months[0]));
    await expect(repRow(page, 'Jordan Blake').getByRole('cell').first()).toContainText(usd(jordan!.months[0].booked));
    await expect(table(page).getByRole('rowheader').last()).toHaveText('All reps');
    await expect(page.getByRole('img', { name: 'Forecast by month, all reps' })).toBeVisible();
    await page.screenshot({ path: '/tmp/forecast-manager.png', fullPage: true });
  });

  const month = before.months[8];
  await test.step('Edit targets sets Taylor’s target for a month the demo left without one', async () => {
    expect(taylor!.months[8].target).toBeNull();
    await page.getByRole('button', { name: 'Edit targets' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit targets' });
    await choose(dialog, 'Rep', 'Taylor Nguyen');
    await expect(dialog.getByRole('group', { name: 'Targets of Taylor Nguyen by month' })).toBeVisible();
    await expect(dialog.getByLabel(`${monthName(before.months[0])} ($)`)).toHaveValue('12000.00');
    const input = dialog.getByLabel(`${monthName(month)} ($)`);
    await expect(input).toHaveValue('');
    await input.fill('12.345');
    await dialog.getByRole('button', { name: 'Save targets' }).click();
    await expect(
      dialog.getByText('Target must be an amount in dollars with at most two decimals, like 25000.00'),
    ).toBeVisible();
    await input.fill('18,250.50');
    await page.screenshot({ path: '/tmp/forecast-targets.png' });
    await dialog.getByRole('button', { name: 'Save targets' }).click();
    await expect(toast(page, 'Targets saved')).toBeVisible();
    await expect(toast(page, 'Targets saved')).toContainText('1 target set.');
    await expect(dialog).toBeHidden();
  });

  await test.step('the table shows it, and the server has it', async () => {
    const after = await manager.get<Forecast>('/api/forecast?months=12');
    const saved = after.rows.find((row) => row.ownerName === 'Taylor Nguyen')!.months[8];
    expect(saved.target).toBe(18250.5);
    await expect(repRow(page, 'Taylor Nguyen').getByRole('cell').nth(8)).toContainText(badge(saved));
    await expect(repRow(page, 'Taylor Nguyen').getByRole('cell').nth(8)).toContainText('of $18,250.50');
  });

  await test.step('the rep filter and the months live in the address', async () => {
    await choose(page, 'Rep', 'Taylor Nguyen');
    await expect(page).toHaveURL(/[?&]ownerId=[0-9a-f-]{36}/);
    await expect(table(page).getByRole('rowheader')).toHaveText(['Taylor Nguyen']);
    await expect(page.getByRole('img', { name: 'Forecast by month, Taylor Nguyen' })).toBeVisible();
    await choose(page, 'Months', '6 months');
    await expect(page).toHaveURL(/[?&]months=6/);
    await expect(table(page).getByRole('columnheader')).toHaveCount(7);
    await page.reload();
    await expect(page.getByRole('combobox', { name: 'Rep' })).toHaveText('Taylor Nguyen');
    await expect(page.getByRole('combobox', { name: 'Months' })).toHaveText('6 months');
    await expect(table(page).getByRole('rowheader')).toHaveText(['Taylor Nguyen']);
  });

  await test.step('Export CSV downloads what is shown', async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('forecast.csv');
    const csv = Buffer.concat(await (await download.createReadStream()).toArray()).toString('utf8');
    const lines = csv.trim().split('\n');
    expect(lines[0]).toBe('Rep,Month,Booked,Weighted pipeline,Best case,Target,Attainment %');
    // Six months of Taylor's, then six of the totals.
    expect(lines).toHaveLength(13);
    expect(lines[1]).toMatch(new RegExp(`^Taylor Nguyen,${before.months[0]},`));
  });
});

test('a sales rep sees only their own row, without the rep filter or the targets', async ({ page }) => {
  await signInAs(page, 'sales', '/forecast');
  await expect(page.getByRole('heading', { name: 'Forecast', level: 1 })).toBeVisible();
  await expect(table(page).getByRole('rowheader')).toHaveText(['Jordan Blake']);
  await expect(repRow(page, 'Jordan Blake').getByRole('cell').first()).toContainText('of $15,000.00');
  await expect(page.getByRole('img', { name: 'Forecast by month, your deals and contracts' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Months' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Rep' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Edit targets' })).toHaveCount(0);
  // The address cannot show another rep's forecast.
  const manager = await apiAs(page.request, 'sales_manager');
  const all = await manager.get<Forecast>('/api/forecast');
  const other = all.rows.find((row) => row.ownerName === 'Taylor Nguyen')!;
  await page.goto(`/forecast?ownerId=${other.ownerId}`);
  await expect(table(page).getByRole('rowheader')).toHaveText(['Jordan Blake']);
  await page.screenshot({ path: '/tmp/forecast-rep.png', fullPage: true });
});

test.describe('on a 360 px phone', () => {
  test.use({ viewport: { width: 360, height: 800 } });

  test('the table scrolls sideways inside itself and the page does not', async ({ page }) => {
    await signInAs(page, 'sales_manager', '/forecast');
    await expect(table(page).getByRole('rowheader', { name: 'All reps' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    const widths = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      viewport: window.innerWidth,
    }));
    expect(widths.page, 'the page is no wider than the phone').toBeLessThanOrEqual(widths.viewport);
    expect(
      await table(page).evaluate((element) => element.scrollWidth > element.clientWidth),
      'the months scroll inside the table',
    ).toBe(true);
    const chart = page.getByTestId('forecast-chart').locator('svg');
    expect((await chart.boundingBox())!.width, 'the chart fits the phone').toBeLessThanOrEqual(widths.viewport);
    await page.screenshot({ path: '/tmp/forecast-phone.png', fullPage: true });
    // The keyboard reaches the table and scrolls it.
    await table(page).focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => table(page).evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
    await page.screenshot({ path: '/tmp/forecast-phone-scrolled.png' });
  });
});
