import { request } from '@playwright/test';
import { apiAs, currentBaseURL, expect, signInAs, test, toast } from './fixtures';

/** The contract settings other specs expect (product.md section 14: reminders at due + 3 and + 10, pause at + 21). */
const DEFAULTS = {
  pausePaymentsAfterExpiry: true,
  gracePeriodsEndOfDays: 7,
  firstReminderDays: 3,
  secondReminderDays: 10,
  pauseAfterOverdueDays: 21,
  holdDays: 7,
  deliveryGraceDays: 3,
  autopayChargeOn: 'due_date',
};

/** The terms every insertion order prints until an admin writes the business's own (product.md section 15). */
const TERMS_START = /^This insertion order is an agreement between the advertiser/;
const DEFAULT_TERMS = expect.stringMatching(TERMS_START);

// Put the defaults back through the API whatever happens here, as the admin in a request context of its own.
test.afterEach(async () => {
  const context = await request.newContext({ baseURL: currentBaseURL() });
  try {
    const api = await apiAs(context, 'admin');
    await api.put('/api/settings/contracts', DEFAULTS);
    expect(await api.get('/api/settings/contracts')).toEqual({ ...DEFAULTS, ioTerms: DEFAULT_TERMS });
  } finally {
    await context.dispose();
  }
});

test('Contract Settings: the dunning days, their validation, save and reload', async ({ page }) => {
  await signInAs(page, 'admin', '/settings');
  await page.getByRole('tab', { name: 'Contract Settings' }).click();
  const dunning = page.getByRole('group', { name: 'Dunning' });
  const first = dunning.getByLabel('First Reminder (days after due date)');
  const second = dunning.getByLabel('Second Reminder (days after due date)');
  const pause = dunning.getByLabel('Pause Contract After (days overdue)');
  const save = page.getByRole('button', { name: 'Save Contract Settings' });
  await expect(first).toHaveValue('3');
  await expect(second).toHaveValue('10');
  await expect(pause).toHaveValue('21');
  await expect(first).toHaveAccessibleDescription('From 0 to 60; 0 turns it off.');
  await expect(pause).toHaveAccessibleDescription('From 0 to 120; 0 never pauses. Paying resumes the contract.');
  // The existing fields stay as they were.
  await expect(page.getByRole('switch', { name: 'Pause payments after expiry' })).toBeChecked();
  await expect(page.getByLabel('Grace Period (days)')).toHaveValue('7');
  // When pushed delivery is final (product.md section 16): 3 days after a period ends by default.
  const deliveryGrace = page.getByRole('group', { name: 'Delivery' }).getByLabel('Delivery Grace Days');
  await expect(deliveryGrace).toHaveValue('3');
  await expect(deliveryGrace).toHaveAccessibleDescription(
    'Days after a billing period ends before the delivery the ad server reported for it is final and any under-delivery is settled, from 0 to 31.',
  );

  // The day autopay charges an open invoice (product.md section 18): its due date by default.
  const chargeOn = page.getByRole('group', { name: 'Autopay' }).getByRole('combobox', { name: 'Autopay charges on' });
  await expect(chargeOn).toHaveText('The due date');
  await expect(chargeOn).toHaveAccessibleDescription('Customers with a card on file are charged on this day.');

  // The terms insertion orders print: the default text until an admin writes their own.
  await expect(page.getByRole('group', { name: 'Insertion orders' }).getByLabel('Insertion Order Terms')).toHaveValue(
    TERMS_START,
  );

  await first.fill('61');
  await save.click();
  await expect(page.getByText('First reminder cannot exceed 60 days')).toBeVisible();
  await expect(first).toHaveAttribute('aria-invalid', 'true');
  await expect(first).toHaveAccessibleDescription('First reminder cannot exceed 60 days');

  await first.fill('3');
  await second.fill('2');
  await save.click();
  await expect(page.getByText('The second reminder must come after the first')).toBeVisible();
  await expect(second).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('First reminder cannot exceed 60 days')).toHaveCount(0);

  await deliveryGrace.fill('32');
  await save.click();
  await expect(page.getByText('Delivery grace days cannot exceed 31 days')).toBeVisible();
  await expect(deliveryGrace).toHaveAttribute('aria-invalid', 'true');

  await first.fill('5');
  await second.fill('12');
  await pause.fill('30');
  await deliveryGrace.fill('5');
  await chargeOn.click();
  await page.getByRole('option', { name: 'The issue date' }).click();
  await expect(chargeOn).toHaveText('The issue date');
  const [put] = await Promise.all([
    page.waitForRequest((r) => r.method() === 'PUT' && r.url().endsWith('/api/settings/contracts')),
    save.click(),
  ]);
  expect(put.postDataJSON()).toEqual({
    pausePaymentsAfterExpiry: true,
    gracePeriodsEndOfDays: 7,
    firstReminderDays: 5,
    secondReminderDays: 12,
    pauseAfterOverdueDays: 30,
    holdDays: 7,
    deliveryGraceDays: 5,
    ioTerms: DEFAULT_TERMS,
    autopayChargeOn: 'issue_date',
  });
  await expect(toast(page, 'Contract settings saved')).toBeVisible();
  await expect(page.getByText('The second reminder must come after the first')).toHaveCount(0);

  await page.reload();
  await expect(page.getByRole('tab', { name: 'Contract Settings' })).toHaveAttribute('aria-selected', 'true');
  await expect(first).toHaveValue('5');
  await expect(second).toHaveValue('12');
  await expect(pause).toHaveValue('30');
  await expect(deliveryGrace).toHaveValue('5');
  await expect(chargeOn).toHaveText('The issue date');
});

test('Contract Settings: a dunning field the server refuses shows its message under the field', async ({ page }) => {
  await page.route('**/api/settings/contracts', (route) =>
    route.request().method() === 'PUT'
      ? route.fulfill({
          status: 400,
          contentType: 'application/json',
          body: JSON.stringify({
            message: 'Days before the pause cannot exceed 120 days',
            code: 'VALIDATION',
            fieldErrors: { pauseAfterOverdueDays: ['Days before the pause cannot exceed 120 days'] },
          }),
        })
      : route.continue(),
  );
  await signInAs(page, 'admin', '/settings?tab=contracts');
  const pause = page.getByLabel('Pause Contract After (days overdue)');
  await expect(pause).toHaveValue('21');
  await pause.fill('0');
  await page.getByRole('button', { name: 'Save Contract Settings' }).click();
  const failure = toast(page, 'Failed to update contract settings');
  await expect(failure).toBeVisible();
  await expect(failure).toHaveAttribute('data-variant', 'destructive');
  await expect(pause).toHaveAttribute('aria-invalid', 'true');
  await expect(pause).toHaveAccessibleDescription('Days before the pause cannot exceed 120 days');
});
