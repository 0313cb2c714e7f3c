import { zodResolver } from '@hookform/resolvers/zod';
import { type CreditRefundInput, type CreditRefundRequest, creditRefundSchema } from '@shared/contracts/credit-notes';
import { centsToAmount, parseMoney } from '@shared/money';
import { useForm } from 'react-hook-form';
import { Dialog, DialogContent, DialogFormButtons, DialogFormHeader } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { showServerFieldErrors } from '@/lib/server-field-errors';
import { useRefundCredit } from '../api/refund-credit';
import { amountText, formatMoney } from '../lib/format';
import { ManualPaymentFields } from './manual-payment-fields';

export type RefundTarget = { customerId: string; customerName: string; balance: number };

/**
 * Finance pays a customer's credit balance back by check, wire, cash or another way. The amount starts at
 * the whole balance and may be less; the shared schema refuses more than the balance, as the server does.
 */
export function RefundCreditDialog({ target, onClose }: { target: RefundTarget | null; onClose: () => void }) {
  return (
    <Dialog open={target !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>{target && <RefundForm target={target} onDone={onClose} />}</DialogContent>
    </Dialog>
  );
}

export function RefundForm({ target, onDone }: { target: RefundTarget; onDone: () => void }) {
  const balanceCents = parseMoney(target.balance) ?? 0;
  const form = useForm<CreditRefundInput, unknown, CreditRefundRequest>({
    resolver: zodResolver(creditRefundSchema({ balanceCents })),
    defaultValues: { amount: amountText(target.balance), method: 'check', reference: '' },
  });
  const refund = useRefundCredit();
  const submit = form.handleSubmit((values) =>
    refund.mutate(
      {
        customerId: target.customerId,
        input: { amount: centsToAmount(values.amount), method: values.method, reference: values.reference },
      },
      { onSuccess: onDone, onError: (error) => showServerFieldErrors(form, error) },
    ),
  );
  const errors = form.formState.errors;
  return (
    <form noValidate onSubmit={submit} className="grid gap-4">
      <DialogFormHeader
        title="Refund credit"
        description={
          <>
            {target.customerName} has{' '}
            <span className="font-medium text-slate-900" data-testid="refund-credit-balance">
              {formatMoney(target.balance)}
            </span>{' '}
            of credit. Record what was paid back; the balance goes down by that much.
          </>
        }
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Amount ($)" hint={`At most ${formatMoney(target.balance)}`} error={errors.amount?.message}>
          <Input inputMode="decimal" autoComplete="off" {...form.register('amount')} />
        </FormField>
        <ManualPaymentFields form={form} methodId="refund-method" wideReference />
      </div>
      <DialogFormButtons label="Refund Credit" busyLabel="Refunding..." busy={refund.isPending} onCancel={onDone} />
    </form>
  );
}
