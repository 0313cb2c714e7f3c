import type { InvoiceTimeline } from '@shared/contracts/invoice-timeline';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invoicesQueryKey } from './get-invoices';

export const getInvoiceTimeline = (id: string) =>
  api<InvoiceTimeline>('GET', `/api/invoices/${encodeURIComponent(id)}/timeline`);

/** What happened to an invoice, oldest first; under the invoices key, so payments, voids and credits refresh it. */
export const invoiceTimelineQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...invoicesQueryKey, 'timeline', id],
    queryFn: () => getInvoiceTimeline(id),
    staleTime: 0,
  });

export function useInvoiceTimeline(id: string | null) {
  return useQuery({ ...invoiceTimelineQueryOptions(id ?? ''), enabled: Boolean(id) });
}
