import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { DeleteObjectCommand, GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { Config } from '../config';
import { parseStorageUrl, type S3StorageOptions } from '../storage-url';

export { parseStorageUrl, type S3StorageOptions };

/**
 * Where uploaded files live (decision 028): a folder under DATA_DIR by default, or a bucket of an
 * S3-compatible object store when STORAGE_URL names one. Both implement the same three calls and stream
 * both ways. Keys are random UUIDs chosen by the storage, never taken from user input; a key of another
 * form is answered as missing without asking the store.
 */
export type Storage = {
  /**
   * Stores the stream's bytes and answers the new object's key. Streamed: the folder writes as it reads; S3
   * holds at most one part (5 MiB) at a time, so a larger file is never in memory whole.
   */
  put(stream: Readable): Promise<string>;
  /** The object's bytes; StoredObjectMissing when there is no such object. */
  get(key: string): Promise<Readable>;
  /** Removes the object; removing a missing one is not an error. */
  delete(key: string): Promise<void>;
};

export class StoredObjectMissing extends Error {
  constructor(key: string) {
    super(`No stored object ${key}`);
    this.name = 'StoredObjectMissing';
  }
}

const KEY_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Files in one folder, named by random UUID keys. A file is written under a temporary name and renamed when
 * complete, so a reader never sees half a file and an interrupted upload leaves no object behind.
 */
export function createLocalStorage(dir: string): Storage {
  const root = path.resolve(dir);
  const fileOf = (key: string) => {
    if (!KEY_PATTERN.test(key)) throw new StoredObjectMissing(key);
    return path.join(root, key);
  };
  return {
    async put(stream) {
      await fs.promises.mkdir(root, { recursive: true });
      const key = randomUUID();
      const partial = path.join(root, `.${key}.part`);
      try {
        await pipeline(stream, fs.createWriteStream(partial, { flags: 'wx' }));
        await fs.promises.rename(partial, fileOf(key));
      } catch (error) {
        await fs.promises.rm(partial, { force: true });
        throw error;
      }
      return key;
    },
    async get(key) {
      let handle: fs.promises.FileHandle;
      try {
        handle = await fs.promises.open(fileOf(key), 'r');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new StoredObjectMissing(key);
        throw error;
      }
      return handle.createReadStream();
    },
    async delete(key) {
      if (!KEY_PATTERN.test(key)) return;
      await fs.promises.rm(fileOf(key), { force: true });
    },
  };
}

/** The most of an upload held in memory at once: one multipart part (S3's minimum part size). */
const PART_BYTES = 5 * 1024 * 1024;

/**
 * Objects in one bucket, named by the same random UUID keys as the local folder (so `aws s3 sync` of that
 * folder carries existing files over). Credentials come from the AWS SDK's default chain (AWS_ACCESS_KEY_ID
 * and AWS_SECRET_ACCESS_KEY, a profile, an instance or task role); nothing here reads or logs them.
 *
 * - `put` streams the source into a multipart upload (@aws-sdk/lib-storage), one part of 5 MiB at a time;
 *   a source of one part or less is sent as one PutObject. The object exists only once the upload is
 *   complete; a failed one is aborted (its parts dropped) and the key deleted, then the error rethrown.
 * - `get` answers the object's body as a Node stream; a consumer may stop early and destroy it (the
 *   connection is dropped, nothing is left reading). No such object: StoredObjectMissing.
 * - `delete` is DeleteObject, which succeeds for a missing object.
 */
export function createS3Storage(options: S3StorageOptions, client?: S3Client): Storage {
  const s3 =
    client ??
    new S3Client({ region: options.region, endpoint: options.endpoint, forcePathStyle: options.forcePathStyle });
  const Bucket = options.bucket;
  return {
    async put(stream) {
      const key = randomUUID();
      // The source's own failure (a size limit, a dropped connection) is what the caller is told, even when
      // the abort that follows it fails too.
      let sourceError: unknown;
      stream.once('error', (error) => {
        sourceError = error;
      });
      // leavePartsOnError is off: on any failure lib-storage aborts the multipart upload, dropping its parts.
      const upload = new Upload({
        client: s3,
        params: { Bucket, Key: key, Body: stream },
        partSize: PART_BYTES,
        queueSize: 1,
      });
      try {
        await upload.done();
      } catch (error) {
        stream.destroy();
        // A single PutObject that failed only on its way back may have written the object: its key goes too.
        await s3.send(new DeleteObjectCommand({ Bucket, Key: key })).catch(() => undefined);
        throw sourceError ?? error;
      }
      return key;
    },
    async get(key) {
      if (!KEY_PATTERN.test(key)) throw new StoredObjectMissing(key);
      let body: unknown;
      try {
        body = (await s3.send(new GetObjectCommand({ Bucket, Key: key }))).Body;
      } catch (error) {
        if (isMissingObject(error)) throw new StoredObjectMissing(key);
        throw error;
      }
      if (body instanceof Readable) return body;
      // Another request handler than Node's (fetch) answers a web stream.
      if (body instanceof ReadableStream) return Readable.fromWeb(body as WebReadableStream);
      throw new Error(`Object ${key} came without a readable body`);
    },
    async delete(key) {
      if (!KEY_PATTERN.test(key)) return;
      try {
        await s3.send(new DeleteObjectCommand({ Bucket, Key: key }));
      } catch (error) {
        // S3 answers 204 for a missing key; some compatible servers answer 404.
        if (!isMissingObject(error)) throw error;
      }
    },
  };
}

/** NoSuchKey, or a bare 404; a missing bucket is a configuration error and stays one. */
function isMissingObject(error: unknown): boolean {
  const { name, $metadata } = (error ?? {}) as { name?: string; $metadata?: { httpStatusCode?: number } };
  if (name === 'NoSuchKey') return true;
  return $metadata?.httpStatusCode === 404 && name !== 'NoSuchBucket';
}

/** The configured storage: the bucket STORAGE_URL names, else the uploads folder under DATA_DIR. */
export function createStorage(config: Pick<Config, 'DATA_DIR' | 'STORAGE_URL'>): Storage {
  if (config.STORAGE_URL) return createS3Storage(parseStorageUrl(config.STORAGE_URL));
  return createLocalStorage(path.join(config.DATA_DIR, 'uploads'));
}
