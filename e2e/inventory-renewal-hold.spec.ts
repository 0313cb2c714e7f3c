import type { InventoryCalendar, InventoryDay } from '@shared/contracts/inventory';
import { apiAs, expect, signInAs, test } from './fixtures';

/**
 * Right of first refusal on the Inventory screen (product.md section 15). The demo's renewal-holds job keeps
 * next year's days of Jingle Java Coffee's pre-roll (a contract due for renewal, Jordan's) for its renewal:
 * the calendar shows them "held for renewal" in their own style, the legend names it, and the day lists whose
 * renewal they are held for, to a manager in full and to another rep (Taylor) without the customer.
 */

const plusDays = (day: string, days: number) => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

test('the calendar shows the days held for a renewal', async ({ page, request }) => {
  test.setTimeout(180_000);
  const manager = await apiAs(request, 'sales_manager');
  // The live hold is a year after a flight 8 to 30 days from today: look a year and 5 to 35 days ahead.
  const today = (await manager.get<InventoryCalendar>('/api/inventory')).today;
  const from = plusDays(today, 365 + 5);
  const to = plusDays(today, 365 + 35);
  const calendar = await manager.get<InventoryCalendar>(`/api/inventory?from=${from}&to=${to}`);
  const preRoll = calendar.products.find((p) => p.productName === 'Holiday Pre-roll');
  let day: InventoryCalendar['products'][number]['days'][number] | undefined;
  for (const candidate of preRoll?.days.filter((d) => d.heldForRenewal > 0) ?? []) {
    const holders = await manager.get<InventoryDay>(`/api/inventory/${preRoll!.productId}/${candidate.date}`);
    if (holders.holders.some((h) => h.kind === 'held_for_renewal' && h.contract?.title?.startsWith('Jingle Java'))) {
      day = candidate;
      break;
    }
  }
  expect(day, 'the demo holds pre-roll days for the renewal of Jingle Java').toBeDefined();
  if (!day) return;

  await signInAs(page, 'sales_manager', `/inventory?from=${from}&to=${to}`);
  const card = page.locator(`[data-testid="inventory-product"][data-product-id="${preRoll!.productId}"]`);
  const cell = card.locator(`[data-date="${day.date}"]`);
  await expect(cell).toHaveAttribute('data-held-for-renewal', 'true', { timeout: 30_000 });
  await expect(cell).toHaveAccessibleName(new RegExp(`${day.heldForRenewal} held for renewal`));
  await expect(cell.locator('[data-figure="heldForRenewal"]')).toHaveText(`${day.heldForRenewal}R`);
  await expect(page.getByRole('list', { name: 'Legend' }).first()).toContainText('Held for renewal');
  await cell.scrollIntoViewIfNeeded();
  await card.screenshot({ path: 'docs/screenshots/inventory-renewal-hold.png' });

  await test.step('the day names whose renewal it is held for', async () => {
    await cell.click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(`${day.heldForRenewal} held for renewal`);
    const row = dialog.locator('[data-kind="held_for_renewal"]').filter({ hasText: 'Jingle Java' });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('Held for renewal');
  });

  await test.step('another rep sees the slots held for renewal, not the customer', async () => {
    await page.context().clearCookies();
    await signInAs(page, 'sales2', `/inventory?from=${from}&to=${to}`);
    const repCell = card.locator(`[data-date="${day.date}"]`);
    await expect(repCell).toHaveAttribute('data-held-for-renewal', 'true', { timeout: 30_000 });
    await repCell.click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.locator('[data-kind="held_for_renewal"]').first()).toContainText('Held for renewal');
    await expect(dialog).not.toContainText('Jingle Java');
  });
});
