import type { Contact } from '@shared/contracts/contacts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage, withQuery } from '@/lib/api-client';
import { customersQueryKey } from './get-customers';

/** A customer's contacts (a few): one page of the API's largest, the primary first, then the billing contact. */
export const CONTACTS_LIMIT = 500;

/** The key of a customer's contacts; the contact mutations invalidate it (and a customer's, which starts it). */
export const customerContactsQueryKey = (customerId: string) => [...customersQueryKey, customerId, 'contacts'] as const;

export const customerContactsQueryOptions = (customerId: string) =>
  queryOptions({
    queryKey: customerContactsQueryKey(customerId),
    queryFn: () =>
      apiPage<Contact>(
        withQuery(`/api/customers/${encodeURIComponent(customerId)}/contacts`, { limit: CONTACTS_LIMIT }),
      ),
    staleTime: 0,
  });

export function useCustomerContacts(customerId: string, options: { enabled?: boolean } = {}) {
  return useQuery({ ...customerContactsQueryOptions(customerId), enabled: options.enabled ?? true });
}
