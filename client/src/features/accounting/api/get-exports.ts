import type { AccountingExport } from '@shared/contracts/accounting-vocabulary';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage, withQuery } from '@/lib/api-client';

/** The key every export-list query starts with; making a batch invalidates it. */
export const exportsQueryKey = ['/api/accounting/exports'] as const;

export const EXPORTS_PAGE_SIZE = 20;

export const exportsQueryOptions = (page: number) =>
  queryOptions({
    queryKey: [...exportsQueryKey, { page }],
    queryFn: () =>
      apiPage<AccountingExport>(
        withQuery('/api/accounting/exports', { limit: EXPORTS_PAGE_SIZE, offset: page * EXPORTS_PAGE_SIZE }),
      ),
  });

/** One page of batches, newest first; the previous page stays on screen while the next one loads. */
export function useExports(page: number) {
  return useQuery({ ...exportsQueryOptions(page), placeholderData: keepPreviousData });
}
