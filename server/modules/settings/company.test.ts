import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { HTML, multipartBody, PNG } from '../../test/upload-fixtures';

/**
 * The company profile (product.md section 17): GET/PUT /api/settings/company and the logo, PUT/GET
 * /api/settings/company/logo. Expected values are written out by hand.
 */

let ctx: TestContext;
let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'adcrm-company-'));
  ctx = await buildTestApp({ config: { BUSINESS_NAME: 'Northwind Media', DATA_DIR: dataDir } });
});
afterAll(async () => {
  await ctx.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const NOTHING = {
  legalName: 'Northwind Media',
  address: { street: null, city: null, state: null, zip: null, country: null },
  phone: null,
  billingEmail: null,
  website: null,
  taxId: null,
  paymentInstructions: null,
  invoiceFooter: null,
};

const PROFILE = {
  legalName: 'Northwind Media LLC',
  address: {
    street: '400 Harbor Way, Suite 12',
    city: 'Portland',
    state: 'OR',
    zip: '97204',
    country: 'United States',
  },
  phone: '+1 (503) 555-0142',
  billingEmail: 'billing@northwind.example.test',
  website: 'https://northwind.example.test',
  taxId: '93-4417785',
  paymentInstructions: 'Wire: First Harbor Bank\nAccount 004417785, routing 123000848',
  invoiceFooter: 'Thank you for advertising with Northwind.',
};

const getProfile = (role: 'admin' | 'super_admin' = 'admin') =>
  ctx.injectAs(role, { method: 'GET', url: '/api/settings/company' });
const putProfile = (payload: unknown, role: 'admin' | 'super_admin' = 'admin') =>
  ctx.injectAs(role, { method: 'PUT', url: '/api/settings/company', payload: payload as object });

const companyAudits = () =>
  ctx.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.entity, 'settings'), eq(auditEvents.entityId, 'company')))
    .orderBy(asc(auditEvents.createdAt));

describe('the company profile', () => {
  it('reads every field, null but the legal name (BUSINESS_NAME), before anything is saved', async () => {
    const response = await getProfile();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toStrictEqual(NOTHING);
  });

  it('saves the profile and reads it back; blanks are saved as null; each change is audited', async () => {
    const saved = await putProfile(PROFILE, 'super_admin');
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toStrictEqual(PROFILE);
    expect((await getProfile()).json()).toStrictEqual(PROFILE);

    // A website without its scheme is taken as https; '' and spaces clear a field; trimmed text.
    const edited = {
      ...PROFILE,
      legalName: '  Northwind Media LLC ',
      address: { ...PROFILE.address, street: '  ' },
      website: 'northwind.example.test/ads',
      taxId: '',
      invoiceFooter: null,
    };
    const second = await putProfile(edited);
    expect(second.statusCode, second.body).toBe(200);
    const expected = {
      ...PROFILE,
      address: { ...PROFILE.address, street: null },
      website: 'https://northwind.example.test/ads',
      taxId: null,
      invoiceFooter: null,
    };
    expect((await getProfile()).json()).toStrictEqual(expected);

    const audits = await companyAudits();
    expect(audits.map((a) => a.action)).toEqual(['settings.updated', 'settings.updated']);
    expect(audits[0].before).toStrictEqual(NOTHING);
    expect(audits[0].after).toStrictEqual(PROFILE);
    expect(audits[1].before).toStrictEqual(PROFILE);
    expect(audits[1].after).toStrictEqual(expected);

    // Back to the full profile for the tests below.
    expect((await putProfile(PROFILE)).statusCode).toBe(200);
  });

  it.each([
    ['no legal name', { ...PROFILE, legalName: '' }, 'legalName', 'Legal name is required'],
    ['a legal name of blanks', { ...PROFILE, legalName: '   ' }, 'legalName', 'Legal name is required'],
    [
      'a legal name over 200 characters',
      { ...PROFILE, legalName: 'N'.repeat(201) },
      'legalName',
      'Legal name cannot be longer than 200 characters',
    ],
    [
      'a street over 200 characters',
      { ...PROFILE, address: { ...PROFILE.address, street: 'S'.repeat(201) } },
      'address.street',
      'Street cannot be longer than 200 characters',
    ],
    [
      'a city over 100 characters',
      { ...PROFILE, address: { ...PROFILE.address, city: 'C'.repeat(101) } },
      'address.city',
      'City cannot be longer than 100 characters',
    ],
    [
      'a ZIP code over 20 characters',
      { ...PROFILE, address: { ...PROFILE.address, zip: '9'.repeat(21) } },
      'address.zip',
      'ZIP code cannot be longer than 20 characters',
    ],
    [
      'a street on two lines',
      { ...PROFILE, address: { ...PROFILE.address, street: '400 Harbor Way\nSuite 12' } },
      'address.street',
      'Street must fit on one line',
    ],
    [
      'an address that is text',
      { ...PROFILE, address: '400 Harbor Way' },
      'address',
      'Address must be an object with street, city, state, zip and country',
    ],
    [
      'an invalid billing e-mail',
      { ...PROFILE, billingEmail: 'billing at northwind' },
      'billingEmail',
      'Enter a valid billing e-mail address',
    ],
    [
      'a website that is not http(s)',
      { ...PROFILE, website: 'ftp://northwind.example.test' },
      'website',
      'Enter the website address, like https://example.com',
    ],
    [
      'a website with a space',
      { ...PROFILE, website: 'https://north wind.example' },
      'website',
      'Enter the website address, like https://example.com',
    ],
    ['a phone of letters', { ...PROFILE, phone: 'call us' }, 'phone', 'Enter a phone number, like +1 503 555 0100'],
    [
      'a tax ID over 50 characters',
      { ...PROFILE, taxId: '1'.repeat(51) },
      'taxId',
      'Tax ID cannot be longer than 50 characters',
    ],
    [
      'payment instructions over 1,000 characters',
      { ...PROFILE, paymentInstructions: 'p'.repeat(1001) },
      'paymentInstructions',
      'Payment instructions cannot be longer than 1,000 characters',
    ],
    [
      'an invoice footer over 300 characters',
      { ...PROFILE, invoiceFooter: 'f'.repeat(301) },
      'invoiceFooter',
      'Invoice footer cannot be longer than 300 characters',
    ],
    ['a number for the phone', { ...PROFILE, phone: 5035550142 }, 'phone', 'Phone must be text'],
  ])('refuses %s with 400, and saves nothing', async (_what, payload, field, message) => {
    const auditsBefore = (await companyAudits()).length;
    const response = await putProfile(payload);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().code).toBe('VALIDATION');
    expect(response.json().fieldErrors[field]).toEqual([message]);
    expect((await getProfile()).json()).toStrictEqual(PROFILE);
    expect(await companyAudits()).toHaveLength(auditsBefore);
  });
});

// ---------------------------------------------------------------------------------------------------------
// The logo
// ---------------------------------------------------------------------------------------------------------

/** A PNG of `width` x `height` pixels (8-bit RGB, one colour), built here: signature, IHDR, IDAT, IEND. */
function png(width: number, height: number, options: { corruptData?: boolean } = {}): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, no filter method, not interlaced
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0xc0)]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  const idat = options.corruptData ? Buffer.from('not deflate data at all') : pixels;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', idat),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The smallest JPEG: 1 x 1 grey. */
const JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
  'base64',
);

/** A GIF89a of 1 x 1: an image, but not one of the logo's types. */
const GIF = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');

const putLogo = (
  content: Buffer,
  filename = 'logo.png',
  type = 'image/png',
  role: 'admin' | 'super_admin' = 'admin',
) => {
  const body = multipartBody([{ name: 'file', filename, type, content }]);
  return ctx.injectAs(role, { method: 'PUT', url: '/api/settings/company/logo', ...body });
};

/** Files in the storage folder (no logo has been kept before the first accepted one). */
const storedFiles = () => {
  const uploads = path.join(dataDir, 'uploads');
  return fs.existsSync(uploads) ? fs.readdirSync(uploads).length : 0;
};

describe('the company logo', () => {
  it('has none before one is uploaded: 404 with a message, for anyone', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/settings/company/logo' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'No logo has been uploaded', code: 'NOT_FOUND' });
  });

  it.each([
    [
      'a text file named logo.png',
      Buffer.from('This is not an image, whatever its name says.\n'),
      'The logo must be a PNG or JPEG image',
    ],
    ['an HTML page named logo.png', HTML, 'The logo must be a PNG or JPEG image'],
    ['a GIF', GIF, 'The logo must be a PNG or JPEG image'],
    ['a PNG whose pixel data is damaged', png(4, 4, { corruptData: true }), 'The logo could not be read as an image'],
    ['a PNG 2,001 pixels wide', png(2001, 1), 'The logo can be at most 2,000 pixels wide and high'],
    ['an empty file', Buffer.alloc(0), 'Choose a PNG or JPEG image for the logo'],
  ])('refuses %s with 400 and keeps nothing', async (_what, content, message) => {
    const response = await putLogo(content);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ message, fieldErrors: { file: [message] } });
    expect((await ctx.app.inject({ method: 'GET', url: '/api/settings/company/logo' })).statusCode).toBe(404);
    expect(storedFiles()).toBe(0);
  });

  it('refuses a file over 1 MB (a PNG of 1,048,577 bytes) with 400', async () => {
    const big = Buffer.concat([png(1, 1), Buffer.alloc(1024 * 1024 + 1 - png(1, 1).length)]);
    expect(big.length).toBe(1_048_577);
    const response = await putLogo(big);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().message).toBe('The logo must be at most 1 MB');
    expect((await ctx.app.inject({ method: 'GET', url: '/api/settings/company/logo' })).statusCode).toBe(404);
    expect(storedFiles()).toBe(0);
  });

  it('refuses a request that is not a multipart form', async () => {
    const response = await ctx.injectAs('admin', {
      method: 'PUT',
      url: '/api/settings/company/logo',
      headers: { 'content-type': 'image/png' },
      payload: PNG,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Choose a PNG or JPEG image for the logo');
  });

  it('keeps a PNG, whatever its name, and serves it back byte for byte to anyone', async () => {
    const logo = png(120, 40);
    const response = await putLogo(logo, 'company logo.bin', 'application/octet-stream');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      contentType: 'image/png',
      bytes: logo.length,
      width: 120,
      height: 40,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });

    const served = await ctx.app.inject({ method: 'GET', url: '/api/settings/company/logo' });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(served.rawPayload, logo)).toBe(0);
    // Asked again with its ETag: not modified.
    const again = await ctx.app.inject({
      method: 'GET',
      url: '/api/settings/company/logo',
      headers: { 'if-none-match': String(served.headers.etag) },
    });
    expect(again.statusCode).toBe(304);

    const [audit] = (await companyAudits()).filter((a) => a.action === 'settings.logo_updated');
    expect(audit.after).toMatchObject({ contentType: 'image/png', bytes: logo.length, width: 120, height: 40 });
  });

  it('takes a JPEG in its place', async () => {
    const response = await putLogo(JPEG, 'logo.jpg', 'image/jpeg', 'super_admin');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ contentType: 'image/jpeg', bytes: JPEG.length, width: 1, height: 1 });
    const served = await ctx.app.inject({ method: 'GET', url: '/api/settings/company/logo' });
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(Buffer.compare(served.rawPayload, JPEG)).toBe(0);
  });
});
