import type { Customer } from '@shared/contracts/customers';
import type { Package } from '@shared/contracts/packages';
import type { Product } from '@shared/contracts/products';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage, withQuery } from '@/lib/api-client';

/** The most rows one request returns (the API's page limit); the catalog is far smaller. */
const OPTIONS_LIMIT = 500;

export type CustomerOption = Pick<Customer, 'id' | 'name' | 'email' | 'company'>;
export type ProductOption = Pick<
  Product,
  'id' | 'name' | 'defaultPrice' | 'seasonalPrice' | 'adType' | 'priceMetric' | 'defaultDuration' | 'isActive'
> &
  Partial<Pick<Product, 'inventoryRequired'>>;
export type PackageOption = Package;

/** The customers a contract can be for. Under the customers key, so customer changes refresh it. */
export const customerOptionsQueryOptions = queryOptions({
  queryKey: ['/api/customers', 'contract-options'],
  queryFn: async (): Promise<CustomerOption[]> =>
    (await apiPage<Customer>(withQuery('/api/customers', { limit: OPTIONS_LIMIT }))).rows,
});

/** The active products a line item can be, with their default and seasonal prices. */
export const productOptionsQueryOptions = queryOptions({
  queryKey: ['/api/products', 'contract-options', { active: true }],
  queryFn: async (): Promise<ProductOption[]> =>
    (await apiPage<Product>(withQuery('/api/products', { active: true, limit: OPTIONS_LIMIT }))).rows,
});

/** The packages a contract can use, with their items. */
export const packageOptionsQueryOptions = queryOptions({
  queryKey: ['/api/packages', 'contract-options'],
  queryFn: async (): Promise<PackageOption[]> =>
    (await apiPage<Package>(withQuery('/api/packages', { limit: OPTIONS_LIMIT }))).rows,
});

/** Everything the contract form chooses from: customers, products and packages. */
export function useContractOptions() {
  const customers = useQuery(customerOptionsQueryOptions);
  const products = useQuery(productOptionsQueryOptions);
  const packages = useQuery(packageOptionsQueryOptions);
  return {
    customers: customers.data ?? [],
    products: products.data ?? [],
    packages: packages.data ?? [],
    customersLoading: customers.isLoading,
    productsLoading: products.isLoading,
    packagesLoading: packages.isLoading,
    error: customers.error ?? products.error ?? packages.error,
  };
}
