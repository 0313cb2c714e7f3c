import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CREATIVE_MESSAGES, type Creative, MAX_CREATIVE_BYTES } from '@shared/contracts/creatives';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, contracts, creatives } from '../../db/schema';
import { buildTestApp, type TestContext } from '../../test/app';
import { createTestCustomer } from '../../test/catalog-factories';
import { createTestUser, type TestUser } from '../../test/factories';
import { compoundFile, docx, executable, HTML, mp4, multipartBody, PNG, pdf } from '../../test/upload-fixtures';

type Signed = TestUser & { token: string };

let ctx: TestContext;
let dataDir: string;
let uploadsDir: string;
let client: Signed;
let sameCustomerClient: Signed;
let otherClient: Signed;
let rep: Signed;
let otherRep: Signed;
let active: string;
let draft: string;
let canceled: string;
let othersContract: string;

async function insertContract(customerId: string, status: string, salesRepId: string | null = null) {
  const [row] = await ctx.db
    .insert(contracts)
    .values({
      customerId,
      status,
      startDate: '2026-01-01',
      paymentMode: 'portal',
      salesRepId,
      title: `A ${status} one`,
    })
    .returning();
  return row.id;
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'adcrm-creatives-'));
  uploadsDir = path.join(dataDir, 'uploads');
  ctx = await buildTestApp({ config: { DATA_DIR: dataDir } });
  const customer = await createTestCustomer(ctx.db);
  const other = await createTestCustomer(ctx.db);
  client = await ctx.signIn(await createTestUser(ctx.db, { role: 'client', customerId: customer.id }));
  sameCustomerClient = await ctx.signIn(await createTestUser(ctx.db, { role: 'client', customerId: customer.id }));
  otherClient = await ctx.signIn(await createTestUser(ctx.db, { role: 'client', customerId: other.id }));
  rep = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales' }));
  otherRep = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales' }));
  active = await insertContract(customer.id, 'active', rep.id);
  draft = await insertContract(customer.id, 'draft', rep.id);
  canceled = await insertContract(customer.id, 'canceled', rep.id);
  othersContract = await insertContract(other.id, 'active');
});
afterAll(async () => {
  await ctx.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

type FilePart = { filename: string; type: string; content: Buffer };

function upload(who: Signed, contractId: string | null, file: FilePart | null, options: { fileFirst?: boolean } = {}) {
  const fields = contractId === null ? [] : [{ name: 'contractId', value: contractId }];
  const files = file ? [{ name: 'file', ...file }] : [];
  const body = multipartBody(options.fileFirst ? [...files, ...fields] : [...fields, ...files]);
  return ctx.injectAs(who, { method: 'POST', url: '/api/client/creatives', ...body });
}

const storedFiles = () => (fs.existsSync(uploadsDir) ? fs.readdirSync(uploadsDir).sort() : []);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('uploading a creative', () => {
  it('stores an image with its detected type, size and SHA-256, and the download gives the same bytes', async () => {
    const response = await upload(client, active, { filename: 'Holiday banner.png', type: 'image/png', content: PNG });
    expect(response.statusCode, response.body).toBe(201);
    const creative: Creative = response.json();
    expect(creative).toMatchObject({
      contractId: active,
      contractTitle: 'A active one',
      originalName: 'Holiday banner.png',
      kind: 'image',
      mimeType: 'image/png',
      extension: 'png',
      size: PNG.length,
      sha256: sha256(PNG),
      uploadedBy: client.id,
      canDelete: true,
    });
    const [row] = await ctx.db.select().from(creatives).where(eq(creatives.id, creative.id));
    expect(row.sizeBytes).toBe(PNG.length);
    expect(row.sha256).toBe(sha256(PNG));
    expect(fs.readFileSync(path.join(uploadsDir, row.storageKey)).equals(PNG)).toBe(true);
    const [audit] = await ctx.db.select().from(auditEvents).where(eq(auditEvents.entityId, creative.id));
    expect(audit).toMatchObject({ action: 'creative.uploaded', actorId: client.id, entity: 'creative' });

    const download = await ctx.injectAs(client, { method: 'GET', url: `/api/creatives/${creative.id}/download` });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(PNG)).toBe(true);
    expect(download.headers).toMatchObject({
      'content-type': 'image/png',
      'content-length': String(PNG.length),
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, no-store',
    });
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="Holiday banner.png"; filename*=UTF-8''Holiday%20banner.png`,
    );
    expect(download.headers['content-security-policy']).toContain('sandbox');
  });

  it.each([
    ['a video', { filename: 'spot.mp4', type: 'video/mp4', content: mp4() }, 'video', 'video/mp4'],
    ['a PDF', { filename: 'brief.pdf', type: 'application/pdf', content: pdf() }, 'pdf', 'application/pdf'],
    [
      'a .docx',
      { filename: 'copy.docx', type: 'application/octet-stream', content: docx() },
      'docx',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    ],
    [
      'a .doc',
      { filename: 'copy.doc', type: 'application/msword', content: compoundFile(['WordDocument', '1Table']) },
      'doc',
      'application/msword',
    ],
    [
      'a .doc whose directory is past other sectors',
      { filename: 'old.doc', type: 'application/msword', content: compoundFile(['1Table', 'WordDocument'], 3) },
      'doc',
      'application/msword',
    ],
    ['an image sent as text', { filename: 'pic', type: 'text/plain', content: PNG }, 'image', 'image/png'],
  ])('accepts %s, decided by its content', async (_label, file, kind, mimeType) => {
    const response = await upload(client, active, file);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ kind, mimeType, size: file.content.length, sha256: sha256(file.content) });
    const download = await ctx.injectAs('admin', {
      method: 'GET',
      url: `/api/creatives/${response.json().id}/download`,
    });
    expect(download.rawPayload.equals(file.content)).toBe(true);
    expect(download.headers['content-type']).toBe(mimeType);
  });

  it('accepts exactly 10 MiB and refuses one byte more with 413, leaving no file behind', async () => {
    const exact = pdf(MAX_CREATIVE_BYTES);
    expect(exact.length).toBe(10 * 1024 * 1024);
    const accepted = await upload(client, active, { filename: 'big.pdf', type: 'application/pdf', content: exact });
    expect(accepted.statusCode, accepted.body).toBe(201);
    expect(accepted.json()).toMatchObject({ size: 10_485_760, sha256: sha256(exact) });

    const before = storedFiles();
    const rowsBefore = await ctx.db.select().from(creatives);
    const tooBig = pdf(MAX_CREATIVE_BYTES + 1);
    const refused = await upload(client, active, { filename: 'bigger.pdf', type: 'application/pdf', content: tooBig });
    expect(refused.statusCode).toBe(413);
    expect(refused.json()).toEqual({ message: CREATIVE_MESSAGES.tooLarge, code: 'PAYLOAD_TOO_LARGE' });
    expect(storedFiles()).toEqual(before);
    expect(await ctx.db.select().from(creatives)).toHaveLength(rowsBefore.length);
  });

  it.each([
    ['an executable renamed .png', { filename: 'banner.png', type: 'image/png', content: executable() }],
    ['an HTML page', { filename: 'landing.html', type: 'text/html', content: HTML }],
    ['an HTML page named .pdf', { filename: 'brief.pdf', type: 'application/pdf', content: HTML }],
    [
      'an installer package named .doc',
      { filename: 'x.doc', type: 'application/msword', content: compoundFile(['SummaryInformation', '!_StringData']) },
    ],
    [
      'a ZIP archive named .docx',
      {
        filename: 'x.docx',
        type: 'application/octet-stream',
        content: Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(200)]),
      },
    ],
  ])('refuses %s with 415, leaving no file behind', async (_label, file) => {
    const before = storedFiles();
    const response = await upload(client, active, file);
    expect(response.statusCode, response.body).toBe(415);
    expect(response.json()).toEqual({ message: CREATIVE_MESSAGES.notAccepted, code: 'UNSUPPORTED_MEDIA_TYPE' });
    expect(storedFiles()).toEqual(before);
  });

  it('takes the fields in either order', async () => {
    const response = await upload(
      client,
      active,
      { filename: 'b.png', type: 'image/png', content: PNG },
      { fileFirst: true },
    );
    expect(response.statusCode, response.body).toBe(201);
  });

  it("answers 404 for another customer's contract, a draft and an unknown id, and keeps nothing", async () => {
    const before = storedFiles();
    const png = { filename: 'a.png', type: 'image/png', content: PNG };
    for (const contractId of [othersContract, draft, '00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      const response = await upload(client, contractId, png);
      expect(response.statusCode, contractId).toBe(404);
      expect(response.json().message).toBe('Contract not found');
    }
    expect(storedFiles()).toEqual(before);
  });

  it('refuses uploads for a canceled contract, and requests without a file, a contract, content or multipart', async () => {
    const png = { filename: 'a.png', type: 'image/png', content: PNG };
    const closed = await upload(client, canceled, png);
    expect(closed.statusCode).toBe(409);
    expect(closed.json().message).toBe('This contract is canceled, so no creatives can be uploaded for it.');

    const noFile = await upload(client, active, null);
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().message).toBe(CREATIVE_MESSAGES.noFile);
    const noContract = await upload(client, null, png);
    expect(noContract.statusCode).toBe(400);
    expect(noContract.json().message).toBe(CREATIVE_MESSAGES.contractRequired);
    const empty = await upload(client, active, { filename: 'e.png', type: 'image/png', content: Buffer.alloc(0) });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe(CREATIVE_MESSAGES.empty);

    const json = await ctx.injectAs(client, {
      method: 'POST',
      url: '/api/client/creatives',
      payload: { contractId: active },
    });
    expect(json.statusCode).toBe(415);
    expect(json.json().message).toBe(CREATIVE_MESSAGES.notMultipart);

    const two = multipartBody([
      { name: 'contractId', value: active },
      { name: 'file', filename: 'a.png', type: 'image/png', content: PNG },
      { name: 'file', filename: 'b.png', type: 'image/png', content: PNG },
    ]);
    const twoFiles = await ctx.injectAs(client, { method: 'POST', url: '/api/client/creatives', ...two });
    expect(twoFiles.statusCode).toBe(400);
    expect(twoFiles.json().message).toBe(CREATIVE_MESSAGES.oneFile);

    const staff = await ctx.injectAs('admin', { method: 'POST', url: '/api/client/creatives', ...two });
    expect(staff.statusCode).toBe(403);
  });
});

describe('who sees and deletes creatives', () => {
  let creative: Creative;
  beforeAll(async () => {
    creative = (await upload(client, active, { filename: 'seen.png', type: 'image/png', content: PNG })).json();
  });

  it("lists a contract's creatives to staff who may read it and to its client; others get 404", async () => {
    for (const who of ['admin', 'super_admin', 'sales_manager', 'finance', rep, client, sameCustomerClient] as const) {
      const response = await ctx.injectAs(who, { method: 'GET', url: `/api/contracts/${active}/creatives?limit=100` });
      expect(response.statusCode).toBe(200);
      expect(response.json().map((c: Creative) => c.id)).toContain(creative.id);
      expect(Number(response.headers['x-total-count'])).toBeGreaterThanOrEqual(response.json().length);
    }
    for (const who of [otherClient, otherRep]) {
      const response = await ctx.injectAs(who, { method: 'GET', url: `/api/contracts/${active}/creatives` });
      expect(response.statusCode).toBe(404);
      const download = await ctx.injectAs(who, { method: 'GET', url: `/api/creatives/${creative.id}/download` });
      expect(download.statusCode).toBe(404);
      expect(download.json().message).toBe('Creative not found');
    }
    // A client never sees a draft's list either.
    expect((await ctx.injectAs(client, { method: 'GET', url: `/api/contracts/${draft}/creatives` })).statusCode).toBe(
      404,
    );
  });

  it("lists the client's own creatives across its contracts, and no one else's", async () => {
    const mine = await ctx.injectAs(client, { method: 'GET', url: '/api/client/creatives?limit=500' });
    expect(mine.statusCode).toBe(200);
    const ids = mine.json().map((c: Creative) => c.id);
    expect(ids).toContain(creative.id);
    expect(mine.json().every((c: Creative) => c.contractId === active)).toBe(true);
    const theirs = await ctx.injectAs(otherClient, { method: 'GET', url: '/api/client/creatives' });
    expect(theirs.json()).toEqual([]);
    expect(theirs.headers['x-total-count']).toBe('0');
  });

  it('lets the uploader and staff who may change the contract delete; others are refused', async () => {
    const other = await ctx.injectAs(otherClient, { method: 'DELETE', url: `/api/creatives/${creative.id}` });
    expect(other.statusCode).toBe(404);
    const finance = await ctx.injectAs('finance', { method: 'DELETE', url: `/api/creatives/${creative.id}` });
    expect(finance.statusCode).toBe(403);
    const colleague = await ctx.injectAs(sameCustomerClient, {
      method: 'DELETE',
      url: `/api/creatives/${creative.id}`,
    });
    expect(colleague.statusCode).toBe(403);
    expect(colleague.json().message).toBe(CREATIVE_MESSAGES.deleteRefused);
    const listed = await ctx.injectAs(sameCustomerClient, {
      method: 'GET',
      url: `/api/contracts/${active}/creatives?limit=500`,
    });
    expect(listed.json().find((c: Creative) => c.id === creative.id).canDelete).toBe(false);

    const [row] = await ctx.db.select().from(creatives).where(eq(creatives.id, creative.id));
    const deleted = await ctx.injectAs(client, { method: 'DELETE', url: `/api/creatives/${creative.id}` });
    expect(deleted.statusCode).toBe(200);
    expect(fs.existsSync(path.join(uploadsDir, row.storageKey))).toBe(false);
    expect(await ctx.db.select().from(creatives).where(eq(creatives.id, creative.id))).toEqual([]);
    const audit = await ctx.db.select().from(auditEvents).where(eq(auditEvents.entityId, creative.id));
    expect(audit.map((a) => a.action).sort()).toEqual(['creative.deleted', 'creative.uploaded']);
    const again = await ctx.injectAs(client, { method: 'DELETE', url: `/api/creatives/${creative.id}` });
    expect(again.statusCode).toBe(404);

    const second: Creative = (
      await upload(client, active, { filename: 'x.png', type: 'image/png', content: PNG })
    ).json();
    expect((await ctx.injectAs(otherRep, { method: 'DELETE', url: `/api/creatives/${second.id}` })).statusCode).toBe(
      404,
    );
    expect((await ctx.injectAs(rep, { method: 'DELETE', url: `/api/creatives/${second.id}` })).statusCode).toBe(200);
  });

  it('names a download by its detected type, whatever the file was called', async () => {
    const response = await upload(client, active, {
      filename: 'proof «final».exe',
      type: 'application/x-msdownload',
      content: pdf(),
    });
    expect(response.statusCode, response.body).toBe(201);
    const download = await ctx.injectAs('admin', {
      method: 'GET',
      url: `/api/creatives/${response.json().id}/download`,
    });
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="proof _final_.exe.pdf"; filename*=UTF-8''proof%20%C2%ABfinal%C2%BB.exe.pdf`,
    );
  });
});
