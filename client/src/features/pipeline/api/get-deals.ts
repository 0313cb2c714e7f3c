import type { Deal } from '@shared/contracts/deals';
import {
  type InfiniteData,
  infiniteQueryOptions,
  keepPreviousData,
  queryOptions,
  useInfiniteQuery,
  useQuery,
} from '@tanstack/react-query';
import { apiPage, withQuery } from '@/lib/api-client';
import { filterParams, type PipelineFilters } from '../lib/filters';
import { dealsQueryKey } from './keys';

/** One page of deals as the API answers it: the rows and the total from X-Total-Count. */
export type DealsPage = { rows: Deal[]; total: number; totalIsLowerBound: boolean };
export type StageDeals = InfiniteData<DealsPage, number>;

/** A board column's cards come 50 at a time, the most recently changed first ("Show more" adds the next 50). */
export const BOARD_PAGE_SIZE = 50;
export const BOARD_SORT = '-updatedAt';

/** The key of a board column's cards; the optimistic move (move-deal.ts) finds the columns by it. */
export const stageDealsQueryKey = (stageId: string, filters: PipelineFilters) =>
  [...dealsQueryKey, 'board', stageId, filters] as const;

export const stageDealsQueryOptions = (stageId: string, filters: PipelineFilters) =>
  infiniteQueryOptions({
    queryKey: stageDealsQueryKey(stageId, filters),
    queryFn: ({ pageParam }) =>
      apiPage<Deal>(
        withQuery('/api/deals', {
          stage: stageId,
          ...filterParams(filters),
          limit: BOARD_PAGE_SIZE,
          offset: pageParam,
          sort: BOARD_SORT,
        }),
      ),
    initialPageParam: 0,
    getNextPageParam: (last: DealsPage, pages: DealsPage[]) => {
      const loaded = pages.reduce((sum, page) => sum + page.rows.length, 0);
      return loaded < last.total && last.rows.length > 0 ? loaded : undefined;
    },
    staleTime: 0,
  });

/** A board column's cards: the first 50, and the next ones on "Show more". */
export function useStageDeals(stageId: string, filters: PipelineFilters) {
  return useInfiniteQuery({ ...stageDealsQueryOptions(stageId, filters), placeholderData: keepPreviousData });
}

export const DEALS_PAGE_SIZE = 20;

export type DealsListFilter = { filters: PipelineFilters; sort: string; page: number };

/** One page of the list view, sorted by the server (`sort`: a key, or -key for descending). */
export const dealsListQueryOptions = ({ filters, sort, page }: DealsListFilter) =>
  queryOptions({
    queryKey: [...dealsQueryKey, 'list', { filters, sort, page }],
    queryFn: () =>
      apiPage<Deal>(
        withQuery('/api/deals', {
          ...filterParams(filters),
          sort,
          limit: DEALS_PAGE_SIZE,
          offset: page * DEALS_PAGE_SIZE,
        }),
      ),
    staleTime: 0,
  });

/** The previous page stays on screen while the next one loads. */
export function useDeals(filter: DealsListFilter) {
  return useQuery({ ...dealsListQueryOptions(filter), placeholderData: keepPreviousData });
}
