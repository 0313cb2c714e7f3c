import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config';
import { createS3Storage, createStorage, parseStorageUrl, type Storage, StoredObjectMissing } from './storage';

/**
 * The S3 storage against a real S3-compatible server (s3rver, on a free port, in a temporary folder), and
 * STORAGE_URL as parseStorageUrl and the configuration read it.
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
const MiB = 1024 * 1024;
const SOME_BYTES = Buffer.from('a few bytes');

let server: S3rverServer;
let directory: string;
let endpoint: string;
/** Every request the first client sent, by command name. */
const sent: string[] = [];
let client: S3Client;
let storage: Storage;

const newClient = () =>
  new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });

beforeAll(async () => {
  directory = fs.mkdtempSync(path.join(os.tmpdir(), 'adcrm-s3rver-'));
  server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: BUCKET }],
  });
  const { port } = await server.run();
  endpoint = `http://127.0.0.1:${port}`;
  client = newClient();
  client.middlewareStack.add(
    (next, context) => (args) => {
      sent.push(String(context.commandName));
      return next(args);
    },
    { step: 'initialize' },
  );
  storage = createS3Storage({ bucket: BUCKET, endpoint, region: 'us-east-1', forcePathStyle: true }, client);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await server?.close();
  fs.rmSync(directory, { recursive: true, force: true });
});

/** `size` random bytes, made and handed over 64 KiB at a time, with their SHA-256 once they are all read. */
function generated(size: number, options: { failAt?: number } = {}) {
  const hash = createHash('sha256');
  const stream = Readable.from(
    (async function* () {
      for (let at = 0; at < size; at += 64 * 1024) {
        if (options.failAt !== undefined && at >= options.failAt) throw new Error('the source broke off');
        const chunk = randomBytes(Math.min(64 * 1024, size - at));
        hash.update(chunk);
        yield chunk;
      }
    })(),
  );
  return { stream, sha256: () => hash.digest('hex') };
}

/** The SHA-256 and length of everything a stream gives. */
async function digest(stream: Readable): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), size };
}

async function bucketKeys(): Promise<string[]> {
  const listed = await client.send(new ListObjectsV2Command({ Bucket: BUCKET }));
  return (listed.Contents ?? []).map((object) => object.Key!).sort();
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('S3 storage', () => {
  let bigKey: string;
  let bigSha256: string;

  it('stores a 12 MiB stream in parts and gives back the same bytes, under a plain UUID key', async () => {
    const source = generated(12 * MiB);
    sent.length = 0;
    bigKey = await storage.put(source.stream);
    bigSha256 = source.sha256();
    expect(bigKey).toMatch(UUID);
    // Three parts of at most 5 MiB: the file was never held whole.
    expect(sent.filter((name) => name === 'UploadPartCommand')).toHaveLength(3);
    expect(sent).toContain('CompleteMultipartUploadCommand');
    expect(await digest(await storage.get(bigKey))).toEqual({ sha256: bigSha256, size: 12 * MiB });
    expect(await bucketKeys()).toContain(bigKey);
  });

  it('answers the object to another instance with its own client, as another app instance would', async () => {
    const other = createS3Storage({ bucket: BUCKET, endpoint, region: 'us-east-1', forcePathStyle: true }, newClient());
    expect(await digest(await other.get(bigKey))).toEqual({ sha256: bigSha256, size: 12 * MiB });
  });

  it('lets a reader stop early and destroy the stream: the connection is freed, nothing errors', async () => {
    // One connection only: a destroyed download that kept its socket would leave the next read waiting.
    const oneSocket = new S3Client({
      endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      requestHandler: { httpAgent: new http.Agent({ keepAlive: true, maxSockets: 1 }), connectionTimeout: 2000 },
    });
    const reader = createS3Storage({ bucket: BUCKET, endpoint, region: 'us-east-1', forcePathStyle: true }, oneSocket);
    for (let i = 0; i < 3; i++) {
      const stream = await reader.get(bigKey);
      const first = await new Promise<Buffer>((resolve, reject) => {
        stream.once('data', resolve);
        stream.once('error', reject);
      });
      expect(first.length).toBeGreaterThan(0);
      stream.destroy();
      await new Promise((resolve) => stream.once('close', resolve));
    }
    expect((await digest(await reader.get(bigKey))).sha256).toBe(bigSha256);
    oneSocket.destroy();
  });

  it('sends a small file in one request', async () => {
    const source = generated(1000);
    sent.length = 0;
    const key = await storage.put(source.stream);
    expect(sent).toEqual(['PutObjectCommand']);
    expect(await digest(await storage.get(key))).toEqual({ sha256: source.sha256(), size: 1000 });
    await storage.delete(key);
  });

  it('deletes: the object is gone, and deleting it again is no error', async () => {
    const key = await storage.put(generated(2048).stream);
    await storage.delete(key);
    await expect(storage.get(key)).rejects.toBeInstanceOf(StoredObjectMissing);
    expect(await bucketKeys()).not.toContain(key);
    await expect(storage.delete(key)).resolves.toBeUndefined();
  });

  it('answers StoredObjectMissing for a key it never stored', async () => {
    await expect(storage.get(randomUUID())).rejects.toBeInstanceOf(StoredObjectMissing);
  });

  it.each([
    ['a path', '../creatives/x'],
    ['a prefixed UUID', `uploads/${randomUUID()}`],
    ['an upper-case UUID', randomUUID().toUpperCase()],
    ['nothing', ''],
  ])('answers StoredObjectMissing for %s without asking S3', async (_label, key) => {
    sent.length = 0;
    await expect(storage.get(key)).rejects.toBeInstanceOf(StoredObjectMissing);
    await expect(storage.delete(key)).resolves.toBeUndefined();
    expect(sent).toEqual([]);
  });

  it.each([
    ['after two parts were uploaded', 11 * MiB],
    ['before the first part was complete', MiB],
  ])('keeps nothing when the source fails %s, and rethrows its error', async (_label, failAt) => {
    const before = await bucketKeys();
    sent.length = 0;
    await expect(storage.put(generated(12 * MiB, { failAt }).stream)).rejects.toThrow('the source broke off');
    expect(sent).not.toContain('CompleteMultipartUploadCommand');
    if (failAt > 5 * MiB) expect(sent).toContain('AbortMultipartUploadCommand');
    expect(await bucketKeys()).toEqual(before);
  });
});

describe('createStorage', () => {
  it('uses the bucket STORAGE_URL names, with credentials from the standard AWS variables', async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'S3RVER');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'S3RVER');
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'adcrm-storage-'));
    try {
      const configured = createStorage({
        DATA_DIR: dataDir,
        STORAGE_URL: `s3://${BUCKET}?endpoint=${endpoint}&forcePathStyle=true`,
      });
      const source = generated(4096);
      const key = await configured.put(source.stream);
      expect(await bucketKeys()).toContain(key);
      expect(await digest(await storage.get(key))).toEqual({ sha256: source.sha256(), size: 4096 });
      expect(fs.existsSync(path.join(dataDir, 'uploads'))).toBe(false);
      await configured.delete(key);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('uses the uploads folder under DATA_DIR when STORAGE_URL is unset', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'adcrm-storage-'));
    try {
      const key = await createStorage({ DATA_DIR: dataDir, STORAGE_URL: undefined }).put(Readable.from([SOME_BYTES]));
      expect(fs.readFileSync(path.join(dataDir, 'uploads', key)).equals(SOME_BYTES)).toBe(true);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('STORAGE_URL', () => {
  it.each([
    ['s3://creatives', { bucket: 'creatives', region: 'us-east-1', forcePathStyle: false }],
    ['s3://creatives/', { bucket: 'creatives', region: 'us-east-1', forcePathStyle: false }],
    [
      's3://adcrm-uploads?endpoint=http://127.0.0.1:9000&region=eu-central-1&forcePathStyle=true',
      { bucket: 'adcrm-uploads', endpoint: 'http://127.0.0.1:9000', region: 'eu-central-1', forcePathStyle: true },
    ],
    [
      's3://media.example.com?region=auto&endpoint=https%3A%2F%2Fstore.example.com&forcePathStyle=false',
      { bucket: 'media.example.com', endpoint: 'https://store.example.com', region: 'auto', forcePathStyle: false },
    ],
  ])('reads %s', (url, expected) => {
    expect(parseStorageUrl(url)).toEqual(expected);
    expect(loadConfig({ STORAGE_URL: url }).STORAGE_URL).toBe(url);
  });

  it.each([
    ['http://x', 'must look like s3://bucket?endpoint=URL&region=R&forcePathStyle=true'],
    ['creatives', 'must look like s3://bucket?endpoint=URL&region=R&forcePathStyle=true'],
    ['s3:creatives', 'needs a bucket name after s3://'],
    ['s3://', 'needs a bucket name after s3://'],
    ['s3://Creatives', 'needs a bucket name after s3://'],
    ['s3://my_bucket', 'needs a bucket name after s3://'],
    ['s3://ab', 'needs a bucket name after s3://'],
    ['s3://AKIAEXAMPLE:secret@creatives', 'must not hold credentials'],
    ['s3://creatives:9000', 'holds no port, path or #fragment'],
    ['s3://creatives/uploads', 'holds no port, path or #fragment'],
    ['s3://creatives#x', 'holds no port, path or #fragment'],
    ['s3://creatives?forcepathstyle=true', 'takes only endpoint, region and forcePathStyle'],
    ['s3://creatives?region=a&region=b', 'gives an option twice'],
    ['s3://creatives?endpoint=127.0.0.1:9000', 'endpoint must be an http:// or https:// URL'],
    ['s3://creatives?endpoint=', 'endpoint must be an http:// or https:// URL'],
    ['s3://creatives?endpoint=http://key:secret@127.0.0.1:9000', 'endpoint must be an http:// or https:// URL'],
    ['s3://creatives?region=', 'region must be letters, digits and hyphens'],
    ['s3://creatives?region=eu west', 'region must be letters, digits and hyphens'],
    ['s3://creatives?forcePathStyle=yes', 'forcePathStyle must be true or false'],
    ['s3://creatives?forcePathStyle', 'forcePathStyle must be true or false'],
  ])('refuses %s: %s', (url, problem) => {
    expect(() => parseStorageUrl(url)).toThrow(`STORAGE_URL ${problem}`);
    let message = '';
    try {
      loadConfig({ STORAGE_URL: url });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain(`STORAGE_URL: ${problem}`);
    // The value may hold a secret: it is never repeated.
    expect(message).not.toContain('secret');
  });

  it('is optional: unset or empty, files stay in the local folder', () => {
    expect(loadConfig({}).STORAGE_URL).toBeUndefined();
    expect(loadConfig({ STORAGE_URL: '' }).STORAGE_URL).toBe('');
  });
});
