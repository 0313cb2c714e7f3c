import type { DeliveryBody, DeliveryPeriod } from '@shared/contracts/delivery';
import { formatMonth } from '@shared/contracts/delivery-vocabulary';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { ApiError, api } from '@/lib/api-client';
import { deliveryOutcome } from '@/lib/delivery-text';
import { toastError } from '@/lib/toast-error';
import { refreshDeliveryData } from './refresh-delivery-data';

export type RecordDeliveryInput = { contractId: string; lineId: string; month: string; figures: DeliveryBody };

/** Records (or corrects) a CPM line's delivery for one billed period; an under-delivery is settled at once. */
export const recordDelivery = ({ contractId, lineId, month, figures }: RecordDeliveryInput) =>
  api<DeliveryPeriod>(
    'PUT',
    `/api/contracts/${encodeURIComponent(contractId)}/delivery/${encodeURIComponent(lineId)}/${encodeURIComponent(month)}`,
    figures,
  );

export function useRecordDelivery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: recordDelivery,
    onSuccess: (period) => {
      toast({
        title: 'Delivery recorded',
        description: `${period.productName}, ${formatMonth(period.month)}: ${deliveryOutcome(period)}`,
      });
      return refreshDeliveryData(queryClient);
    },
    onError: (error) => {
      toastError('Failed to record the delivery', error);
      // Settled meanwhile (409): the screen shows the period as it now stands.
      if (error instanceof ApiError && error.status === 409) void refreshDeliveryData(queryClient);
    },
  });
}
