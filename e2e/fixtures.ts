import { type APIRequestContext, test as base, expect, type Locator, type Page } from '@playwright/test';
import { startDemoServer } from './demo-server';
import { type Mailbox, startMailbox } from './mailbox';

export const DEMO_PASSWORD = 'demo1234';

export const DEMO_ACCOUNTS = {
  super_admin: 'superadmin@demo.test',
  admin: 'admin@demo.test',
  sales_manager: 'manager@demo.test',
  sales: 'sales@demo.test',
  sales2: 'sales2@demo.test',
  finance: 'finance@demo.test',
  client: 'client@demo.test',
  client2: 'client2@demo.test',
} as const;

export type DemoAccount = keyof typeof DEMO_ACCOUNTS;

/** Signs in through the login screen, as a person would. */
export async function signInThroughForm(page: Page, account: DemoAccount, password = DEMO_PASSWORD) {
  await page.goto('/');
  await page.getByLabel('Email Address').fill(DEMO_ACCOUNTS[account]);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  // The first load of the app can be slow on a busy machine.
  await expect(page.getByRole('button', { name: 'User menu' })).toBeVisible({ timeout: 30_000 });
}

/**
 * Signs in through the API (fast) and stores the token where the app keeps it, then opens `path`.
 * The session cookie is set on the browser context too.
 */
export async function signInAs(page: Page, account: DemoAccount, path = '/') {
  await signInWith(page, DEMO_ACCOUNTS[account], DEMO_PASSWORD, path);
}

/**
 * The toast region ("Notifications (F8)"). Radix also copies each toast's text into a hidden live
 * announcer, so look for toast texts inside this region: `toasts(page).getByText('Contract deleted')`.
 */
export const toasts = (page: Page) => page.getByRole('region', { name: /Notifications/ });

/**
 * The signed-in client's dashboard lists their newest contract (as the API answers it for them).
 * Other tests add contracts to the demo customers, so the expected one is read, not assumed.
 */
export async function expectFirstClientContractShown(page: Page) {
  const response = await page.request.get('/api/client/contracts?limit=5');
  expect(response.ok()).toBeTruthy();
  const [first] = (await response.json()) as { id: string; title: string | null }[];
  expect(first, 'the client has contracts').toBeTruthy();
  await expect(page.getByText(first.title || `Contract #${first.id.slice(-6)}`, { exact: true })).toBeVisible();
}

/** The toast on screen with this title (the Toaster marks each one with its variant). */
export const toast = (page: Page, title: string) => page.locator('li[data-variant]', { hasText: title });

/** A bearer token for an account (a demo account's e-mail, or one a test made), for API calls. */
export async function tokenFor(request: APIRequestContext, email: string, password = DEMO_PASSWORD): Promise<string> {
  const response = await request.post('/api/auth/login', { data: { email, password }, headers: fromOurPage() });
  expect(response.ok(), `sign-in as ${email}: ${response.status()} ${await response.text()}`).toBeTruthy();
  return (await response.json()).token;
}

/**
 * Calls the API as a demo account with its bearer token, for setup and checks the test is not about the
 * screens of. Every call must succeed; the answer's JSON is returned.
 */
export async function apiAs(request: APIRequestContext, account: DemoAccount) {
  const headers = { Authorization: `Bearer ${await tokenFor(request, DEMO_ACCOUNTS[account])}` };
  const call = async <T>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, data?: unknown) => {
    const response = await request.fetch(path, { method, headers, data });
    const text = await response.text();
    expect(response.ok(), `${method} ${path}: ${response.status()} ${text}`).toBeTruthy();
    return (text ? JSON.parse(text) : null) as T;
  };
  return {
    headers,
    // biome-ignore lint/suspicious/noExplicitAny: test setup reads whatever the endpoint answers
    get: <T = any>(path: string) => call<T>('GET', path),
    // biome-ignore lint/suspicious/noExplicitAny: as above
    post: <T = any>(path: string, data: unknown) => call<T>('POST', path, data),
    // biome-ignore lint/suspicious/noExplicitAny: as above
    put: <T = any>(path: string, data: unknown) => call<T>('PUT', path, data),
    // biome-ignore lint/suspicious/noExplicitAny: as above
    patch: <T = any>(path: string, data: unknown) => call<T>('PATCH', path, data),
    delete: (path: string) => call<unknown>('DELETE', path),
  };
}
export type Api = Awaited<ReturnType<typeof apiAs>>;

/** Signs the page in as any account (not only the demo ones), as signInAs does. */
export async function signInWith(page: Page, email: string, password: string, path: string) {
  const token = await tokenFor(page.request, email, password);
  await page.addInitScript((value) => window.localStorage.setItem('authToken', value), token);
  await page.goto(path);
  // The first load of the app can be slow on a busy machine.
  await expect(page.getByRole('button', { name: 'User menu' })).toBeVisible({ timeout: 30_000 });
}

/**
 * Picks an option of a labelled select (Radix: a combobox and a listbox of options) inside `scope` (the page,
 * a dialog, a row). `index` picks among selects of the same label (line items).
 */
export async function choose(scope: Page | Locator, label: string | RegExp, option: string | RegExp, index = 0) {
  const page = 'goto' in scope ? scope : scope.page();
  await scope
    .getByRole('combobox', { name: label, exact: typeof label === 'string' })
    .nth(index)
    .click();
  await page.getByRole('option', { name: option, exact: typeof option === 'string' }).click();
}

/** A unique suffix, so tests that create records never collide with each other or the demo data. */
export const unique = (prefix: string) =>
  `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

export { expect };

/** The demo server of the worker running the current test (for request contexts made by hand). */
let workerBaseURL = '';
export const currentBaseURL = () => workerBaseURL;

/**
 * The header a page of ours sends with a change. A request context holding a session cookie (page.request
 * after a sign-in) is refused a change without it, as a forged cross-site request would be (decision 003).
 */
export const fromOurPage = () => ({ origin: new URL(workerBaseURL).origin });

/**
 * The tests' `test`: every worker starts its own demo server (e2e/demo-server.ts) and `baseURL` points
 * at it, so `page.goto('/')` and `request.get('/api/...')` reach that worker's server. Its e-mail is
 * delivered to the worker's `mailbox`.
 */
export const test = base.extend<object, { demoServer: string; mailbox: Mailbox }>({
  mailbox: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const mailbox = await startMailbox();
      await use(mailbox);
      await mailbox.close();
    },
    { scope: 'worker' },
  ],
  demoServer: [
    async ({ mailbox }, use, workerInfo) => {
      const server = await startDemoServer(workerInfo.parallelIndex, { smtpUrl: mailbox.url });
      workerBaseURL = server.url;
      await use(server.url);
      await server.stop();
    },
    { scope: 'worker', timeout: 330_000 },
  ],
  baseURL: async ({ demoServer }, use) => {
    await use(demoServer);
  },
});
