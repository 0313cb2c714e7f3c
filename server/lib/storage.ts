import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../config';

/**
 * Where uploaded files live. The product stores them in a folder under DATA_DIR; an object store (S3 and
 * the like) implements the same three calls. Keys are chosen by the storage, never from user input.
 */
export type Storage = {
  /** Stores the stream's bytes (streamed, never held in memory whole) and answers the new object's key. */
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

/** The configured storage: the uploads folder under DATA_DIR. */
export function createStorage(config: Pick<Config, 'DATA_DIR'>): Storage {
  return createLocalStorage(path.join(config.DATA_DIR, 'uploads'));
}
