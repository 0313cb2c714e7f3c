import { zodResolver } from '@hookform/resolvers/zod';
import { type InvoiceSummary, type VoidInvoiceInput, voidInvoiceSchema } from '@shared/contracts/invoices';
import { useForm } from 'react-hook-form';
import { Dialog, DialogContent, DialogFormButtons, DialogFormHeader } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Textarea } from '@/components/ui/input';
import { useVoidInvoice } from '../api/void-invoice';
import { formatMoney } from '../lib/format';

/** Voiding asks for a reason; money received on the invoice is refunded, and the dialog says so. */
export function VoidInvoiceDialog({ invoice, onClose }: { invoice: InvoiceSummary | null; onClose: () => void }) {
  return (
    <Dialog open={invoice !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>{invoice && <VoidForm invoice={invoice} onDone={onClose} />}</DialogContent>
    </Dialog>
  );
}

function VoidForm({ invoice, onDone }: { invoice: InvoiceSummary; onDone: () => void }) {
  const form = useForm<VoidInvoiceInput>({ resolver: zodResolver(voidInvoiceSchema), defaultValues: { reason: '' } });
  const voiding = useVoidInvoice();
  const refund = invoice.amountPaid > 0;
  const submit = form.handleSubmit((input) => voiding.mutate({ id: invoice.id, input }, { onSuccess: onDone }));
  return (
    <form noValidate onSubmit={submit} className="grid gap-4">
      <DialogFormHeader
        title={
          <>
            {refund ? 'Void and refund' : 'Void'} {invoice.number}?
          </>
        }
        description={
          refund
            ? `The ${formatMoney(invoice.amountPaid)} received on it is refunded to the customer, and commission earned on it is reversed. This cannot be undone.`
            : 'Nothing will be due on it any more and the customer is told by e-mail. This cannot be undone.'
        }
      />
      <FormField label="Reason" error={form.formState.errors.reason?.message}>
        <Textarea rows={3} placeholder="e.g. Billed in error" {...form.register('reason')} />
      </FormField>
      <DialogFormButtons
        label={refund ? 'Void and Refund' : 'Void Invoice'}
        busyLabel="Voiding..."
        busy={voiding.isPending}
        onCancel={onDone}
        cancelLabel="Keep Invoice"
        destructive
      />
    </form>
  );
}
