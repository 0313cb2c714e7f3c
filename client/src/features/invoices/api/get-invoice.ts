import type { Invoice } from '@shared/contracts/invoices';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invoicesQueryKey } from './get-invoices';

export const getInvoice = (id: string) => api<Invoice>('GET', `/api/invoices/${encodeURIComponent(id)}`);

/** One invoice with its lines, payments and credit notes. */
export const invoiceQueryOptions = (id: string) =>
  queryOptions({ queryKey: [...invoicesQueryKey, 'detail', id], queryFn: () => getInvoice(id), staleTime: 0 });

export function useInvoice(id: string | null) {
  return useQuery({ ...invoiceQueryOptions(id ?? ''), enabled: Boolean(id) });
}
