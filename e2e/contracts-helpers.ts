import type { APIRequestContext, Page } from '@playwright/test';
import type { ContractPayload } from '@shared/contracts/contract-form';
import type { Contract, ContractSummary } from '@shared/contracts/contract-responses';
import { type Api, apiAs, type DemoAccount, expect } from './fixtures';

/** Every contract the account can see (the API's largest page). */
export const listContracts = (api: Api, query = '') => api.get<ContractSummary[]>(`/api/contracts?limit=500${query}`);

export async function customerNamed(api: Api, name: string) {
  const customers = await api.get<{ id: string; name: string; email: string }[]>('/api/customers?limit=500');
  return customers.find((c) => c.name === name)!;
}

export async function productNamed(api: Api, name: string) {
  const products = await api.get<{ id: string; name: string; defaultPrice: number }[]>(
    '/api/products?active=true&limit=500',
  );
  return products.find((p) => p.name === name)!;
}

/** POST /api/contracts with a draft's defaults (today, pay link, six months, nothing sent). */
export function createContract(
  api: Api,
  body: Partial<ContractPayload> & Pick<ContractPayload, 'customerId'> & { title?: string },
): Promise<Contract> {
  return api.post<Contract>('/api/contracts', {
    startDate: new Date().toISOString().slice(0, 10),
    paymentMode: 'pay_link',
    termMonths: 6,
    setupFee: 0,
    sendToCustomer: false,
    makeActive: false,
    ...body,
  });
}

/** A draft pay-link contract of one Homepage Banner for Holiday Lights Co., created as `account`. */
export async function createDraft(
  request: APIRequestContext,
  account: DemoAccount,
  description: string,
  extra: Partial<ContractPayload> = {},
): Promise<Contract> {
  const api = await apiAs(request, account);
  const customer = await customerNamed(api, 'Holiday Lights Co.');
  const banner = await productNamed(api, 'Homepage Banner (728x90)');
  return createContract(api, {
    customerId: customer.id,
    description,
    lineItems: [{ productId: banner.id, quantity: 1, unitPrice: 450, discount: 0 }],
    ...extra,
  });
}

/** Searches the contract list and waits until the only row is the one wanted. */
export async function findInList(page: Page, text: string) {
  await page.getByLabel('Search contracts').fill(text);
  await expect(page.getByTestId('contracts-count')).toHaveText('1 contract');
  return page.getByTestId('contract-row');
}
