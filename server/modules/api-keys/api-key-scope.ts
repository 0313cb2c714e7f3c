import type { ApiKeyScope } from '@shared/contracts/api-key-vocabulary';
import type { Permission } from '@shared/permissions';

type Access = 'public' | 'signed-in' | readonly Permission[];

/** A person's own account: a key acts for a system, never as the person who made it. */
const PERSONAL: readonly Permission[] = ['profile:self', 'notification:self', 'api-key:manage'];
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
