import { crc32, deflateSync } from 'node:zlib';
import { type APIRequestContext, request } from '@playwright/test';
import { apiAs, currentBaseURL, expect, signInAs, test, toast, unique } from './fixtures';

/**
 * The Settings screen's Company tab (product.md section 17): an admin fills in the company profile and uploads
 * a logo, and finds both after a reload; other roles have no such tab. The demo's own profile and logo are put
 * back afterwards, since other tests of the worker print them.
 */

/** A PNG of 48 x 24 pixels (8-bit RGB, one colour), built here. */
function png(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(48, 0);
  header.writeUInt32BE(24, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(48 * 3, 0x2a)]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: 24 }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function withAdminApi<T>(fn: (context: APIRequestContext, api: Awaited<ReturnType<typeof apiAs>>) => Promise<T>) {
  const context = await request.newContext({ baseURL: currentBaseURL() });
  try {
    return await fn(context, await apiAs(context, 'admin'));
  } finally {
    await context.dispose();
  }
}

test.describe('the Company tab', () => {
  // biome-ignore lint/suspicious/noExplicitAny: the profile as the API answers it
  let saved: { profile: any; logo: Buffer };

  test.beforeEach(async () => {
    saved = await withAdminApi(async (context, api) => ({
      profile: await api.get('/api/settings/company'),
      logo: await (await context.get('/api/settings/company/logo')).body(),
    }));
  });
  test.afterEach(async () => {
    await withAdminApi(async (context, api) => {
      await api.put('/api/settings/company', saved.profile);
      const response = await context.fetch('/api/settings/company/logo', {
        method: 'PUT',
        headers: api.headers,
        multipart: { file: { name: 'logo.png', mimeType: 'image/png', buffer: saved.logo } },
      });
      expect(response.ok()).toBeTruthy();
    });
  });

  test('an admin fills in the company profile and uploads a logo, and finds both after a reload', async ({ page }) => {
    await signInAs(page, 'admin', '/settings');
    await page.getByRole('tab', { name: 'Company' }).click();
    const legalName = unique('Harborline Media LLC');
    await expect(page.getByLabel('Legal Name')).not.toHaveValue('');

    // A text file named like an image is refused by its content.
    const logoInput = page.getByLabel('Logo');
    await logoInput.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: Buffer.from('not an image\n') });
    await expect(page.getByRole('alert').filter({ hasText: 'The logo must be a PNG or JPEG image' })).toBeVisible();

    await logoInput.setInputFiles({ name: 'harborline.png', mimeType: 'image/png', buffer: png() });
    await expect(toast(page, 'Logo uploaded')).toBeVisible();
    const logo = page.getByRole('img', { name: 'Company logo' });
    await expect(logo).toBeVisible();
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(48);

    await page.getByLabel('Legal Name').fill(legalName);
    await page.getByLabel('Street').fill('77 Pier Road, Floor 2');
    await page.getByLabel('City').fill('Seattle');
    await page.getByLabel('State').fill('WA');
    await page.getByLabel('ZIP Code').fill('98101');
    await page.getByLabel('Country').fill('United States');
    await page.getByLabel('Phone').fill('+1 206 555 0199');
    await page.getByLabel('Billing Email').fill('invoices@harborline.example');
    await page.getByLabel('Website').fill('harborline.example');
    await page.getByLabel('Tax ID').fill('91-2345678');
    await page.getByLabel('Payment Instructions').fill('ACH to Pier Bank, account 7788');
    await page.getByLabel('Invoice Footer').fill('Thanks for advertising with Harborline.');
    await page.getByRole('button', { name: 'Save Company Profile' }).click();
    await expect(toast(page, 'Company profile saved')).toBeVisible();

    await page.reload();
    await page.getByRole('tab', { name: 'Company' }).click();
    await expect(page.getByLabel('Legal Name')).toHaveValue(legalName);
    await expect(page.getByLabel('Street')).toHaveValue('77 Pier Road, Floor 2');
    await expect(page.getByLabel('City')).toHaveValue('Seattle');
    await expect(page.getByLabel('State')).toHaveValue('WA');
    await expect(page.getByLabel('ZIP Code')).toHaveValue('98101');
    await expect(page.getByLabel('Country')).toHaveValue('United States');
    await expect(page.getByLabel('Phone')).toHaveValue('+1 206 555 0199');
    await expect(page.getByLabel('Billing Email')).toHaveValue('invoices@harborline.example');
    // Saved with its scheme.
    await expect(page.getByLabel('Website')).toHaveValue('https://harborline.example');
    await expect(page.getByLabel('Tax ID')).toHaveValue('91-2345678');
    await expect(page.getByLabel('Payment Instructions')).toHaveValue('ACH to Pier Bank, account 7788');
    await expect(page.getByLabel('Invoice Footer')).toHaveValue('Thanks for advertising with Harborline.');
    const reloaded = page.getByRole('img', { name: 'Company logo' });
    await expect(reloaded).toBeVisible();
    await expect.poll(() => reloaded.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(48);
  });

  test('an invalid billing e-mail is refused by the form with the shared rule, and nothing is sent', async ({
    page,
  }) => {
    const puts: string[] = [];
    page.on('request', (sent) => {
      if (sent.method() === 'PUT' && new URL(sent.url()).pathname === '/api/settings/company') puts.push(sent.url());
    });
    await signInAs(page, 'admin', '/settings?tab=company');
    await page.getByLabel('Billing Email').fill('billing at harborline');
    await page.getByRole('button', { name: 'Save Company Profile' }).click();
    await expect(page.getByText('Enter a valid billing e-mail address')).toBeVisible();
    expect(puts).toEqual([]);
  });
});

for (const account of ['sales_manager', 'finance', 'sales'] as const) {
  test(`${account} has no Company tab and never asks for the profile`, async ({ page }) => {
    const asked: string[] = [];
    page.on('request', (sent) => {
      if (new URL(sent.url()).pathname === '/api/settings/company') asked.push(sent.url());
    });
    await signInAs(page, account, '/settings?tab=company');
    await expect(page.getByRole('tab', { name: 'Profile' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tab', { name: 'Company' })).toHaveCount(0);
    expect(asked).toEqual([]);
  });
}
