import net from 'node:net';
import { z } from 'zod';

/** What Fastify's `trustProxy` receives: nothing trusted, a hop count, or the proxies' addresses and ranges. */
export type TrustProxy = false | number | string[];

/** proxy-addr's names for address ranges. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrRange(value: string): boolean {
  if (NAMED_RANGES.has(value)) return true;
  const [address, bits, ...rest] = value.split('/');
  const version = net.isIP(address);
  if (!version || rest.length) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (version === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: which reverse proxies may tell the server the client's address and protocol
 * (X-Forwarded-For / -Proto). Unset: none (the socket's address is the client's). A number: that many
 * proxies in front of the server (the Nth address from the right is the client). Otherwise a comma-separated
 * list of proxy addresses or CIDR ranges (or loopback, linklocal, uniquelocal). "true" (trust anyone) is
 * refused: every client could then invent its address and escape the sign-in throttle.
 */
export const trustProxySchema = z
  .string()
  .optional()
  .transform((raw, ctx): TrustProxy => {
    const value = raw?.trim() ?? '';
    if (value === '' || value === 'false' || value === '0') return false;
    if (/^\d+$/.test(value)) return Number(value);
    const list = value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
    const invalid = list.filter((item) => !isAddressOrRange(item));
    if (value === 'true' || invalid.length || !list.length) {
      ctx.addIssue({
        code: 'custom',
        message:
          value === 'true'
            ? 'TRUST_PROXY=true would trust forwarded addresses from anyone: give the number of proxies in front of the server (e.g. 1) or their addresses'
            : `TRUST_PROXY must be a number of proxies or a comma-separated list of addresses or CIDR ranges (not: ${invalid.join(', ')})`,
      });
      return z.NEVER;
    }
    return list;
  });

/** Fastify's `trustProxy` for the setting: a hop count becomes "trust the first N hops" (as Fastify does). */
export function trustProxyOption(
  setting: TrustProxy,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return setting;
}
