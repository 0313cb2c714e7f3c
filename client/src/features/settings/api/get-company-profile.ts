import type { CompanyProfile } from '@shared/contracts/company-vocabulary';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const companyProfileQueryKey = ['/api/settings/company'] as const;

export const companyProfileQueryOptions = queryOptions({
  queryKey: companyProfileQueryKey,
  queryFn: () => api<CompanyProfile>('GET', '/api/settings/company'),
});

/** Only the Company tab mounts this, for admins alone (product.md section 3: "company profile"). */
export function useCompanyProfile() {
  return useQuery(companyProfileQueryOptions);
}
