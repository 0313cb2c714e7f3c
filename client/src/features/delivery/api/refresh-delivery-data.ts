import type { QueryClient } from '@tanstack/react-query';
import { clientPerformanceKey } from './get-client-performance';

/**
 * After delivery is recorded, what it may have changed is refetched: the delivery itself (under the contracts
 * key, with the contracts), invoices (a makegood line, the proof of performance), credit notes and credit
 * balances (a credit for the shortfall), the client's figures and the reports.
 */
export function refreshDeliveryData(queryClient: QueryClient) {
  return Promise.all(
    [
      ['/api/contracts'],
      ['/api/invoices'],
      ['/api/credit-notes'],
      ['/api/customers', 'credit'],
      ['/api/client/invoices'],
      ['/api/client/summary'],
      clientPerformanceKey,
      ['/api/reports'],
      ['/api/dashboard/stats'],
    ].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
  );
}
