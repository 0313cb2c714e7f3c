import type { AdType, Product } from '@shared/contracts/products';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage, withQuery } from '@/lib/api-client';

/** The key every products query starts with; mutations invalidate it so every page and filter refreshes. */
export const productsQueryKey = ['/api/products'] as const;

export const PRODUCTS_PAGE_SIZE = 24;

export type ProductStatusFilter = 'all' | 'active' | 'archived';

export type ProductsFilter = { q: string; status: ProductStatusFilter; adType: AdType | 'all'; page: number };

const ACTIVE_PARAM: Record<ProductStatusFilter, 'true' | 'false' | undefined> = {
  all: undefined,
  active: 'true',
  archived: 'false',
};

/** One page of products, searched (name, description, ad type label) and filtered on the server. */
export const productsQueryOptions = ({ q, status, adType, page }: ProductsFilter) =>
  queryOptions({
    queryKey: [...productsQueryKey, 'list', { q, status, adType, page }],
    queryFn: () =>
      apiPage<Product>(
        withQuery('/api/products', {
          q,
          active: ACTIVE_PARAM[status],
          adType,
          limit: PRODUCTS_PAGE_SIZE,
          offset: page * PRODUCTS_PAGE_SIZE,
        }),
      ),
  });

/** The previous page stays on screen while the next one loads. */
export function useProducts(filter: ProductsFilter, options: { enabled?: boolean } = {}) {
  return useQuery({
    ...productsQueryOptions(filter),
    enabled: options.enabled ?? true,
    placeholderData: keepPreviousData,
  });
}
