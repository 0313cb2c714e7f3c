import { apiAs, expect, signInAs, test, unique } from './fixtures';

/**
 * The Outbox screen (admin-level): a message opens to show what was sent (recipient, subject, status, attempts,
 * the body as text and as HTML in a sandboxed frame), with the links that grant something masked as in the list.
 */
test('an admin opens an outbox message: what was sent, its set-password link masked', async ({ page }) => {
  const admin = await apiAs(page.request, 'admin');
  const email = `${unique('outbox').replace(/\s/g, '-')}@example.test`;
  const user = await admin.post<{ id: string }>('/api/users', {
    firstName: 'Olive',
    lastName: 'Outbox',
    email,
    password: 'olive-2026',
    role: 'sales',
    commissionRate: 0.05,
    isActive: true,
  });
  await admin.post(`/api/users/${user.id}/send-password-reset`, {});

  await signInAs(page, 'admin', '/outbox');
  const row = page.getByRole('row').filter({ hasText: email }).first();
  await expect(row).toBeVisible();
  await row.getByRole('button').first().click();

  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(email);
  await expect(dialog).toContainText('Attempts');
  await expect(dialog).toContainText(/queued|sent|failed/);
  // The body: the HTML in a sandboxed frame first, the text beside it; the token is hidden in both.
  const frame = dialog.getByTestId('outbox-html');
  if ((await frame.count()) > 0) {
    await expect(frame).toHaveAttribute('sandbox', '');
    const html = await frame.getAttribute('srcdoc');
    expect(html).toContain('set-password?token=[hidden]');
    await dialog.getByRole('tab', { name: 'Text' }).click();
  }
  const text = dialog.getByTestId('outbox-text');
  await expect(text).toContainText('set-password?token=[hidden]');
  expect(await text.textContent()).not.toMatch(/token=(?!\[hidden\])[A-Za-z0-9_-]{20,}/);

  // Closed with Escape, focus back on the list.
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
});

test('on a 390 px phone the opened message fits the screen', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAs(page, 'admin', '/outbox');
  await page.locator('button[aria-haspopup=dialog]').first().click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('outbox-text').or(dialog.getByTestId('outbox-html'))).toBeVisible();
  const box = await dialog.boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
});
