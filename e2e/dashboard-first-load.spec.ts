import type { Page } from '@playwright/test';
import {
  apiAs,
  DEMO_ACCOUNTS,
  DEMO_PASSWORD,
  type DemoAccount,
  expect,
  expectFirstClientContractShown,
  signInAs,
  test,
} from './fixtures';

/**
 * The dashboard's first load: index.html starts /api/auth/me and the dashboard's first requests before the
 * scripts arrive (client/src/first-load.ts), and the app adopts those answers instead of asking again
 * (docs/decisions/046-dashboard-first-paint.md). Each request of the first load is made once, and each person
 * still sees their own data.
 */

/** Every GET of the API the page makes, by path and query, counted. */
function countApiRequests(page: Page) {
  const counts = new Map<string, number>();
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (request.method() === 'GET' && url.pathname.startsWith('/api/')) {
      const key = url.pathname + url.search;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  });
  return counts;
}

/** What each dashboard asks for first, written out (the sales rep's commission summary carries their id). */
const FIRST_REQUESTS: Partial<Record<DemoAccount, (id: string) => string[]>> = {
  admin: () => ['/api/auth/me', '/api/users?limit=1', '/api/dashboard/stats', '/api/audit?limit=5', '/api/health'],
  finance: () => ['/api/auth/me', '/api/dashboard/stats', '/api/health', '/api/receivables/outlook'],
  sales: (id) => [
    '/api/auth/me',
    '/api/dashboard/stats?mine=true',
    '/api/contracts?mine=true&limit=5',
    `/api/commissions/summary?repId=${id}`,
    '/api/renewals?withinDays=60&limit=10',
  ],
  client: () => [
    '/api/auth/me',
    '/api/client/summary',
    '/api/client/contracts?limit=100',
    '/api/client/invoices?limit=5',
  ],
};

for (const account of ['admin', 'finance', 'sales', 'client'] as const) {
  test(`a ${account}'s first load of the dashboard asks for each of its data once, started from index.html`, async ({
    page,
  }) => {
    const counts = countApiRequests(page);
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await signInAs(page, account);
    await page.waitForLoadState('networkidle');
    const me = (await (await page.request.get('/api/auth/me')).json()) as { id: string };
    const expected = FIRST_REQUESTS[account]!(me.id);
    for (const url of expected) expect(counts.get(url), `${url} asked for once`).toBe(1);
    const twice = [...counts].filter(([, n]) => n > 1);
    expect(twice, 'no request of the first load is made twice').toEqual([]);
    // The answers index.html asked for were all adopted by the app (none left over), under the page's CSP.
    const left = await page.evaluate(() => window.__adcrmEarly?.left());
    expect(left).toEqual([]);
    expect(violations).toEqual([]);
  });
}

test("a sales rep's first load shows the rep's own contracts, and a client's their own", async ({ page, browser }) => {
  await signInAs(page, 'sales');
  await expect(page.getByRole('heading', { name: 'Welcome back, Jordan!' })).toBeVisible();
  const sales = await apiAs(page.request, 'sales');
  const own = await sales.get<{ customerName: string | null }[]>('/api/contracts?mine=true&limit=5');
  const rows = page.getByRole('list', { name: 'My recent contracts' }).getByRole('listitem');
  await expect(rows).toHaveCount(own.length);
  for (const [i, contract] of own.entries()) {
    await expect(rows.nth(i)).toContainText(contract.customerName ?? 'Unknown Customer');
  }

  const context = await browser.newContext();
  const clientPage = await context.newPage();
  await signInAs(clientPage, 'client');
  await expect(clientPage.getByRole('heading', { name: 'Welcome, Chris!' })).toBeVisible();
  await expectFirstClientContractShown(clientPage);
  await expect(clientPage.getByRole('heading', { name: 'My Recent Contracts' })).toHaveCount(0);
  await context.close();
});

test('after signing out, the next person to sign in on the page gets their own dashboard, asked for anew', async ({
  page,
}) => {
  const counts = countApiRequests(page);
  await signInAs(page, 'admin');
  await expect(page.getByRole('heading', { name: 'Recent Activity' })).toBeVisible();
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  // The same page, without loading it again (a new load would store the admin's token again: signInAs).
  await page.getByLabel('Email Address').fill(DEMO_ACCOUNTS.sales);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('heading', { name: 'Welcome back, Jordan!' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Recent Activity' })).toHaveCount(0);
  await page.waitForLoadState('networkidle');
  // The sales dashboard's own figures were asked for after the sign-in, as the rep.
  expect(counts.get('/api/dashboard/stats?mine=true')).toBe(1);
  expect(counts.get('/api/audit?limit=5')).toBe(1);
});
