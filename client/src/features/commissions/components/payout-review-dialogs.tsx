import { zodResolver } from '@hookform/resolvers/zod';
import {
  type ApprovePayoutFormValues,
  approvePayoutFormSchema,
  type Payout,
  type RejectPayoutInput,
  rejectPayoutSchema,
} from '@shared/contracts/commissions';
import { centsToAmount, centsToPlain, formatCents, parseMoney } from '@shared/money';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogFooter, DialogFormButtons, DialogFormHeader } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input, Textarea } from '@/components/ui/input';
import { useApprovePayout } from '../api/approve-payout';
import { useDisbursePayout } from '../api/disburse-payout';
import { useRejectPayout } from '../api/reject-payout';
import { formatDate, formatMoney } from './format';

export type ReviewAction = { kind: 'approve' | 'reject' | 'disburse'; payout: Payout };

/** The confirmation dialog of each review action; nothing changes until its button is pressed. */
export function PayoutReviewDialog({ action, onClose }: { action: ReviewAction | null; onClose: () => void }) {
  return (
    <Dialog open={action !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        {action?.kind === 'approve' && <ApproveForm payout={action.payout} onDone={onClose} />}
        {action?.kind === 'reject' && <RejectForm payout={action.payout} onDone={onClose} />}
        {action?.kind === 'disburse' && <DisburseConfirm payout={action.payout} onDone={onClose} />}
      </DialogContent>
    </Dialog>
  );
}

const rep = (payout: Payout) => payout.repName ?? 'this rep';

function ApproveForm({ payout, onDone }: { payout: Payout; onDone: () => void }) {
  const requestedCents = parseMoney(payout.requestedAmount) ?? 0;
  const form = useForm<ApprovePayoutFormValues, unknown, { approvedAmount: number }>({
    resolver: zodResolver(approvePayoutFormSchema(requestedCents)),
    mode: 'onChange',
    defaultValues: { approvedAmount: centsToPlain(requestedCents) },
  });
  const approve = useApprovePayout();
  const typedCents = parseMoney((form.watch('approvedAmount') ?? '').trim());
  const rest = typedCents !== null && typedCents > 0 && typedCents < requestedCents ? requestedCents - typedCents : 0;
  const submit = form.handleSubmit((values) =>
    approve.mutate({ id: payout.id, input: { approvedAmount: values.approvedAmount } }, { onSuccess: onDone }),
  );
  return (
    <form noValidate onSubmit={submit} className="grid gap-4">
      <DialogFormHeader
        title="Approve payout?"
        description={
          <>
            {rep(payout)} requested {formatMoney(payout.requestedAmount)} on {formatDate(payout.requestedAt)}. You may
            approve less; the rest returns to their available commission.
          </>
        }
      />
      <FormField
        label="Approved amount ($)"
        error={form.formState.errors.approvedAmount?.message}
        hint={rest > 0 ? `${formatCents(rest)} returns to available` : `At most ${formatMoney(payout.requestedAmount)}`}
      >
        <Input
          type="number"
          inputMode="decimal"
          step="0.01"
          min="0.01"
          max={centsToAmount(requestedCents)}
          autoComplete="off"
          {...form.register('approvedAmount')}
        />
      </FormField>
      <DialogFormButtons label="Approve Payout" busyLabel="Approving..." busy={approve.isPending} onCancel={onDone} />
    </form>
  );
}

function RejectForm({ payout, onDone }: { payout: Payout; onDone: () => void }) {
  const form = useForm<RejectPayoutInput>({ resolver: zodResolver(rejectPayoutSchema), defaultValues: { reason: '' } });
  const reject = useRejectPayout();
  const submit = form.handleSubmit((input) => reject.mutate({ id: payout.id, input }, { onSuccess: onDone }));
  return (
    <form noValidate onSubmit={submit} className="grid gap-4">
      <DialogFormHeader
        title="Reject payout?"
        description={
          <>
            {formatMoney(payout.requestedAmount)} returns to {rep(payout)}'s available commission. The reason is sent to
            them.
          </>
        }
      />
      <FormField label="Reason" error={form.formState.errors.reason?.message}>
        <Textarea rows={3} placeholder="e.g. The invoice is under dispute" {...form.register('reason')} />
      </FormField>
      <DialogFormButtons
        label="Reject Payout"
        busyLabel="Rejecting..."
        busy={reject.isPending}
        onCancel={onDone}
        destructive
      />
    </form>
  );
}

function DisburseConfirm({ payout, onDone }: { payout: Payout; onDone: () => void }) {
  const disburse = useDisbursePayout();
  return (
    <div className="grid gap-4">
      <DialogFormHeader
        title="Mark payout disbursed?"
        description={
          <>
            Confirm that {formatMoney(payout.approvedAmount)} has been paid to {rep(payout)}. This cannot be undone.
          </>
        }
      />
      <DialogFooter>
        <Button variant="outline" onClick={onDone} disabled={disburse.isPending}>
          Cancel
        </Button>
        <Button disabled={disburse.isPending} onClick={() => disburse.mutate({ id: payout.id }, { onSuccess: onDone })}>
          {disburse.isPending ? 'Saving...' : 'Mark Disbursed'}
        </Button>
      </DialogFooter>
    </div>
  );
}
