import type { InvoiceStatus, InvoiceSummary } from '@shared/contracts/invoices';
import type { QueryClient } from '@tanstack/react-query';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiPage, withQuery } from '@/lib/api-client';
import { creditNotesQueryKey } from './get-credit-notes';
import { customerCreditQueryKey } from './get-customer-credit';

/** The key every invoices query starts with (lists and single invoices); payments and voids invalidate it. */
export const invoicesQueryKey = ['/api/invoices'] as const;

/**
 * After a payment, a void, a credit note or a credit refund, what depends on invoices is refetched too:
 * invoice lists and details, credit notes and credit balances (with the customer, who shows the balance),
 * the contracts (their schedule marks issued periods), the client's invoices and figures, dashboard,
 * commission and receivables figures.
 */
export function refreshInvoiceData(queryClient: QueryClient) {
  return Promise.all(
    [
      invoicesQueryKey,
      creditNotesQueryKey,
      customerCreditQueryKey,
      ['/api/customers', 'detail'],
      ['/api/contracts'],
      ['/api/client/invoices'],
      ['/api/client/summary'],
      ['/api/dashboard/stats'],
      ['/api/commissions'],
      ['/api/receivables'],
    ].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
  );
}

export type InvoicesFilter = {
  q?: string;
  status?: InvoiceStatus | 'all';
  overdue?: boolean;
  customerId?: string;
  contractId?: string;
  /** YYYY-MM: periods starting in this month. */
  month?: string;
  page: number;
  pageSize: number;
};

/** The first and last day of a YYYY-MM month. */
export function monthRange(month: string): { periodFrom: string; periodTo: string } | null {
  const match = /^(\d{4})-(\d{2})$/.exec(month);
  if (!match) return null;
  const last = new Date(Date.UTC(Number(match[1]), Number(match[2]), 0)).getUTCDate();
  return { periodFrom: `${month}-01`, periodTo: `${month}-${String(last).padStart(2, '0')}` };
}

/** One page of invoices, searched (number or customer name) and filtered on the server. */
export const invoicesQueryOptions = (filter: InvoicesFilter) =>
  queryOptions({
    queryKey: [...invoicesQueryKey, 'list', filter],
    queryFn: () =>
      apiPage<InvoiceSummary>(
        withQuery('/api/invoices', {
          q: filter.q,
          status: filter.status,
          overdue: filter.overdue ? 'true' : undefined,
          customerId: filter.customerId,
          contractId: filter.contractId,
          ...(filter.month ? monthRange(filter.month) : {}),
          limit: filter.pageSize,
          offset: filter.page * filter.pageSize,
        }),
      ),
    staleTime: 0,
  });

/** The previous page stays on screen while the next one loads. */
export function useInvoices(filter: InvoicesFilter, options: { enabled?: boolean } = {}) {
  return useQuery({
    ...invoicesQueryOptions(filter),
    enabled: options.enabled ?? true,
    placeholderData: keepPreviousData,
  });
}
