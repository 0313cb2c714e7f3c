import type { CreditNote } from '@shared/contracts/credit-notes';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage, withQuery } from '@/lib/api-client';

export const CLIENT_CREDIT_NOTES_PAGE_SIZE = 5;

/**
 * The client's credit notes, newest first, a page at a time (the server answers a client with its own only).
 * Under the credit-notes key, so issuing or voiding refreshes them.
 */
export const clientCreditNotesQueryOptions = (page: number) =>
  queryOptions({
    queryKey: ['/api/credit-notes', 'client', { page }],
    queryFn: () =>
      apiPage<CreditNote>(
        withQuery('/api/credit-notes', {
          limit: CLIENT_CREDIT_NOTES_PAGE_SIZE,
          offset: page * CLIENT_CREDIT_NOTES_PAGE_SIZE,
        }),
      ),
  });

export function useClientCreditNotes(page: number) {
  return useQuery({ ...clientCreditNotesQueryOptions(page), placeholderData: keepPreviousData });
}
