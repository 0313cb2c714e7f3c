import { apiAs, expect, signInAs, test, toast, unique } from './fixtures';

/**
 * A customer's contacts and story on its page (product.md section 19): a sales manager adds a billing contact to a
 * demo customer, sees it marked, makes it the primary contact too, and reads the customer's timeline, which has
 * its contracts' events; the page fits a 360 px phone.
 */

test('a manager adds a billing contact, sees it marked, and reads the customer’s timeline', async ({ page }) => {
  test.setTimeout(90_000);
  const manager = await apiAs(page.request, 'sales_manager');
  const [customer] = await manager.get<{ id: string; name: string }[]>('/api/customers?q=Frost');
  expect(customer.name).toBe('Frost & Pine Outfitters');
  const name = unique('Avery Ledger');
  const email = `${name.split(' ').pop()}@frostandpine.example`;

  await signInAs(page, 'sales_manager', `/customers/${customer.id}`);
  await expect(page.getByRole('heading', { name: 'Frost & Pine Outfitters', level: 1 })).toBeVisible();
  const contacts = page.getByTestId('contacts-card');
  await expect(contacts.getByRole('heading', { name: 'Contacts' })).toBeVisible();

  await test.step('the dialog asks a billing contact for an e-mail address', async () => {
    await contacts.getByRole('button', { name: 'Add contact' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Contact' });
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByLabel('Role').fill('Accounts payable');
    await dialog.getByRole('checkbox', { name: /Billing contact/ }).check();
    await dialog.getByRole('button', { name: 'Add Contact' }).click();
    await expect(dialog.getByText('A billing contact needs an e-mail address', { exact: true })).toBeVisible();
    await dialog.getByLabel('Email').fill(email);
    await dialog.getByRole('button', { name: 'Add Contact' }).click();
    await expect(dialog).toBeHidden();
    await expect(toast(page, 'Contact added')).toBeVisible();
  });

  await test.step('the contact is badged Billing, and the card says where invoices go', async () => {
    const row = contacts.getByTestId('contact-row').filter({ hasText: name });
    await expect(row).toContainText('Billing');
    await expect(row).toContainText('Accounts payable');
    await expect(row).not.toContainText('Primary');
    await expect(contacts).toContainText(`Invoices and receipts go to ${name} (${email}), the billing contact.`);
    await row.getByRole('button', { name: `Make ${name} the primary contact` }).click();
    await expect(toast(page, 'Primary contact changed')).toBeVisible();
    await expect(row).toContainText('Primary');
    const listed = await manager.get<{ name: string; isPrimary: boolean; isBilling: boolean }[]>(
      `/api/customers/${customer.id}/contacts`,
    );
    expect(listed.filter((c) => c.isPrimary).map((c) => c.name)).toEqual([name]);
    expect(listed.filter((c) => c.isBilling).map((c) => c.name)).toEqual([name]);
  });

  await test.step("the timeline tells the customer's story, its contracts' events among it", async () => {
    const timeline = page.getByTestId('customer-timeline');
    await expect(timeline.getByRole('heading', { name: 'Timeline' })).toBeVisible();
    const entries = timeline.getByTestId('timeline-entry');
    await expect(entries.first()).toBeVisible();
    const contractEvents = timeline.locator('[data-testid="timeline-entry"][data-kind="contract"]');
    await expect(contractEvents.first()).toBeVisible();
    // Its contracts' events: created, sent, signed, activated... each naming its contract.
    await expect(contractEvents.first()).toContainText(/contract ".+"/i);
    const before = await entries.count();
    const more = timeline.getByRole('button', { name: 'Show more' });
    if (await more.isVisible()) {
      await more.click();
      await expect.poll(() => entries.count()).toBeGreaterThan(before);
    }
  });

  await test.step('at 360 px nothing runs off the side', async () => {
    await page.setViewportSize({ width: 360, height: 780 });
    await page.reload();
    await expect(page.getByTestId('contacts-card').getByTestId('contact-row').filter({ hasText: name })).toBeVisible();
    await expect(page.getByTestId('customer-timeline').getByTestId('timeline-entry').first()).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });

  // Leave the demo customer as it was for the other tests of this worker.
  const [added] = (await manager.get<{ id: string; name: string }[]>(`/api/customers/${customer.id}/contacts`)).filter(
    (c) => c.name === name,
  );
  await manager.delete(`/api/customers/${customer.id}/contacts/${added.id}`);
});
