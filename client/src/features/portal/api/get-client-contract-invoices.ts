import type { InvoiceSummary } from '@shared/contracts/invoices';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage, withQuery } from '@/lib/api-client';

export const CLIENT_CONTRACT_INVOICES_PAGE_SIZE = 10;

/**
 * A page of the invoices of one of the client's contracts, newest first (GET /api/invoices answers a client with
 * its own only). Under the invoices key, so a payment refreshes it.
 */
export const clientContractInvoicesQueryOptions = (contractId: string, page: number) =>
  queryOptions({
    queryKey: ['/api/invoices', 'client-contract', contractId, { page }],
    queryFn: () =>
      apiPage<InvoiceSummary>(
        withQuery('/api/invoices', {
          contractId,
          limit: CLIENT_CONTRACT_INVOICES_PAGE_SIZE,
          offset: page * CLIENT_CONTRACT_INVOICES_PAGE_SIZE,
        }),
      ),
  });

export function useClientContractInvoices(contractId: string, page: number) {
  return useQuery({ ...clientContractInvoicesQueryOptions(contractId, page), placeholderData: keepPreviousData });
}
