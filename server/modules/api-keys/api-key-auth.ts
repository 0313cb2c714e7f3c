import type { ApiKeyScope } from '@shared/contracts/api-key-vocabulary';
import { can, type Permission } from '@shared/permissions';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/errors';
import { hashApiKey, isWellFormedApiKey } from './api-key-token';
import { findApiKeyByHash, type ResolvedApiKey, touchApiKey } from './api-keys.repo';

/**
 * The API-key half of a caller's authentication, for plugins/auth.ts and plugins/authorize.ts (decision 038).
 */
export { looksLikeApiKey } from './api-key-token';

/**
 * The key a bearer value names, or a 401 saying what is wrong with it. A malformed key (shape or checksum) is
 * refused before any query; then the key is looked up by its SHA-256 and refused when unknown, revoked or
 * expired, or when its maker is no longer active or no longer an admin. Its last use (time and address) is recorded at most once a
 * minute, or when the address changes.
 */
export async function resolveApiKey(db: Db, key: string, ip: string): Promise<ResolvedApiKey> {
  if (!isWellFormedApiKey(key)) throw new AppError('UNAUTHENTICATED', 'Malformed API key');
  const found = await findApiKeyByHash(db, hashApiKey(key));
  if (!found) throw new AppError('UNAUTHENTICATED', 'Invalid API key');
  if (found.key.revoked) throw new AppError('UNAUTHENTICATED', 'This API key has been revoked');
  if (found.key.expired) throw new AppError('UNAUTHENTICATED', 'This API key has expired');
  if (!found.creator.isActive) throw new AppError('UNAUTHENTICATED', 'This API key belongs to a deactivated user');
  if (!can(found.creator, 'api-key:manage')) {
    throw new AppError('UNAUTHENTICATED', 'This API key belongs to a user who no longer manages API keys');
  }
  const { lastUsedAt, lastUsedIp } = found.key;
  if (!lastUsedAt || Date.now() - lastUsedAt.getTime() > 60_000 || lastUsedIp !== ip) {
    await touchApiKey(db, found.key.id, ip);
  }
  return found;
}

type Access = 'public' | 'signed-in' | readonly Permission[];

/**
 * A person's own account, and the credentials of other systems (API keys, webhook endpoints and their
 * secrets): a key acts for a system, never as the person who made it.
 */
const PERSONAL: readonly Permission[] = ['profile:self', 'notification:self', 'api-key:manage', 'webhook:manage'];
const READS = new Set(['GET', 'HEAD']);

/**
 * Why a request made with an API key of this scope is refused on a route, or null when the scope allows it
 * (the role's permissions are checked after this, as for a person). `read` keys only read; `delivery` keys
 * only record delivery (the routes that need `delivery:write:any`); no key changes a person's own profile,
 * password, sessions, notification settings or the API keys themselves.
 */
export function apiKeyRefusal(scope: ApiKeyScope, method: string, access: Access): string | null {
  if (access === 'public') return null;
  const personal = access === 'signed-in' ? !READS.has(method) : access.some((p) => PERSONAL.includes(p));
  if (personal) return 'An API key cannot be used for this: it is for signed-in people only';
  if (scope === 'read' && !READS.has(method)) return 'This API key is read-only';
  if (scope === 'delivery' && (READS.has(method) || access === 'signed-in' || !access.includes('delivery:write:any'))) {
    return 'This API key may only record delivery figures';
  }
  return null;
}
