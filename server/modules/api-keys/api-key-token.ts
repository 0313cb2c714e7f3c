import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

/**
 * The format of an API key (decision 038): `adcrm_` + 32 base62 characters of randomness (190 bits) + 6 base62
 * characters of the CRC32 of those 32. The prefix lets secret scanners recognise a leaked key; the checksum
 * lets a typo or a truncated key be refused before any database read. Only the SHA-256 of the whole key is
 * stored.
 */
export const API_KEY_PREFIX = 'adcrm_';
const BODY_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SHAPE = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${BODY_LENGTH + CHECKSUM_LENGTH}}$`);

/** A fixed-width base62 number (most significant digit first). */
function base62(value: bigint, width: number): string {
  let out = '';
  let rest = value;
  for (let i = 0; i < width; i += 1) {
    out = ALPHABET[Number(rest % 62n)] + out;
    rest /= 62n;
  }
  return out;
}

const checksumOf = (body: string) => base62(BigInt(crc32(body)), CHECKSUM_LENGTH);

/** A new key. Each of the 32 characters is drawn without bias from 62 (rejection sampling of random bytes). */
export function generateApiKey(): string {
  let body = '';
  while (body.length < BODY_LENGTH) {
    for (const byte of randomBytes(BODY_LENGTH)) {
      // 248 = 4 x 62: bytes above it would favour the first characters.
      if (byte < 248 && body.length < BODY_LENGTH) body += ALPHABET[byte % 62];
    }
  }
  return `${API_KEY_PREFIX}${body}${checksumOf(body)}`;
}

/** Whether a bearer value claims to be an API key (so it is never looked up as a session token). */
export const looksLikeApiKey = (value: string) => value.startsWith(API_KEY_PREFIX);

/** Whether a key has the right shape and its checksum matches: a mistyped key fails here, without a query. */
export function isWellFormedApiKey(value: string): boolean {
  if (!SHAPE.test(value)) return false;
  const body = value.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + BODY_LENGTH);
  return value.endsWith(checksumOf(body));
}

export const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');

/** What a list shows of a key: its prefix and its last four characters. */
export const apiKeyHint = (key: string) => `${API_KEY_PREFIX}…${key.slice(-4)}`;
