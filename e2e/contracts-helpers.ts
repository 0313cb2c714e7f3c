import type { APIRequestContext, Page } from '@playwright/test';
import type { Contract, ContractPayload, ContractSummary } from '@shared/contracts/contracts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, type DemoAccount, expect } from './fixtures';

/** A bearer token for a demo account, for setting up data through the API. */
export async function tokenFor(request: APIRequestContext, account: DemoAccount): Promise<string> {
  const response = await request.post('/api/auth/login', {
    data: { email: DEMO_ACCOUNTS[account], password: DEMO_PASSWORD },
  });
  expect(response.ok(), `sign-in as ${account}`).toBeTruthy();
  return (await response.json()).token;
}

/** A small API client acting as one demo account. */
export async function apiAs(request: APIRequestContext, account: DemoAccount) {
  const headers = { Authorization: `Bearer ${await tokenFor(request, account)}` };
  const get = async <T>(url: string): Promise<T> => {
    const response = await request.get(url, { headers });
    expect(response.ok(), `GET ${url}`).toBeTruthy();
    return response.json();
  };
  return {
    headers,
    get,
    contracts: (query = '') => get<ContractSummary[]>(`/api/contracts?limit=500${query}`),
    customer: async (name: string) =>
      (await get<{ id: string; name: string; email: string }[]>(`/api/customers?limit=500`)).find(
        (c) => c.name === name,
      )!,
    product: async (name: string) =>
      (await get<{ id: string; name: string; defaultPrice: number }[]>(`/api/products?active=true&limit=500`)).find(
        (p) => p.name === name,
      )!,
    createContract: async (body: Partial<ContractPayload> & Pick<ContractPayload, 'customerId'>): Promise<Contract> => {
      const response = await request.post('/api/contracts', {
        headers,
        data: {
          startDate: new Date().toISOString().slice(0, 10),
          paymentMode: 'pay_link',
          termMonths: 6,
          setupFee: 0,
          sendToCustomer: false,
          makeActive: false,
          ...body,
        },
      });
      expect(response.status(), await response.text()).toBe(201);
      return response.json();
    },
  };
}

/** A draft pay-link contract of one Homepage Banner for Holiday Lights Co., created as `account`. */
export async function createDraft(
  request: APIRequestContext,
  account: DemoAccount,
  description: string,
  extra: Partial<ContractPayload> = {},
): Promise<Contract> {
  const api = await apiAs(request, account);
  const customer = await api.customer('Holiday Lights Co.');
  const banner = await api.product('Homepage Banner (728x90)');
  return api.createContract({
    customerId: customer.id,
    description,
    lineItems: [{ productId: banner.id, quantity: 1, unitPrice: 450, discount: 0 }],
    ...extra,
  });
}

/** Picks an option of a labelled select (Radix: a combobox and a listbox of options). */
export async function choose(page: Page, label: string | RegExp, option: string | RegExp, index = 0) {
  await page
    .getByRole('combobox', { name: label, exact: typeof label === 'string' })
    .nth(index)
    .click();
  await page.getByRole('option', { name: option }).click();
}

/** Searches the contract list and waits until the only row is the one wanted. */
export async function findInList(page: Page, text: string) {
  await page.getByLabel('Search contracts').fill(text);
  await expect(page.getByTestId('contracts-count')).toHaveText('1 contract');
  return page.getByTestId('contract-row');
}

/** The toast on screen with this title (the Toaster marks each one with its variant). */
export const toast = (page: Page, title: string) => page.locator('li[data-variant]', { hasText: title });
