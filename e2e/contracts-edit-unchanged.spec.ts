import type { ContractPayload } from '@shared/contracts/contract-form';
import type { Contract } from '@shared/contracts/contract-responses';
import { createContract, customerNamed, findInList, productNamed } from './contracts-helpers';
import { type Api, apiAs, expect, signInAs, test, toast, unique } from './fixtures';

/**
 * Saving a contract without changing anything must store exactly what was there: every kind of contract,
 * through both edit screens (the list's dialog and /contracts/{id}/edit), compared through the API.
 */

type Kind = {
  name: string;
  body: (refs: Refs) => Partial<ContractPayload> & { title?: string };
};
type Refs = { banner: string; preRoll: string; cpm: string; flat: string; blockbuster: string };

/** A day from today, as yyyy-mm-dd (UTC, as the server counts days). */
const isoDay = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

const KINDS: Kind[] = [
  {
    name: 'line items only, pay link, with a setup fee',
    body: ({ banner, preRoll }) => ({
      paymentMode: 'pay_link',
      termMonths: 12,
      setupFee: 99.95,
      lineItems: [
        { productId: banner, quantity: 2, unitPrice: 450, discount: 25.5 },
        { productId: preRoll, quantity: 1, unitPrice: 0.99, discount: 0 },
      ],
    }),
  },
  {
    name: 'package only, client portal',
    body: ({ blockbuster }) => ({ paymentMode: 'portal', termMonths: 6, packageId: blockbuster, lineItems: [] }),
  },
  {
    name: 'package and line items, with a title',
    body: ({ blockbuster, banner }) => ({
      paymentMode: 'portal',
      termMonths: 3,
      setupFee: 250,
      title: 'Season launch',
      packageId: blockbuster,
      lineItems: [{ productId: banner, quantity: 1, unitPrice: 350, discount: 0 }],
    }),
  },
  {
    name: 'indefinite term, pay link',
    body: ({ preRoll }) => ({
      paymentMode: 'pay_link',
      termMonths: null,
      lineItems: [{ productId: preRoll, quantity: 3, unitPrice: 275, discount: 10 }],
    }),
  },
  {
    name: 'CPM and flat-rate lines with flights and in-season prices',
    body: ({ cpm, flat, banner }) => ({
      paymentMode: 'pay_link',
      termMonths: 6,
      lineItems: [
        { productId: cpm, quantity: 120, unitPrice: 22.5, discount: 0, seasonalPrice: 30 },
        {
          productId: flat,
          quantity: 1,
          unitPrice: 2500,
          discount: 250,
          flightStart: isoDay(10),
          flightEnd: isoDay(40),
        },
        { productId: banner, quantity: 1, unitPrice: 450, discount: 0, seasonalPrice: null, flightStart: isoDay(3) },
      ],
    }),
  },
];

/** What must not change: the stored contract without its update time and its line rows' ids. */
function stored(contract: Contract) {
  const { updatedAt: _updatedAt, lineItems, ...rest } = contract;
  return { ...rest, lineItems: lineItems.map(({ id: _id, ...line }) => line) };
}

const usd = (amount: number) => amount.toLocaleString('en-US', { style: 'currency', currency: 'USD' });

async function references(api: Api): Promise<Refs> {
  const packages = await api.get<{ id: string; name: string }[]>('/api/packages?limit=500');
  return {
    banner: (await productNamed(api, 'Homepage Banner (728x90)')).id,
    preRoll: (await productNamed(api, 'Holiday Pre-roll Video (15s)')).id,
    cpm: (await productNamed(api, 'Pre-roll Impressions (15s, CPM)')).id,
    flat: (await productNamed(api, 'CTN Seasonal Movie Special')).id,
    blockbuster: packages.find((p) => p.name === 'Seasonal Blockbuster')!.id,
  };
}

for (const kind of KINDS) {
  test(`saving unchanged keeps the contract as it was: ${kind.name}`, async ({ page, request }) => {
    const api = await apiAs(request, 'admin');
    const refs = await references(api);
    const customer = await customerNamed(api, 'Holiday Lights Co.');
    const make = async (screen: string) =>
      createContract(api, {
        customerId: customer.id,
        description: unique(`E2E unchanged ${screen}`),
        ...kind.body(refs),
      });

    await test.step('through the edit dialog of the list', async () => {
      const created = await make('dialog');
      const before = await api.get<Contract>(`/api/contracts/${created.id}`);
      await signInAs(page, 'admin', '/contracts');
      await findInList(page, before.description!);
      await page.getByRole('button', { name: `Actions for contract ${before.id.slice(-8)}` }).click();
      await page.getByRole('menuitem', { name: 'Edit Contract' }).click();
      const dialog = page.getByRole('dialog');
      await expect(dialog.getByTestId('summary-total')).toContainText(usd(before.total));
      await dialog.getByRole('button', { name: 'Update Contract' }).click();
      await expect(toast(page, 'Contract updated successfully')).toBeVisible();
      await expect(dialog).toBeHidden();
      const after = await api.get<Contract>(`/api/contracts/${created.id}`);
      expect(stored(after)).toEqual(stored(before));
    });

    await test.step('through the edit page', async () => {
      const created = await make('page');
      const before = await api.get<Contract>(`/api/contracts/${created.id}`);
      await signInAs(page, 'admin', `/contracts/${created.id}/edit`);
      await expect(page.getByTestId('summary-total')).toContainText(usd(before.total));
      await page.getByRole('button', { name: 'Update Contract' }).click();
      await expect(toast(page, 'Contract updated successfully')).toBeVisible();
      await expect(page).toHaveURL(new RegExp(`/contracts/${created.id}$`));
      const after = await api.get<Contract>(`/api/contracts/${created.id}`);
      expect(stored(after)).toEqual(stored(before));
    });
  });
}

test('a contract with a package and line items shows both on the form, and its lines can be removed', async ({
  page,
  request,
}) => {
  const api = await apiAs(request, 'admin');
  const refs = await references(api);
  const customer = await customerNamed(api, 'Frost & Pine Outfitters');
  const created = await createContract(api, {
    customerId: customer.id,
    description: unique('E2E both'),
    ...KINDS[2].body(refs),
  });
  await signInAs(page, 'admin', `/contracts/${created.id}/edit`);
  await expect(page.getByTestId('package-details')).toContainText('Seasonal Blockbuster');
  await expect(page.getByTestId('line-item-row')).toHaveCount(1);
  await expect(page.getByTestId('summary-total')).toContainText(usd(created.total));
  await page.getByRole('button', { name: 'Remove line item 1' }).click();
  await expect(page.getByTestId('summary-total')).toContainText(usd(created.total - 350));
  await page.getByRole('button', { name: 'Update Contract' }).click();
  await expect(toast(page, 'Contract updated successfully')).toBeVisible();
  const after = await api.get<Contract>(`/api/contracts/${created.id}`);
  expect(after.lineItems).toHaveLength(0);
  expect(after.package?.name).toBe('Seasonal Blockbuster');
  expect(after.total).toBe(created.total - 350);
});
