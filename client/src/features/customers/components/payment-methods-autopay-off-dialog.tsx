import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useTurnAutopayOff } from '../api/customer-payment-methods';

/**
 * The confirmation before staff turn a customer's autopay off (PUT /api/customers/{id}/autopay with
 * `{ enabled: false }`). Its methods stay on file; only the customer can turn autopay on again.
 */
export function AutopayOffDialog({
  open,
  onOpenChange,
  customerId,
  customerName,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  customerId: string;
  customerName: string;
}) {
  const turnOff = useTurnAutopayOff(customerId);
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Turn autopay off?"
      description={`${customerName}'s invoices will no longer be charged automatically. The payment methods stay on file; only the customer can turn autopay on again.`}
      confirmLabel={turnOff.isPending ? 'Turning off...' : 'Turn autopay off'}
      busy={turnOff.isPending}
      onConfirm={() => turnOff.mutate(undefined, { onSuccess: () => onOpenChange(false) })}
    />
  );
}
