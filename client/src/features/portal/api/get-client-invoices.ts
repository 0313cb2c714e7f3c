import type { InvoiceSummary } from '@shared/contracts/invoices';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage } from '@/lib/api-client';

/** The client's newest invoices (first 5, as ui-spec's lists show). */
export const recentClientInvoicesQueryOptions = queryOptions({
  queryKey: ['/api/client/invoices', { limit: 5 }],
  queryFn: () => apiPage<InvoiceSummary>('/api/client/invoices?limit=5'),
});

export function useRecentClientInvoices() {
  return useQuery(recentClientInvoicesQueryOptions);
}
