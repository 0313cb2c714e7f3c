import type { NotificationList } from '@shared/contracts/notifications';
import { apiAs, expect, signInAs, test } from './fixtures';

test('the bell shows the unread count, opens the record of a notification and marks all read', async ({ page }) => {
  const rep = await apiAs(page.request, 'sales');
  const admin = await apiAs(page.request, 'admin');
  // An event for the rep: a manager activates one of their draft contracts.
  const drafts = await rep.get<{ id: string }[]>('/api/contracts?status=draft&limit=1');
  expect(drafts.length, 'the demo rep has a draft contract').toBeGreaterThan(0);
  await admin.post(`/api/contracts/${drafts[0].id}/activate`, {});
  const before = await rep.get<NotificationList>('/api/notifications');
  expect(before.items[0]).toMatchObject({ type: 'contract_activated', link: `/contracts/${drafts[0].id}` });

  await signInAs(page, 'sales');
  const bell = page.getByRole('button', { name: `Notifications, ${before.unreadCount} unread` });
  await expect(bell).toBeVisible();
  await bell.click();
  const menu = page.getByRole('menu', { name: 'Notifications' });
  await expect(menu).toBeVisible();
  const first = menu.getByTestId('notification-item').first();
  await expect(first).toContainText('Contract activated');
  await first.click();
  await expect(page).toHaveURL(new RegExp(`/contracts/${drafts[0].id}$`));
  await expect(page.getByRole('button', { name: `Notifications, ${before.unreadCount - 1} unread` })).toBeVisible();

  // From the keyboard: open, mark all read, close with Escape; the count is gone.
  const bellNow = page.getByTestId('notification-bell');
  await bellNow.focus();
  await page.keyboard.press('Enter');
  await expect(menu).toBeVisible();
  await menu.getByRole('menuitem', { name: 'Mark all read' }).click();
  await expect(menu.getByRole('menuitem', { name: /^Unread: / })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(page.getByRole('button', { name: 'Notifications', exact: true })).toBeFocused();
  await expect(page.getByTestId('notification-count')).toHaveCount(0);
  expect((await rep.get<NotificationList>('/api/notifications')).unreadCount).toBe(0);
});

test('with nothing new the list says so, and it fits a phone', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 760 });
  await signInAs(page, 'client');
  await page.getByRole('button', { name: /^Notifications/ }).click();
  const menu = page.getByRole('menu', { name: 'Notifications' });
  await expect(menu).toBeVisible();
  const box = await menu.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= 360).toBeTruthy();
  await expect(menu.getByText("You're all caught up.")).toBeVisible();
});
