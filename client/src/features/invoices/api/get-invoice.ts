import type { InvoiceAutopay } from '@shared/contracts/autopay';
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

/**
 * The invoice's autopay (GET /api/invoices/{id} `autopay`), read through this one accessor: until the Invoice
 * type of shared/contracts/invoices.ts declares `autopay`, the answer carries it but the type does not; once it
 * is declared this still compiles and reads the same.
 */
export const invoiceAutopayOf = (invoice: Invoice): InvoiceAutopay =>
  (invoice as { autopay?: InvoiceAutopay }).autopay ?? null;
