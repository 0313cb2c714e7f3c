import { createDraft } from './contracts-helpers';
import { apiAs, choose, expect, signInAs, test, toast, unique } from './fixtures';

type OutboxMessage = { to: string; subject: string; entityId: string };

test('a sent contract is e-mailed again with Resend; a draft offers Send to Customer instead', async ({
  page,
  request,
}) => {
  const description = unique('E2E resend');
  const draft = await createDraft(request, 'sales', description);
  const admin = await apiAs(request, 'admin');
  const mails = async (id: string) =>
    (await admin.get<OutboxMessage[]>('/api/outbox?limit=100')).filter((m) => m.entityId === id);

  await signInAs(page, 'sales', `/contracts/${draft.id}`);
  const actions = page.getByRole('region', { name: 'Contract status actions' });
  await expect(actions.getByRole('button', { name: 'Send to Customer' })).toBeVisible();
  await expect(actions.getByRole('button', { name: 'Resend' })).toHaveCount(0);
  await actions.getByRole('button', { name: 'Send to Customer' }).click();
  await expect(toast(page, 'Contract sent')).toBeVisible();
  await expect.poll(async () => (await mails(draft.id)).length).toBe(1);

  await expect(actions.getByRole('button', { name: 'Send to Customer' })).toHaveCount(0);
  await actions.getByRole('button', { name: 'Resend' }).click();
  await expect(toast(page, 'Contract sent again')).toContainText('was e-mailed to');
  await expect.poll(async () => (await mails(draft.id)).length).toBe(2);
  const [first, second] = await mails(draft.id);
  expect(second.subject).toBe(first.subject);
  expect(second.to).toBe(first.to);
});

test('finance imports delivery from the contracts list', async ({ page }) => {
  await signInAs(page, 'finance', '/contracts');
  await page.getByRole('button', { name: 'Import Delivery' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('contract,line,month,impressions,clicks');
  await dialog.getByLabel('CSV file').setInputFiles({
    name: 'delivery.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('contract,line,month,impressions,clicks\nnot-a-contract,Pre-roll,2026-01,5,\n'),
  });
  await dialog.getByRole('button', { name: 'Import' }).click();
  // Finance gets past the permission check: the file itself is checked row by row.
  await expect(dialog.getByTestId('import-errors')).toContainText('Row 2: Unknown contract not-a-contract');
});

test('the toast after creating a contract opens it', async ({ page }) => {
  await signInAs(page, 'sales', '/contracts/new');
  await choose(page, 'Customer', /Holiday Lights Co\./);
  await page.getByRole('combobox', { name: 'Payment Mode' }).click();
  await page.getByRole('option', { name: /Pay-Link/ }).click();
  await choose(page, 'Product', /Homepage Banner/);
  const description = unique('E2E open from toast');
  await page.getByLabel('Description').fill(description);
  await page.getByRole('switch', { name: 'Send to customer immediately' }).click();
  await page.getByRole('button', { name: 'Save as Draft' }).click();

  const created = toast(page, 'Contract created successfully');
  await expect(created).toContainText('saved as a draft');
  await expect(page).toHaveURL(/\/contracts$/);
  await created.getByRole('link', { name: 'Open contract' }).click();
  await expect(page).toHaveURL(/\/contracts\/[0-9a-f-]{36}$/);
  await expect(page.getByText(description)).toBeVisible();
});
