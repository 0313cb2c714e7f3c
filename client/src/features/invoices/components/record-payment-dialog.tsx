import { zodResolver } from '@hookform/resolvers/zod';
import {
  type InvoiceSummary,
  type ManualPayment,
  type ManualPaymentInput,
  manualPaymentSchema,
} from '@shared/contracts/invoices';
import { centsToAmount, parseMoney } from '@shared/money';
import { useForm } from 'react-hook-form';
import { Dialog, DialogContent, DialogFormButtons, DialogFormHeader } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { useRecordPayment } from '../api/record-payment';
import { amountText, formatMoney, localToday, periodLabel } from '../lib/format';
import { ManualPaymentFields } from './manual-payment-fields';

/** The form holds the schema's input: the amount as typed, the reference and date as text. */
type FormValues = ManualPaymentInput;

/**
 * Record a check, wire, cash or other payment. The amount starts at what is due and may be less (a partial
 * payment); the shared schema refuses more than is due, as the server does.
 */
export function RecordPaymentDialog({ invoice, onClose }: { invoice: InvoiceSummary | null; onClose: () => void }) {
  return (
    <Dialog open={invoice !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>{invoice && <PaymentForm invoice={invoice} onDone={onClose} />}</DialogContent>
    </Dialog>
  );
}

function PaymentForm({ invoice, onDone }: { invoice: InvoiceSummary; onDone: () => void }) {
  const today = localToday();
  const dueCents = parseMoney(invoice.amountDue) ?? 0;
  const form = useForm<FormValues, unknown, ManualPayment>({
    resolver: zodResolver(manualPaymentSchema({ amountDueCents: dueCents, today })),
    defaultValues: { amount: amountText(invoice.amountDue), method: 'check', reference: '', paidAt: today },
  });
  const record = useRecordPayment();
  const submit = form.handleSubmit((values) =>
    record.mutate(
      {
        id: invoice.id,
        input: {
          amount: centsToAmount(values.amount),
          method: values.method,
          reference: values.reference,
          paidAt: values.paidAt,
        },
      },
      { onSuccess: onDone },
    ),
  );
  const errors = form.formState.errors;
  return (
    <form noValidate onSubmit={submit} className="grid gap-4">
      <DialogFormHeader
        title={<>Record payment for {invoice.number}</>}
        description={
          <>
            {invoice.customerName ?? 'Unknown customer'} · {periodLabel(invoice.periodStart, invoice.periodEnd)}.{' '}
            <span className="font-medium text-slate-900" data-testid="payment-amount-due">
              {formatMoney(invoice.amountDue)} due
            </span>
            {invoice.amountPaid > 0 && <> of {formatMoney(invoice.total)}</>}.
          </>
        }
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Amount ($)" error={errors.amount?.message}>
          <Input inputMode="decimal" autoComplete="off" {...form.register('amount')} />
        </FormField>
        <ManualPaymentFields form={form} methodId="payment-method" />
        <FormField label="Payment date" error={errors.paidAt?.message}>
          <Input type="date" max={today} {...form.register('paidAt')} />
        </FormField>
      </div>
      <DialogFormButtons label="Record Payment" busyLabel="Recording..." busy={record.isPending} onCancel={onDone} />
    </form>
  );
}
