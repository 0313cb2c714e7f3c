import type { Page } from '@playwright/test';
import { apiAs, type DemoAccount, expect, signInAs, test, unique } from './fixtures';

/**
 * Phones: every screen of every role fits a 360 px phone (and 390 px, see WIDTHS); wide content (tables) scrolls
 * inside its own container, never the whole page. The screens are read from the navigation sheet and the
 * user menu, plus the detail and form screens behind them.
 */

const ROLES: DemoAccount[] = ['super_admin', 'admin', 'sales_manager', 'sales', 'finance', 'client'];

/**
 * Every role at 360 px, the narrowest phone we support. The layout has no breakpoint between 360 and 640 px,
 * so 390 px is checked for the roles most often on a phone (sales reps and clients) rather than all six.
 */
const WIDTHS: [number, DemoAccount[]][] = [
  [360, ROLES],
  [390, ['sales', 'client']],
];

async function menuLinks(page: Page): Promise<string[]> {
  const hrefs = async (selector: string) =>
    page
      .locator(selector)
      .locator('a[href]')
      .evaluateAll((anchors) =>
        anchors
          .filter((a) => (a as HTMLAnchorElement).origin === window.location.origin)
          .map((a) => new URL((a as HTMLAnchorElement).href).pathname + new URL((a as HTMLAnchorElement).href).search),
      );
  await page.getByRole('button', { name: 'Open navigation' }).click();
  const sheet = page.getByRole('dialog');
  await expect(sheet.getByRole('navigation', { name: 'Main' })).toBeVisible();
  const nav = await hrefs('[role="dialog"]');
  await page.keyboard.press('Escape');
  await expect(sheet).toHaveCount(0);
  await page.getByRole('button', { name: 'User menu' }).click();
  await expect(page.getByRole('menu')).toBeVisible();
  const menu = await hrefs('[role="menu"]');
  await page.keyboard.press('Escape');
  return [...nav, ...menu];
}

/** Detail and form screens behind the lists, for the roles that have them. */
async function recordScreens(page: Page): Promise<string[]> {
  const screens: string[] = [];
  const contracts = await page.request.get('/api/contracts?limit=100');
  if (contracts.ok()) {
    const rows = (await contracts.json()) as {
      id: string;
      payLinkToken: string | null;
      packageId: string | null;
      canEdit: boolean;
    }[];
    const withLink = rows.find((c) => c.payLinkToken);
    const withPackage = rows.find((c) => c.packageId);
    const editable = rows.find((c) => c.canEdit);
    for (const c of [withLink, withPackage]) if (c) screens.push(`/contracts/${c.id}`);
    if (editable) screens.push(`/contracts/${editable.id}/edit`, '/contracts/new');
  }
  const customers = await page.request.get('/api/customers?limit=1');
  if (customers.ok()) {
    const [first] = (await customers.json()) as { id: string }[];
    if (first) screens.push(`/customers/${first.id}`);
  }
  return screens;
}

/**
 * Records with long unbroken names and addresses, as other tests and real users leave them: a grid or a card
 * must wrap or truncate them, whichever tests ran before on this server.
 */
async function addLongRecords(page: Page) {
  const admin = await apiAs(page.request, 'admin');
  const word = unique('Maximiliana').replace(' ', '');
  await admin.post('/api/users', {
    firstName: word,
    lastName: 'Vandersteenhoven',
    email: `${word.toLowerCase()}.vandersteenhoven@example.test`,
    password: 'long-name-1',
    role: 'sales',
    commissionRate: 0.05,
    isActive: true,
  });
}

async function pageWidth(page: Page) {
  return page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, viewport: window.innerWidth }));
}

for (const [width, roles] of WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 800 } });

    for (const role of roles) {
      test(`${role}: every screen fits without scrolling sideways`, async ({ page }) => {
        test.setTimeout(300_000);
        await addLongRecords(page);
        await signInAs(page, role, '/');
        const screens = [
          ...new Set(['/', ...(await menuLinks(page)), ...(await recordScreens(page)), '/settings?tab=notifications']),
        ];
        const tooWide: string[] = [];
        for (const screen of screens) {
          await page.goto(screen);
          await expect(page.locator('main')).toBeVisible();
          await page.waitForLoadState('networkidle');
          const { scroll, viewport } = await pageWidth(page);
          if (scroll > viewport) tooWide.push(`${screen}: ${scroll} px`);
        }
        expect(tooWide, `screens wider than ${width} px`).toEqual([]);
      });
    }
  });
}

test('long e-mail addresses wrap after the "@" or a dot, not in the middle of a word', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 800 });
  await signInAs(page, 'admin', '/');
  await page.getByRole('button', { name: 'User menu' }).click();
  const email = page.getByRole('menu').getByText('admin@demo.test');
  await expect(email).toBeVisible();
  // The address is split into break points after "@" and before each dot of the domain.
  expect(await email.evaluate((el) => el.querySelectorAll('wbr').length)).toBe(2);
});
