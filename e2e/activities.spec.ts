import { apiAs, expect, signInAs, test, toast, unique } from './fixtures';

/**
 * Activities and "My day" (product.md section 19) against the real server: a rep logs a task due earlier today from
 * the Sales Dashboard, finds it both overdue and today's, and marks it done in one click, after which it leaves the
 * card. The browser runs in the business's time zone (the demo server's BUSINESS_TIMEZONE, UTC unless set), so
 * "today" is the same day for the dialog and the server.
 */
const TIME_ZONE = process.env.BUSINESS_TIMEZONE || 'UTC';
test.use({ timezoneId: TIME_ZONE });

/** Half an hour ago on today's clock in the business's zone (midnight when the day is younger than that). */
function earlierToday(now = new Date()): string {
  const [hour, minute] = new Intl.DateTimeFormat('en-GB', {
    timeZone: TIME_ZONE,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  })
    .format(now)
    .split(':')
    .map(Number);
  const minutes = Math.max(0, hour * 60 + minute - 30);
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

test('a rep logs a task due earlier today from the dashboard, sees it overdue and today, and marks it done', async ({
  page,
}) => {
  const subject = unique('Call Bella Notte about Q1');
  await signInAs(page, 'sales', '/');
  const myDay = page.getByRole('region', { name: 'My Day' });
  await expect(myDay).toBeVisible();

  await test.step('the dialog logs the task for a customer', async () => {
    await myDay.getByRole('button', { name: 'Log activity' }).click();
    const dialog = page.getByRole('dialog', { name: 'Log activity' });
    await dialog.getByRole('button', { name: 'Log activity' }).click();
    await expect(dialog.getByText('Subject is required')).toBeVisible();
    await expect(dialog.getByText('Choose a customer')).toBeVisible();
    await dialog.getByLabel('Subject').fill(subject);
    await dialog.getByRole('combobox', { name: 'Customer' }).fill('Bella Notte');
    await page.getByRole('option', { name: /Bella Notte Trattoria/ }).click();
    await dialog.getByLabel('Due time').fill(earlierToday());
    await dialog.getByRole('button', { name: 'Log activity' }).click();
    await expect(toast(page, 'Activity logged')).toBeVisible();
    await expect(dialog).toBeHidden();
  });

  await test.step('it is both overdue and today’s', async () => {
    const overdue = myDay.getByRole('list', { name: 'Overdue' });
    const today = myDay.getByRole('list', { name: 'Today' });
    const overdueRow = overdue.getByTestId('activity-row').filter({ hasText: subject });
    await expect(overdueRow).toBeVisible();
    await expect(overdueRow.getByText('Overdue', { exact: true })).toBeVisible();
    await expect(overdueRow.getByRole('link', { name: 'Bella Notte Trattoria' })).toBeVisible();
    await expect(today.getByTestId('activity-row').filter({ hasText: subject })).toBeVisible();
  });

  await test.step('done in one click, it leaves the card', async () => {
    await myDay
      .getByRole('button', { name: `Mark ${subject} done` })
      .first()
      .click();
    await expect(toast(page, 'Marked done')).toBeVisible();
    await expect(myDay.getByText(subject)).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole('region', { name: 'My Day' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'My Day' }).getByText(subject)).toHaveCount(0);
  });
});

test('a deal’s details log an activity of the deal, which the customer’s page lists too', async ({ page }) => {
  const manager = await apiAs(page.request, 'sales_manager');
  const [customer] = await manager.get<{ id: string; name: string }[]>('/api/customers?limit=1');
  const deal = await manager.post<{ id: string; title: string }>('/api/deals', {
    customerId: customer.id,
    title: unique('Spring radio'),
    amount: 2500,
  });
  const subject = unique('Send the proposal');
  await signInAs(page, 'sales_manager', '/pipeline');

  await page
    .getByTestId('pipeline-board')
    .getByRole('region', { name: 'Lead', exact: true })
    .getByRole('button', { name: deal.title, exact: true })
    .click();
  const details = page.getByRole('dialog', { name: deal.title });
  await expect(
    details.getByText('No activities yet. Log a call, meeting, e-mail, task or note for this deal.'),
  ).toBeVisible();
  await details.getByRole('button', { name: 'Log activity' }).click();
  const dialog = page.getByRole('dialog', { name: 'Log activity' });
  await expect(dialog.getByText(customer.name, { exact: true })).toBeVisible();
  await expect(dialog.getByRole('combobox', { name: 'Deal' })).toHaveText(deal.title);
  await dialog.getByLabel('Subject').fill(subject);
  await dialog.getByRole('button', { name: 'Log activity' }).click();
  await expect(toast(page, 'Activity logged')).toBeVisible();
  await expect(details.getByTestId('activity-row').filter({ hasText: subject })).toBeVisible();

  await page.goto(`/customers/${customer.id}`);
  const row = page
    .getByRole('list', { name: `Activities of ${customer.name}` })
    .getByTestId('activity-row')
    .filter({
      hasText: subject,
    });
  await expect(row).toContainText(deal.title);
  await expect(row.getByRole('button', { name: `Mark ${subject} done` })).toBeVisible();
});
