import type { Locator, Page } from '@playwright/test';
import { type DemoAccount, expect, signInAs, test } from './fixtures';

/**
 * No dead ends: for every role, every link and button of the sidebar, the header, the user menu and the
 * dashboard is followed, and none may land on Access Denied, Not Found or a broken screen. The links are
 * read from the page, so entries added later are covered without changing this test.
 */

const ROLES: DemoAccount[] = ['super_admin', 'admin', 'sales_manager', 'sales', 'finance', 'client'];

/** What a dead end looks like. */
async function expectNoDeadEnd(page: Page, from: string) {
  const main = page.locator('main');
  await expect(main, `${from} -> ${page.url()}`).toBeVisible();
  // Wait for the screen to settle: no spinner and no loading placeholder in the main area.
  await expect(main.getByRole('status', { name: 'Loading' })).toHaveCount(0);
  for (const heading of ['Access Denied', 'Not Found', 'Something went wrong']) {
    await expect(page.getByRole('heading', { name: heading, exact: true }), `${from} -> ${page.url()}`).toHaveCount(0);
  }
}

/** The same-origin paths of the links inside `scope` (path and query; external links and anchors left out). */
async function linksIn(scope: Locator): Promise<string[]> {
  const hrefs = await scope.locator('a[href]').evaluateAll((anchors) =>
    anchors
      .filter((a) => (a as HTMLAnchorElement).origin === window.location.origin)
      .map((a) => {
        const url = new URL((a as HTMLAnchorElement).href);
        return url.pathname + url.search;
      }),
  );
  return [...new Set(hrefs)];
}

/** The links of the user menu (opened, read, closed again). */
async function userMenuLinks(page: Page): Promise<string[]> {
  await page.getByRole('button', { name: 'User menu' }).click();
  const menu = page.getByRole('menu');
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('menuitem', { name: 'Log out' })).toBeVisible();
  const links = await linksIn(menu);
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  return links;
}

/**
 * The header's other buttons (notifications and whatever else is added): each is pressed, and what it
 * opens is read for links; its own screen must not be a dead end either.
 */
async function headerButtonLinks(page: Page, role: DemoAccount): Promise<string[]> {
  const header = page.getByRole('banner');
  const buttons = header.getByRole('button');
  const names = (await buttons.evaluateAll((list) => list.map((b) => b.getAttribute('aria-label') ?? b.textContent)))
    .map((name) => name?.trim() ?? '')
    .filter((name) => name && name !== 'User menu' && name !== 'Open navigation');
  const found: string[] = [];
  for (const name of names) {
    await header.getByRole('button', { name, exact: true }).click();
    await expectNoDeadEnd(page, `${role}: header button "${name}"`);
    const opened = page.locator('[role="dialog"], [role="menu"], [data-radix-popper-content-wrapper]');
    if ((await opened.count()) > 0) found.push(...(await linksIn(opened)));
    await page.keyboard.press('Escape');
  }
  return found;
}

for (const role of ROLES) {
  test(`${role}: no link or button of the sidebar, header, user menu or dashboard is a dead end`, async ({ page }) => {
    test.setTimeout(240_000);
    await signInAs(page, role, '/');
    await expectNoDeadEnd(page, `${role}: dashboard`);
    // The dashboard's lists (recent contracts, activity) link to records: wait until they are in.
    await page.waitForLoadState('networkidle');

    const sidebar = await linksIn(page.getByRole('navigation', { name: 'Main' }));
    const header = await linksIn(page.getByRole('banner'));
    const dashboard = await linksIn(page.locator('main'));
    const menu = await userMenuLinks(page);
    const buttons = await headerButtonLinks(page, role);

    expect(sidebar, 'the sidebar has its entries').toContain('/contracts');
    expect(menu, 'every role reaches its profile and password from the user menu').toEqual(
      expect.arrayContaining(['/settings', '/settings?tab=security']),
    );

    const targets = [...new Set([...sidebar, ...header, ...menu, ...buttons, ...dashboard])];
    for (const target of targets) {
      await page.goto(target);
      await expectNoDeadEnd(page, `${role}: ${target}`);
    }
  });
}

test('the mobile menu is a sheet over a backdrop that keeps the focus inside until it is closed', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAs(page, 'sales', '/');
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Open navigation' }).click();
  const sheet = page.getByRole('dialog');
  await expect(sheet).toBeVisible();
  await expect(page.getByTestId('sheet-backdrop')).toBeVisible();
  const nav = sheet.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Contracts' })).toBeVisible();

  // Tabbing goes round inside the sheet.
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab');
    expect(await sheet.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  }
  // Escape closes it and gives the focus back to the menu button.
  await page.keyboard.press('Escape');
  await expect(sheet).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Open navigation' })).toBeFocused();

  // Following an entry closes the sheet and opens the screen.
  await page.getByRole('button', { name: 'Open navigation' }).click();
  await page.getByRole('dialog').getByRole('link', { name: 'Contracts' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Contracts', exact: true })).toBeVisible();
});
