import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';

type ScryptParams = { N: number; r: number; p: number };
const PARAMS: ScryptParams = { N: 16384, r: 8, p: 1 };
const KEY_LENGTH = 64;

function scrypt(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCallback(password, salt, KEY_LENGTH, { ...params, maxmem: 64 * 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

/** scrypt$N$r$p$salt$hash (base64url parts): the parameters travel with the hash so they can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A hash of nothing in particular, verified against when an e-mail is unknown so both paths take as long. */
export const DUMMY_PASSWORD_HASH = `scrypt$16384$8$1$c2FsdHNhbHRzYWx0c2FsdA$${Buffer.alloc(KEY_LENGTH).toString('base64url')}`;

/**
 * A hash in the stored format that no password matches (its key is random, not derived from anything): the
 * password of an invited account until its owner sets one. Verifying against it takes as long as any other.
 */
export function unusablePasswordHash(): string {
  const salt = randomBytes(16).toString('base64url');
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt, randomBytes(KEY_LENGTH).toString('base64url')].join('$');
}
