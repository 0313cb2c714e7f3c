import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import { BlockList, isIP } from 'node:net';
import { isLoopbackHost, WEBHOOK_MESSAGES } from '@shared/contracts/webhooks';

/**
 * Where a webhook may be sent (product.md section 16, decision 042): HTTPS, or HTTP to this machine; never to an
 * address inside a private network, a link-local or cloud metadata address, or an unspecified, multicast or
 * reserved one, whatever name leads there. Checked when an endpoint is registered or its URL changed (the host
 * resolved, every address checked) and again on every delivery, by the connection's own lookup
 * (guardedLookup), so the address connected to is one that was checked: a name that resolved to a public
 * address at registration and to a private one later (DNS rebinding) is refused at delivery.
 */

export type ResolvedAddress = { address: string; family: number };
/** Every address a host name resolves to. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

const RESOLVE_TIMEOUT_MS = 5_000;

/** The system's resolver (getaddrinfo, as connections use), with a time limit. */
export const systemResolver: Resolver = (hostname) =>
  Promise.race([
    dns.promises.lookup(hostname, { all: true, verbatim: true }),
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('DNS lookup timed out')), RESOLVE_TIMEOUT_MS).unref(),
    ),
  ]);

/** Ranges no webhook goes to, with the words a refusal uses. */
const RANGES: [network: string, prefix: number, family: 'ipv4' | 'ipv6', kind: string][] = [
  ['0.0.0.0', 8, 'ipv4', 'an unspecified address'],
  ['10.0.0.0', 8, 'ipv4', 'a private address'],
  ['100.64.0.0', 10, 'ipv4', 'a private address'],
  ['169.254.0.0', 16, 'ipv4', 'a link-local or metadata address'],
  ['172.16.0.0', 12, 'ipv4', 'a private address'],
  ['192.0.0.0', 24, 'ipv4', 'a reserved address'],
  ['192.168.0.0', 16, 'ipv4', 'a private address'],
  ['198.18.0.0', 15, 'ipv4', 'a reserved address'],
  ['224.0.0.0', 4, 'ipv4', 'a multicast address'],
  ['240.0.0.0', 4, 'ipv4', 'a reserved address'],
  ['::', 128, 'ipv6', 'an unspecified address'],
  ['fc00::', 7, 'ipv6', 'a private address'],
  ['fe80::', 10, 'ipv6', 'a link-local or metadata address'],
  ['fec0::', 10, 'ipv6', 'a private address'],
  ['ff00::', 8, 'ipv6', 'a multicast address'],
];

const lists = RANGES.map(([network, prefix, family, kind]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return { list, family, kind };
});

/** Host names of cloud metadata services, refused by name too. */
const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata.goog', 'metadata', 'instance-data']);

/** The IPv4 address an IPv6 one carries (IPv4-mapped ::ffff:a.b.c.d, or NAT64 64:ff9b::/96), or null. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:(?:0:)?|64:ff9b::)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:(?:0:)?|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return null;
  const [high, low] = [Number.parseInt(hex[1], 16), Number.parseInt(hex[2], 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** Why a webhook may not go to this IP address (e.g. 'a private address'), or null when it may. */
export function addressRefusal(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const version = isIP(bare);
  if (version === 0) return 'not an IP address';
  if (version === 6) {
    const v4 = embeddedIpv4(bare);
    if (v4) return addressRefusal(v4);
  }
  if (bare === '255.255.255.255') return 'a broadcast address';
  const family = version === 4 ? 'ipv4' : 'ipv6';
  for (const range of lists) {
    if (range.family === family && range.list.check(bare, family)) return range.kind;
  }
  return null;
}

/** Why a webhook may not go to this host name (a metadata service's), or null. */
export function hostRefusal(hostname: string): string | null {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return METADATA_HOSTS.has(host) ? 'a metadata address' : null;
}

export class WebhookAddressError extends Error {}

const refusedMessage = (host: string, kind: string, address?: string) =>
  address && address !== host
    ? `The URL cannot point to ${kind}: ${host} resolves to ${address}`
    : `The URL cannot point to ${kind} (${host})`;

/**
 * Checks a webhook URL for registration: its form (again, as the schema does), then its host, resolved with
 * `resolve`, each address. Throws WebhookAddressError with the message an admin sees; answers the addresses.
 */
export async function checkWebhookUrl(value: string, resolve: Resolver = systemResolver): Promise<ResolvedAddress[]> {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new WebhookAddressError(WEBHOOK_MESSAGES.urlInvalid);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    throw new WebhookAddressError(WEBHOOK_MESSAGES.urlScheme);
  }
  if (url.username || url.password) throw new WebhookAddressError(WEBHOOK_MESSAGES.urlCredentials);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const byName = hostRefusal(host);
  if (byName) throw new WebhookAddressError(refusedMessage(host, byName));
  if (isIP(host)) {
    const kind = addressRefusal(host);
    if (kind) throw new WebhookAddressError(refusedMessage(host, kind));
    return [{ address: host, family: isIP(host) }];
  }
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolve(host);
  } catch {
    throw new WebhookAddressError(`The URL's host could not be resolved: ${host}`);
  }
  if (addresses.length === 0) throw new WebhookAddressError(`The URL's host could not be resolved: ${host}`);
  for (const { address } of addresses) {
    const kind = addressRefusal(address);
    if (kind) throw new WebhookAddressError(refusedMessage(host, kind, address));
  }
  return addresses;
}

/**
 * The `lookup` of a delivery's connection: resolves with `resolve` and refuses the connection when any address
 * is refused, so the socket connects only to an address checked here (never a second, unchecked resolution).
 */
export function guardedLookup(resolve: Resolver): LookupFunction {
  return (hostname, options, callback) => {
    const done = callback as (error: NodeJS.ErrnoException | null, address: unknown, family?: number) => void;
    const refusedName = hostRefusal(hostname);
    if (refusedName) {
      done(new WebhookAddressError(refusedMessage(hostname, refusedName)), '', 4);
      return;
    }
    resolve(hostname).then(
      (addresses) => {
        if (addresses.length === 0) {
          done(Object.assign(new Error(`${hostname} could not be resolved`), { code: 'ENOTFOUND' }), '', 4);
          return;
        }
        for (const { address } of addresses) {
          const kind = addressRefusal(address);
          if (kind) {
            done(new WebhookAddressError(refusedMessage(hostname, kind, address)), '', 4);
            return;
          }
        }
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = wanted ? addresses.filter((a) => a.family === wanted) : addresses;
        if (options.all) done(null, usable.length ? usable : addresses);
        else {
          const pick = usable[0] ?? addresses[0];
          done(null, pick.address, pick.family);
        }
      },
      (error: NodeJS.ErrnoException) => done(error, '', 4),
    );
  };
}
