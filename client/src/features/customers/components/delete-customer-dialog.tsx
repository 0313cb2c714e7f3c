import type { Customer } from '@shared/contracts/customers';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useDeleteCustomer } from '../api/delete-customer';

/** Asks before deleting; closes when the call ends (a refusal explains itself in a toast). */
export function DeleteCustomerDialog({ customer, onClose }: { customer: Customer | null; onClose: () => void }) {
  const remove = useDeleteCustomer();
  return (
    <ConfirmDialog
      open={customer !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title="Delete customer?"
      description={
        customer ? (
          <>
            <strong className="font-medium text-slate-900">{customer.name}</strong> ({customer.email}) will be removed.
            A customer with contracts cannot be deleted. This cannot be undone.
          </>
        ) : null
      }
      confirmLabel={remove.isPending ? 'Deleting...' : 'Delete'}
      busy={remove.isPending}
      onConfirm={() => {
        if (customer) remove.mutate(customer, { onSettled: onClose });
      }}
    />
  );
}
