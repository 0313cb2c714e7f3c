import { shortContractId } from '@shared/contracts/contract-vocabulary';
import { Dialog, DialogContent, DialogFormHeader } from '@/components/ui/dialog';
import { ErrorState, Skeleton } from '@/components/ui/feedback';
import { useContract } from '../api/get-contract';
import { ContractForm } from './contract-form';

/** The list's "Edit Contract": the shared form in a dialog, loaded with the contract's current values. */
export function ContractFormDialog({ contractId, onClose }: { contractId: string | null; onClose: () => void }) {
  return (
    <Dialog
      open={contractId !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
    >
      <DialogContent className="max-w-3xl bg-slate-50">
        <DialogFormHeader
          title={<>Edit Contract {contractId ? shortContractId(contractId) : ''}</>}
          description="Change the terms, package or line items. The totals update as you type."
        />
        {contractId && <EditBody id={contractId} onClose={onClose} />}
      </DialogContent>
    </Dialog>
  );
}

function EditBody({ id, onClose }: { id: string; onClose: () => void }) {
  const { data: contract, isLoading, error } = useContract(id);
  if (isLoading) return <Skeleton className="h-96 rounded-xl" />;
  if (error || !contract)
    return <ErrorState title="Error loading contract">Close the dialog and try again.</ErrorState>;
  return <ContractForm contract={contract} layout="dialog" onSuccess={onClose} onCancel={onClose} />;
}
