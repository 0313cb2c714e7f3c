import type { Product } from '@shared/contracts/products';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage, withQuery } from '@/lib/api-client';

/** The most products one request returns (the API's page limit); the catalog is far smaller. */
const PRODUCT_OPTIONS_LIMIT = 500;

export type ProductOption = Pick<Product, 'id' | 'name' | 'defaultPrice' | 'isActive'>;

/** The active products a deal's line can be. Under the products key, so product changes refresh it. */
export const productOptionsQueryOptions = queryOptions({
  queryKey: ['/api/products', 'deal-options', { active: true }],
  queryFn: async (): Promise<ProductOption[]> =>
    (await apiPage<Product>(withQuery('/api/products', { active: true, limit: PRODUCT_OPTIONS_LIMIT }))).rows,
});

export function useProductOptions(options: { enabled?: boolean } = {}) {
  return useQuery({ ...productOptionsQueryOptions, enabled: options.enabled ?? true });
}
