import { zodResolver } from '@hookform/resolvers/zod';
import { type CreditNoteInput, type CreditNoteRequest, creditNoteSchema } from '@shared/contracts/credit-notes';
import type { InvoiceSummary } from '@shared/contracts/invoices';
import { centsToAmount, parseMoney } from '@shared/money';
import { useForm } from 'react-hook-form';
import { Dialog, DialogContent, DialogFormButtons, DialogFormHeader } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input, Textarea } from '@/components/ui/input';
import { showServerFieldErrors } from '@/lib/server-field-errors';
import { useIssueCreditNote } from '../api/issue-credit-note';
import { formatMoney, periodLabel } from '../lib/format';

/** The invoice and what remains to credit on it (its total less what its credit notes already credited). */
export type CreditableInvoice = Pick<
  InvoiceSummary,
  'id' | 'number' | 'customerName' | 'periodStart' | 'periodEnd' | 'amountDue' | 'creditable'
>;

/**
 * A partial credit note with a reason. The amount may be at most what remains to credit; the part beyond
 * what is due becomes the customer's credit balance. The shared schema checks both, as the server does.
 */
export function IssueCreditNoteDialog({
  invoice,
  onClose,
}: {
  invoice: CreditableInvoice | null;
  onClose: () => void;
}) {
  return (
    <Dialog open={invoice !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>{invoice && <CreditNoteForm invoice={invoice} onDone={onClose} />}</DialogContent>
    </Dialog>
  );
}

export function CreditNoteForm({ invoice, onDone }: { invoice: CreditableInvoice; onDone: () => void }) {
  const creditableCents = parseMoney(invoice.creditable) ?? 0;
  const form = useForm<CreditNoteInput, unknown, CreditNoteRequest>({
    resolver: zodResolver(creditNoteSchema({ creditableCents })),
    defaultValues: { amount: '', reason: '' },
  });
  const issue = useIssueCreditNote();
  const submit = form.handleSubmit((values) =>
    issue.mutate(
      { invoiceId: invoice.id, input: { amount: centsToAmount(values.amount), reason: values.reason } },
      { onSuccess: onDone, onError: (error) => showServerFieldErrors(form, error) },
    ),
  );
  const errors = form.formState.errors;
  return (
    <form noValidate onSubmit={submit} className="grid gap-4">
      <DialogFormHeader
        title={<>Issue a credit note on {invoice.number}</>}
        description={
          <>
            {invoice.customerName ?? 'Unknown customer'} · {periodLabel(invoice.periodStart, invoice.periodEnd)}.{' '}
            <span className="font-medium text-slate-900">{formatMoney(invoice.amountDue)} due</span>. Credit beyond what
            is due goes to the customer's credit balance.
          </>
        }
      />
      <FormField label="Amount ($)" hint={`At most ${formatMoney(invoice.creditable)}`} error={errors.amount?.message}>
        <Input inputMode="decimal" autoComplete="off" placeholder="0.00" {...form.register('amount')} />
      </FormField>
      <FormField label="Reason" error={errors.reason?.message}>
        <Textarea rows={3} placeholder="e.g. Banner ran two days late" {...form.register('reason')} />
      </FormField>
      <DialogFormButtons label="Issue Credit Note" busyLabel="Issuing..." busy={issue.isPending} onCancel={onDone} />
    </form>
  );
}
