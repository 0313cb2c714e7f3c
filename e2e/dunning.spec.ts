import type { ContractSummary } from '@shared/contracts/contract-responses';
import type { Invoice } from '@shared/contracts/invoices';
import type { Report } from '@shared/contracts/reports';
import { apiAs, expect, signInAs, test } from './fixtures';

/**
 * Dunning as finance sees it in the demo (product.md section 14). Four demo customers never pay; the billing
 * run and dunning replayed by the demo seed leave one of them at each stage today.
 */

const SHOWCASE = [
  ['Golden Harvest Grocers', 'Not reminded yet'],
  ['Cozy Cabin Furniture', 'First reminder sent'],
  ['Valley Chevrolet', 'Second reminder sent'],
  ['Peppermint Spa & Salon', 'Contract paused for non-payment'],
] as const;

test('the Invoices screen shows each overdue invoice’s dunning stage, and the Reports alerts count them', async ({
  page,
  request,
}) => {
  await signInAs(page, 'finance', '/invoices?overdue=true');
  await expect(page.getByRole('switch', { name: 'Overdue only' })).toBeChecked();
  const table = page.getByRole('table', { name: 'Invoices' });
  for (const [customer, stage] of SHOWCASE) {
    const row = table.getByRole('row').filter({ hasText: customer });
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId('invoice-dunning-stage')).toHaveText(stage);
    await expect(row).toContainText('Overdue');
  }

  const report = await (await apiAs(request, 'finance')).get<Report>('/api/reports?range=current_month');
  const byStage = report.alerts.overdueByStage;
  expect(byStage.overdue + byStage.first_reminder + byStage.second_reminder + byStage.contract_paused).toBe(
    report.alerts.overdueInvoices,
  );
  await page.goto('/reports');
  await expect(page.getByTestId('alert-paused-non-payment')).toHaveText(
    String(report.alerts.contractsPausedForNonPayment),
  );
  await page.getByRole('link', { name: /Contracts paused for non-payment/ }).click();
  await expect(page).toHaveURL(/\/contracts\?reason=non_payment$/);
  const paused = page.getByRole('row').filter({ hasText: 'Peppermint Spa & Salon' });
  await expect(paused.getByTestId('contract-pause-reason')).toHaveText('Paused for non-payment');
});

test('paying the overdue invoice resumes a contract paused for non-payment and bills the month of its pause', async ({
  page,
  request,
}) => {
  const finance = await apiAs(request, 'finance');
  const contract = (await finance.get<ContractSummary[]>('/api/contracts?status=paused&limit=100')).find(
    (c) => c.description === 'Gift-card season overlay, paused for non-payment',
  )!;
  expect(contract.pauseReason).toBe('non_payment');
  await signInAs(page, 'finance', `/contracts/${contract.id}`);
  await expect(page.getByText('Paused', { exact: true })).toBeVisible();
  await expect(
    page.getByText('Paused for non-payment: it resumes by itself when its overdue invoices are paid.'),
  ).toBeVisible();

  // Started 35 days ago: its first invoice is 28 days overdue; its second month started while it was paused.
  const before = await finance.get<Invoice[]>(`/api/invoices?contractId=${contract.id}`);
  expect(before).toHaveLength(1);
  expect(before[0].dunningStage).toBe('contract_paused');
  await finance.post(`/api/invoices/${before[0].id}/payments`, {
    amount: before[0].amountDue.toFixed(2),
    method: 'check',
  });

  await page.reload();
  await expect(page.getByText('Active', { exact: true })).toBeVisible();
  await expect(
    page.getByText('Paused for non-payment: it resumes by itself when its overdue invoices are paid.'),
  ).toHaveCount(0);
  const after = await finance.get<Invoice[]>(`/api/invoices?contractId=${contract.id}`);
  expect(after).toHaveLength(2);
  const [next] = after.filter((i) => i.id !== before[0].id);
  expect(next.periodIndex).toBe(1);
  // Billed on resume, due a week after it was issued today (not a week after its period began).
  const inAWeek = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  expect(next.dueDate).toBe(inAWeek);
  expect(next.overdue).toBe(false);
  await expect(
    page.getByRole('table', { name: 'Invoice history' }).getByRole('button', { name: next.number, exact: true }),
  ).toBeVisible();
});
