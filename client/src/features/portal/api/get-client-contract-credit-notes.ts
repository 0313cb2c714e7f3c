import type { CreditNote } from '@shared/contracts/credit-notes';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage, withQuery } from '@/lib/api-client';

/** The credit notes of one of the client's contracts (the server answers a client with its own only). */
export const clientContractCreditNotesQueryOptions = (contractId: string) =>
  queryOptions({
    queryKey: ['/api/credit-notes', 'client-contract', contractId],
    queryFn: () => apiPage<CreditNote>(withQuery('/api/credit-notes', { contractId, limit: 50 })),
  });

export function useClientContractCreditNotes(contractId: string) {
  return useQuery(clientContractCreditNotesQueryOptions(contractId));
}
