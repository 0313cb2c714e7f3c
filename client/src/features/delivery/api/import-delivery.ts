import type { DeliveryImportResult } from '@shared/contracts/delivery';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiText } from '@/lib/api-client';
import { refreshDeliveryData } from './refresh-delivery-data';

/** Sends a CSV file of delivery figures as it is (text/csv); the server applies all of its rows or none. */
export const importDelivery = (csv: string) =>
  apiText<DeliveryImportResult>('POST', '/api/delivery/import', csv, 'text/csv');

/** The dialog shows the outcome, the row errors included, so no toast here. */
export function useImportDelivery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importDelivery,
    onSuccess: () => refreshDeliveryData(queryClient),
  });
}
