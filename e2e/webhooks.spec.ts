import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { expect, signInAs, test, toast } from './fixtures';

/**
 * The Settings screen's "Webhooks" tab: an admin adds an endpoint pointing at a receiver this test runs on
 * localhost, copies its signing secret, sends a test event and sees it delivered in the log; the receiver
 * verifies the request with the `standardwebhooks` package. A URL inside a private network is refused with
 * its reason under the field.
 */

type Received = { headers: Record<string, string>; body: string };

async function startReceiver() {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push({
        headers: {
          'webhook-id': String(req.headers['webhook-id']),
          'webhook-timestamp': String(req.headers['webhook-timestamp']),
          'webhook-signature': String(req.headers['webhook-signature']),
        },
        body,
      });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}/hooks`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test('an admin adds an endpoint, sends a test event and sees it delivered, signed', async ({ page }) => {
  const receiver = await startReceiver();
  try {
    await signInAs(page, 'admin', '/settings?tab=webhooks');
    await expect(page.getByRole('tab', { name: 'Webhooks' })).toHaveAttribute('aria-selected', 'true');

    await page.getByRole('button', { name: 'Add Endpoint' }).click();
    const form = page.getByRole('dialog', { name: 'Add endpoint' });
    await form.getByLabel('Endpoint URL').fill(receiver.url);
    await form.getByLabel('Description').fill('Accounting sync');
    await form.getByRole('button', { name: 'Add Endpoint' }).click();
    await expect(form.getByText('Choose at least one event')).toBeVisible();
    await form.getByLabel('Select all').check();
    await expect(form.getByLabel(/Invoice paid/)).toBeChecked();
    await form.getByRole('button', { name: 'Add Endpoint' }).click();

    const shown = page.getByRole('dialog', { name: 'Endpoint added: its signing secret' });
    const secret = await shown.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await shown.getByRole('button', { name: 'Done' }).click();

    const row = page.getByTestId('webhook-endpoint').filter({ hasText: receiver.url });
    await expect(row).toContainText('All events');
    await expect(row).toContainText('Enabled');
    await expect(row).toContainText('None yet');

    await row.getByRole('button', { name: 'Deliveries' }).click();
    const log = page.getByRole('dialog', { name: 'Delivery log' });
    await expect(log.getByText('No deliveries yet')).toBeVisible();
    await log.getByRole('button', { name: 'Send test event' }).click();
    await expect(toast(page, 'Test event queued')).toBeVisible();
    const delivery = log.getByTestId('webhook-delivery').first();
    await expect(delivery).toHaveAttribute('data-status', 'succeeded', { timeout: 15_000 });
    await expect(delivery).toContainText('Test event');
    await expect(delivery).toContainText('Delivered');
    await expect(delivery).toContainText('200');
    await page.screenshot({ path: 'test-results/webhook-delivered.png' });

    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    const payload = new Webhook(secret).verify(request.body, request.headers) as { type: string };
    expect(payload.type).toBe('webhook.test');
    await expect(delivery).toContainText(request.headers['webhook-id']);

    // On a phone the endpoint is a card with its status and last delivery.
    await log.getByRole('button', { name: 'Close' }).click();
    await expect(log).toBeHidden();
    await page.setViewportSize({ width: 360, height: 740 });
    // The rows become cards: the table leaves the page (and its row with it) before the card is looked at.
    await expect(page.getByRole('table', { name: 'Webhook endpoints' })).toHaveCount(0);
    await expect(row).toContainText('Delivered · 200', { timeout: 10_000 });
    const deliveries = row.getByRole('button', { name: 'Deliveries' });
    await deliveries.scrollIntoViewIfNeeded();
    await expect(deliveries).toBeInViewport();
    const box = (await row.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(360);
    await page.screenshot({ path: 'test-results/webhook-list-360.png' });
  } finally {
    await receiver.close();
  }
});

test('a URL that is not HTTPS or points inside a private network is refused with its reason', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await signInAs(page, 'admin', '/settings?tab=webhooks');
  await page.getByRole('button', { name: 'Add Endpoint' }).click();
  const form = page.getByRole('dialog', { name: 'Add endpoint' });
  await form.getByLabel('Select all').check();

  await form.getByLabel('Endpoint URL').fill('http://hooks.example.com/in');
  await form.getByRole('button', { name: 'Add Endpoint' }).click();
  await expect(form.getByText('The URL must use HTTPS (HTTP only to localhost)')).toBeVisible();

  await form.getByLabel('Endpoint URL').fill('https://10.20.30.40/in');
  await form.getByRole('button', { name: 'Add Endpoint' }).click();
  await expect(form.getByText('The URL cannot point to a private address (10.20.30.40)').first()).toBeVisible();
  await expect(form.getByLabel('Endpoint URL')).toHaveAttribute('aria-invalid', 'true');
  await page.screenshot({ path: 'test-results/webhook-refused-360.png' });
  await form.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('webhook-endpoint').filter({ hasText: '10.20.30.40' })).toHaveCount(0);
});
