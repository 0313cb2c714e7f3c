import type { Role } from '../roles';

/** What an API key may do (product.md section 16): read what an admin reads, a staff role's rights, or push delivery. */
export const API_KEY_SCOPES = ['read', 'role', 'delivery'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export const API_KEY_SCOPE_LABELS: Record<ApiKeyScope, string> = {
  read: 'Read-only',
  role: 'Rights of a staff role',
  delivery: 'Delivery figures only',
};

export const API_KEY_SCOPE_HINTS: Record<ApiKeyScope, string> = {
  read: 'Reads everything an admin can read; every change is refused.',
  role: 'Reads and changes what the chosen role may, as that role would.',
  delivery: 'Only pushes delivery figures from the ad server (POST /api/delivery and the CSV import).',
};

/**
 * The staff roles a key may act as: those whose rights cover every record (`:any`). A sales rep's rights are
 * over their own contracts, which a key has none of; super admin rights are not given to a key.
 */
export const API_KEY_ROLES = ['admin', 'sales_manager', 'finance'] as const satisfies readonly Role[];
export type ApiKeyRole = (typeof API_KEY_ROLES)[number];

/** The role a key acts as when authorised: its own for `role`, an admin's reads for `read`, finance's delivery rights for `delivery`. */
export function apiKeyEffectiveRole(scope: ApiKeyScope, role: ApiKeyRole | null): Role {
  if (scope === 'role' && role) return role;
  return scope === 'read' ? 'admin' : 'finance';
}

/** An API key as the list shows it: never its secret, only a hint of it. */
export type ApiKeyView = {
  id: string;
  name: string;
  scope: ApiKeyScope;
  role: ApiKeyRole | null;
  hint: string;
  createdAt: string;
  createdBy: { id: string; name: string } | null;
  expiresAt: string | null;
  /** The last day the key works (the business's calendar), or null: it does not expire. */
  expiresOn: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
  lastUsedIp: string | null;
  status: 'active' | 'expired' | 'revoked';
};

/** The answer to a create: the key as listed, and its secret, shown this once. */
export type CreatedApiKey = ApiKeyView & { secret: string };
