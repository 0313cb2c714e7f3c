import type { Package } from '@shared/contracts/packages';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage, withQuery } from '@/lib/api-client';

/** The key every packages query starts with; mutations invalidate it so every page and search refreshes. */
export const packagesQueryKey = ['/api/packages'] as const;

export const PACKAGES_PAGE_SIZE = 24;

export type PackagesFilter = { q: string; page: number };

/** One page of packages with their items and products, searched on the server (name, description). */
export const packagesQueryOptions = ({ q, page }: PackagesFilter) =>
  queryOptions({
    queryKey: [...packagesQueryKey, 'list', { q, page }],
    queryFn: () =>
      apiPage<Package>(withQuery('/api/packages', { q, limit: PACKAGES_PAGE_SIZE, offset: page * PACKAGES_PAGE_SIZE })),
  });

/** The previous page stays on screen while the next one loads. */
export function usePackages(filter: PackagesFilter, options: { enabled?: boolean } = {}) {
  return useQuery({
    ...packagesQueryOptions(filter),
    enabled: options.enabled ?? true,
    placeholderData: keepPreviousData,
  });
}
