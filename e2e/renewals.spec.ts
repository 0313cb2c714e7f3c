import { apiAs, expect, signInAs, test, toast, unique } from './fixtures';

/** A day `days` after today (UTC), YYYY-MM-DD. */
const fromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

test('a rep renews a contract from the dashboard and lands on the renewal draft', async ({ page, request }) => {
  const rep = await apiAs(request, 'sales');
  const [customer] = await rep.get<{ id: string; name: string }[]>('/api/customers?limit=1');
  const products =
    await rep.get<{ id: string; priceMetric: string; inventoryRequired: boolean; isActive: boolean }[]>(
      '/api/products?limit=100',
    );
  const product = products.find((p) => p.priceMetric === 'monthly' && !p.inventoryRequired && p.isActive)!;
  const title = unique('Renewal walk');
  // A one-month term that ends the day after tomorrow: first on the card (soonest first).
  const start = new Date(`${fromToday(2)}T00:00:00Z`);
  start.setUTCMonth(start.getUTCMonth() - 1);
  const contract = await rep.post<{ id: string; autoStopDate: string }>('/api/contracts', {
    customerId: customer.id,
    title,
    startDate: start.toISOString().slice(0, 10),
    termMonths: 1,
    setupFee: 0,
    paymentMode: 'portal',
    packageId: null,
    makeActive: true,
    lineItems: [{ productId: product.id, quantity: 1, unitPrice: 300, discount: 0 }],
  });

  await signInAs(page, 'sales');
  const card = page.getByRole('list', { name: 'Renewals due' });
  const row = card.getByRole('listitem').filter({ hasText: title });
  await expect(row).toContainText(customer.name);
  await expect(row).toContainText(/\d+ days? left|ends today/);
  await row.getByRole('button', { name: `Renew ${title} for ${customer.name}` }).click();

  await expect(toast(page, 'Renewal draft created')).toBeVisible();
  await expect(page).toHaveURL(/\/contracts\/[0-9a-f-]{36}\/edit$/);
  const renewalId = page.url().split('/').at(-2)!;
  const renewal = await rep.get<{ status: string; startDate: string; renewalOfId: string }>(
    `/api/contracts/${renewalId}`,
  );
  expect(renewal).toMatchObject({ status: 'draft', startDate: contract.autoStopDate, renewalOfId: contract.id });

  // Back on the dashboard the row links to its renewal; the contract page shows both links.
  await page.goto('/');
  await expect(row.getByRole('link', { name: `Renewed by ${renewalId.slice(-6)}` })).toBeVisible();
  await page.goto(`/contracts/${contract.id}`);
  await expect(page.getByTestId('renewal-links')).toHaveText(`Renewed by ${renewalId.slice(-6)}`);
  await expect(page.getByRole('button', { name: 'Renew' })).toHaveCount(0);
  await page.getByTestId('renewal-links').getByRole('link').click();
  await expect(page.getByTestId('renewal-links')).toHaveText(`Renewal of ${contract.id.slice(-6)}`);
});
