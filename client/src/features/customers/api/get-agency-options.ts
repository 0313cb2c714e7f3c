import { MAX_PAGE_SIZE } from '@shared/contracts/common';
import type { Customer, CustomerListQuery } from '@shared/contracts/customers';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage, withQuery } from '@/lib/api-client';
import { customersQueryKey } from './get-customers';

export type AgencyOption = Pick<Customer, 'id' | 'name' | 'agencyCommissionPercent'>;

/** The list API's `kind` filter (customerListQuerySchema): the agencies, by name, for the agency picker. */
const query: Partial<CustomerListQuery> = { kind: 'agency', limit: MAX_PAGE_SIZE };

export const agencyOptionsQueryOptions = () =>
  queryOptions({
    queryKey: [...customersQueryKey, 'agency-options'],
    queryFn: async (): Promise<AgencyOption[]> =>
      (await apiPage<Customer>(withQuery('/api/customers', query))).rows.map(
        ({ id, name, agencyCommissionPercent }) => ({ id, name, agencyCommissionPercent }),
      ),
    staleTime: 30_000,
  });

export function useAgencyOptions() {
  return useQuery(agencyOptionsQueryOptions());
}
