import type { ContractSummary } from '@shared/contracts/contract-responses';
import { shortContractId } from '@shared/contracts/contract-vocabulary';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useDeleteContract } from '../api/delete-contract';

/** Asks before deleting; closes on success and runs onDeleted (e.g. leave the detail page). */
export function DeleteContractDialog({
  contract,
  onClose,
  onDeleted,
}: {
  contract: Pick<ContractSummary, 'id' | 'description' | 'customerName'> | null;
  onClose: () => void;
  onDeleted?: () => void;
}) {
  const remove = useDeleteContract();
  return (
    <ConfirmDialog
      open={contract !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title="Delete this contract?"
      description={
        contract && (
          <>
            Contract <span className="font-mono font-medium text-slate-900">{shortContractId(contract.id)}</span>
            {contract.customerName ? ` for ${contract.customerName}` : ''}
            {contract.description ? ` ("${contract.description}")` : ''} will be removed for good. This cannot be
            undone.
          </>
        )
      }
      confirmLabel={remove.isPending ? 'Deleting...' : 'Delete Contract'}
      busy={remove.isPending}
      onConfirm={() => {
        if (!contract) return;
        remove.mutate(contract.id, {
          onSuccess: () => {
            onClose();
            onDeleted?.();
          },
          onError: onClose,
        });
      }}
    />
  );
}
