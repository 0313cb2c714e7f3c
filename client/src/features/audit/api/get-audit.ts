import type { AuditEvent } from '@shared/contracts/audit';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage, withQuery } from '@/lib/api-client';

export const AUDIT_PAGE_SIZE = 25;

export type AuditFilter = { entity: string; entityId: string; userId: string; from: string; to: string; page: number };

export const auditQueryOptions = (filter: AuditFilter) =>
  queryOptions({
    queryKey: ['/api/audit', filter],
    queryFn: () =>
      apiPage<AuditEvent>(
        withQuery('/api/audit', {
          entity: filter.entity,
          entityId: filter.entityId.trim(),
          userId: filter.userId,
          from: filter.from,
          to: filter.to,
          limit: AUDIT_PAGE_SIZE,
          offset: filter.page * AUDIT_PAGE_SIZE,
        }),
      ),
  });

/** One page of the audit trail; the previous page stays on screen while the next one loads. */
export function useAudit(filter: AuditFilter) {
  return useQuery({ ...auditQueryOptions(filter), placeholderData: keepPreviousData });
}
