import { can, canAny } from '@shared/permissions';
import { useCurrentUser } from '@/features/auth/api/me';

/**
 * What the signed-in user may do with contracts: read (all or own) and change (all or own); a client reads
 * their own company's contracts through the portal API instead.
 */
export function useContractAccess() {
  const { user } = useCurrentUser();
  return {
    canRead: canAny(user, ['contract:read:any', 'contract:read:own']),
    canWrite: canAny(user, ['contract:write:any', 'contract:write:own']),
    canReadOwnCompany: can(user, 'portal:access'),
  };
}
