import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { DeleteObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { CREATIVE_MESSAGES, type Creative, MAX_CREATIVE_BYTES } from '@shared/contracts/creatives';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../app';
import { contracts, creatives } from '../../db/schema';
import { buildTestApp, type TestContext, testConfig } from '../../test/app';
import { createTestCustomer } from '../../test/catalog-factories';
import { createTestUser, type TestUser } from '../../test/factories';
import { compoundFile, executable, multipartBody, pdf } from '../../test/upload-fixtures';

/**
 * Creatives in an S3-compatible bucket (STORAGE_URL; a real s3rver on a free port) shared by two instances
 * of the app on one database, as behind a load balancer: what one stores, the other serves and deletes.
 */

type S3rverServer = { run(): Promise<AddressInfo>; close(): Promise<void> };
// s3rver ships no types: its constructor and the two calls used here.
const S3rver = createRequire(import.meta.url)('s3rver') as new (options: {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
  configureBuckets: { name: string }[];
}) => S3rverServer;

const BUCKET = 'creatives';

type Signed = TestUser & { token: string };

let server: S3rverServer;
let s3Directory: string;
let dataDir: string;
let bucket: S3Client;
let ctx: TestContext;
/** The second instance, on the same database and bucket. */
let other: FastifyInstance;
let client: Signed;
let rep: Signed;
let active: string;

beforeAll(async () => {
  s3Directory = fs.mkdtempSync(path.join(os.tmpdir(), 'adcrm-s3rver-'));
  server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: s3Directory,
    configureBuckets: [{ name: BUCKET }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  // The app's S3 client finds its credentials where it would in production: the standard AWS variables.
  vi.stubEnv('AWS_ACCESS_KEY_ID', 'S3RVER');
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'S3RVER');
  bucket = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true });

  // A DATA_DIR of its own, to show that nothing is written there.
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'adcrm-creatives-s3-'));
  const config = { DATA_DIR: dataDir, STORAGE_URL: `s3://${BUCKET}?endpoint=${endpoint}&forcePathStyle=true` };
  ctx = await buildTestApp({ config });
  other = await buildApp({ config: testConfig(config), db: ctx.db, logger: false });
  await other.ready();

  const customer = await createTestCustomer(ctx.db);
  client = await ctx.signIn(await createTestUser(ctx.db, { role: 'client', customerId: customer.id }));
  rep = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales' }));
  const [contract] = await ctx.db
    .insert(contracts)
    .values({
      customerId: customer.id,
      status: 'active',
      startDate: '2026-01-01',
      paymentMode: 'portal',
      salesRepId: rep.id,
      title: 'An active one',
    })
    .returning();
  active = contract.id;
});
afterAll(async () => {
  await other?.close();
  await ctx?.close();
  await server?.close();
  vi.unstubAllEnvs();
  fs.rmSync(s3Directory, { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const as = (app: FastifyInstance, who: Signed, options: InjectOptions) =>
  app.inject({ ...options, headers: { ...options.headers, authorization: `Bearer ${who.token}` } });

function upload(app: FastifyInstance, file: { filename: string; type: string; content: Buffer }) {
  const body = multipartBody([
    { name: 'contractId', value: active },
    { name: 'file', ...file },
  ]);
  return as(app, client, { method: 'POST', url: '/api/client/creatives', ...body });
}

async function bucketKeys(): Promise<string[]> {
  const listed = await bucket.send(new ListObjectsV2Command({ Bucket: BUCKET }));
  return (listed.Contents ?? []).map((object) => object.Key!).sort();
}

async function storageKeyOf(id: string): Promise<string> {
  const [row] = await ctx.db.select().from(creatives).where(eq(creatives.id, id));
  return row.storageKey;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('creatives in an object store, across two app instances', () => {
  it('stores a 10 MiB upload through one instance; the other serves the same bytes and deletes it', async () => {
    const file = pdf(MAX_CREATIVE_BYTES);
    const uploaded = await upload(ctx.app, { filename: 'brief.pdf', type: 'application/pdf', content: file });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const creative: Creative = uploaded.json();
    expect(creative).toMatchObject({ kind: 'pdf', size: MAX_CREATIVE_BYTES, sha256: sha256(file) });
    const key = await storageKeyOf(creative.id);
    expect(await bucketKeys()).toContain(key);
    expect(fs.existsSync(path.join(dataDir, 'uploads'))).toBe(false);

    for (const who of [client, rep]) {
      const download = await as(other, who, { method: 'GET', url: `/api/creatives/${creative.id}/download` });
      expect(download.statusCode).toBe(200);
      expect(download.headers).toMatchObject({
        'content-type': 'application/pdf',
        'content-length': String(file.length),
      });
      expect(sha256(download.rawPayload)).toBe(sha256(file));
    }

    const deleted = await as(other, client, { method: 'DELETE', url: `/api/creatives/${creative.id}` });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await bucketKeys()).not.toContain(key);
    const gone = await as(ctx.app, client, { method: 'GET', url: `/api/creatives/${creative.id}/download` });
    expect(gone.statusCode).toBe(404);
  });

  it('detects a .doc by reading the stored object twice, and the other instance serves it', async () => {
    const file = compoundFile(['WordDocument', '1Table']);
    const uploaded = await upload(other, { filename: 'copy.doc', type: 'application/msword', content: file });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    expect(uploaded.json()).toMatchObject({ kind: 'doc', mimeType: 'application/msword' });
    const download = await as(ctx.app, rep, {
      method: 'GET',
      url: `/api/creatives/${uploaded.json().id}/download`,
    });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(file)).toBe(true);
  });

  it('answers 404 when the object is gone from the bucket but its row is not', async () => {
    const file = compoundFile(['WordDocument']);
    const uploaded = await upload(ctx.app, { filename: 'lost.doc', type: 'application/msword', content: file });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const key = await storageKeyOf(uploaded.json().id);
    await bucket.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: key }));
    const download = await as(other, client, { method: 'GET', url: `/api/creatives/${uploaded.json().id}/download` });
    expect(download.statusCode).toBe(404);
    expect(download.json()).toEqual({ message: CREATIVE_MESSAGES.missingFile, code: 'NOT_FOUND' });
  });

  it.each([
    ['a refused type (415)', { filename: 'banner.png', type: 'image/png', content: executable() }, 415],
    [
      'one byte over 10 MiB (413)',
      { filename: 'big.pdf', type: 'application/pdf', content: pdf(MAX_CREATIVE_BYTES + 1) },
      413,
    ],
  ])('keeps nothing in the bucket for %s', async (_label, file, status) => {
    const before = await bucketKeys();
    const refused = await upload(ctx.app, file);
    expect(refused.statusCode, refused.body).toBe(status);
    expect(await bucketKeys()).toEqual(before);
  });
});
