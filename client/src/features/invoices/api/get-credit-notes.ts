import type { CreditNote } from '@shared/contracts/credit-notes';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage, withQuery } from '@/lib/api-client';

/** The key every credit-note list starts with; issuing a credit note, a void or a refund invalidates it. */
export const creditNotesQueryKey = ['/api/credit-notes'] as const;

export type CreditNotesFilter = {
  q?: string;
  customerId?: string;
  invoiceId?: string;
  contractId?: string;
  page: number;
  pageSize: number;
};

/** One page of credit notes, newest first, searched and filtered on the server (and scoped to the caller). */
export const creditNotesQueryOptions = (filter: CreditNotesFilter) =>
  queryOptions({
    queryKey: [...creditNotesQueryKey, 'list', filter],
    queryFn: () =>
      apiPage<CreditNote>(
        withQuery('/api/credit-notes', {
          q: filter.q,
          customerId: filter.customerId,
          invoiceId: filter.invoiceId,
          contractId: filter.contractId,
          limit: filter.pageSize,
          offset: filter.page * filter.pageSize,
        }),
      ),
    staleTime: 0,
  });

/** The previous page stays on screen while the next one loads. */
export function useCreditNotes(filter: CreditNotesFilter, options: { enabled?: boolean } = {}) {
  return useQuery({
    ...creditNotesQueryOptions(filter),
    enabled: options.enabled ?? true,
    placeholderData: keepPreviousData,
  });
}
