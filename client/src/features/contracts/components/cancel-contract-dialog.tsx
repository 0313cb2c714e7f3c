import { zodResolver } from '@hookform/resolvers/zod';
import { type CancelContractInput, cancelContractSchema } from '@shared/contracts/contract-api';
import { shortContractId } from '@shared/contracts/contract-vocabulary';
import { useForm } from 'react-hook-form';
import { Dialog, DialogContent, DialogFormButtons, DialogFormHeader } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Textarea } from '@/components/ui/input';
import { useCancelContract } from '../api/cancel-contract';

/** Canceling needs a reason; it is kept on the contract and in the audit trail. */
export function CancelContractDialog({
  contractId,
  open,
  onOpenChange,
}: {
  contractId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>{open && <CancelForm contractId={contractId} onDone={() => onOpenChange(false)} />}</DialogContent>
    </Dialog>
  );
}

function CancelForm({ contractId, onDone }: { contractId: string; onDone: () => void }) {
  const form = useForm<CancelContractInput>({
    resolver: zodResolver(cancelContractSchema),
    defaultValues: { reason: '' },
  });
  const cancel = useCancelContract();
  const submit = form.handleSubmit((input) => cancel.mutate({ id: contractId, input }, { onSuccess: onDone }));
  return (
    <form noValidate onSubmit={submit} className="grid gap-4">
      <DialogFormHeader
        title={<>Cancel contract {shortContractId(contractId)}?</>}
        description="Billing stops and no further invoices are issued. A canceled contract cannot be reopened."
      />
      <FormField label="Reason for canceling" error={form.formState.errors.reason?.message}>
        <Textarea rows={3} placeholder="e.g. The customer moved the budget elsewhere" {...form.register('reason')} />
      </FormField>
      <DialogFormButtons
        label="Cancel Contract"
        busyLabel="Canceling..."
        busy={cancel.isPending}
        onCancel={onDone}
        cancelLabel="Keep Contract"
        destructive
      />
    </form>
  );
}
