import { createContract } from './contracts-helpers';
import { apiAs, expect, signInAs, test, toast, toasts, unique } from './fixtures';

/**
 * Selling the last slot (product.md section 13): a homepage takeover of 1 slot a day and two drafts for the
 * same day. The first activation in the browser books the slot; the second draft's form shows the day sold
 * out, and its activation is refused with the message naming the day and what is left.
 */

const today = () => new Date().toISOString().slice(0, 10);

test('the last slot is sold once; the next attempt is refused with the message', async ({ page, request }) => {
  test.setTimeout(120_000);
  const admin = await apiAs(request, 'admin');
  const year = Number(today().slice(0, 4)) + 1;
  const day = `${year}-12-24`;
  const productName = unique('Homepage Takeover');
  const product = await admin.post<{ id: string }>('/api/products', {
    name: productName,
    adType: 'banner',
    defaultPrice: 2500,
    priceMetric: 'flat',
    inventoryRequired: true,
    capacity: 1,
  });
  const customerName = unique('Tinsel Toys');
  const customer = await admin.post<{ id: string }>('/api/customers', {
    name: customerName,
    email: `${customerName.toLowerCase().replaceAll(' ', '-')}@example.test`,
  });
  const draft = (description: string) =>
    createContract(admin, {
      customerId: customer.id,
      startDate: `${year}-12-01`,
      termMonths: 1,
      description: unique(description),
      lineItems: [
        { productId: product.id, quantity: 1, unitPrice: 2500, discount: 0, flightStart: day, flightEnd: day },
      ],
    });
  const first = await draft('Christmas Eve takeover');
  const second = await draft('Christmas Eve takeover, too');
  const message = `Only 0 of 1 slots left on ${day} for ${productName}`;

  await signInAs(page, 'sales_manager', `/contracts/${first.id}`);
  await page.getByRole('button', { name: 'Activate' }).click();
  await expect(toast(page, 'Contract activated')).toBeVisible();

  await test.step('the other draft still shows in its form that the day is sold out', async () => {
    await page.goto(`/contracts/${second.id}/edit`);
    await expect(page.getByTestId('line-availability')).toContainText(
      `Sold out: only 0 of 1 slots left on ${day} for ${productName}.`,
    );
  });

  await test.step('activating it is refused with the message, and it stays a draft', async () => {
    await page.goto(`/contracts/${second.id}`);
    await page.getByRole('button', { name: 'Activate' }).click();
    await expect(toasts(page).getByText(message)).toBeVisible();
    await expect(
      page.getByRole('heading', { level: 1 }).locator('..').getByText('Draft', { exact: true }),
    ).toBeVisible();
    const contract = await admin.get<{ status: string }>(`/api/contracts/${second.id}`);
    expect(contract.status).toBe('draft');
  });
});
