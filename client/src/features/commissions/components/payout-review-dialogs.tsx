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
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
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
      <DialogHeader>
        <DialogTitle>Approve payout?</DialogTitle>
        <DialogDescription>
          {rep(payout)} requested {formatMoney(payout.requestedAmount)} on {formatDate(payout.requestedAt)}. You may
          approve less; the rest returns to their available commission.
        </DialogDescription>
      </DialogHeader>
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
      <DialogFooter>
        <Button variant="outline" onClick={onDone} disabled={approve.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={approve.isPending}>
          {approve.isPending ? 'Approving...' : 'Approve Payout'}
        </Button>
      </DialogFooter>
    </form>
  );
}

function RejectForm({ payout, onDone }: { payout: Payout; onDone: () => void }) {
  const form = useForm<RejectPayoutInput>({ resolver: zodResolver(rejectPayoutSchema), defaultValues: { reason: '' } });
  const reject = useRejectPayout();
  const submit = form.handleSubmit((input) => reject.mutate({ id: payout.id, input }, { onSuccess: onDone }));
  return (
    <form noValidate onSubmit={submit} className="grid gap-4">
      <DialogHeader>
        <DialogTitle>Reject payout?</DialogTitle>
        <DialogDescription>
          {formatMoney(payout.requestedAmount)} returns to {rep(payout)}'s available commission. The reason is sent to
          them.
        </DialogDescription>
      </DialogHeader>
      <FormField label="Reason" error={form.formState.errors.reason?.message}>
        <Textarea rows={3} placeholder="e.g. The invoice is under dispute" {...form.register('reason')} />
      </FormField>
      <DialogFooter>
        <Button variant="outline" onClick={onDone} disabled={reject.isPending}>
          Cancel
        </Button>
        <Button type="submit" variant="destructive" disabled={reject.isPending}>
          {reject.isPending ? 'Rejecting...' : 'Reject Payout'}
        </Button>
      </DialogFooter>
    </form>
  );
}

function DisburseConfirm({ payout, onDone }: { payout: Payout; onDone: () => void }) {
  const disburse = useDisbursePayout();
  return (
    <div className="grid gap-4">
      <DialogHeader>
        <DialogTitle>Mark payout disbursed?</DialogTitle>
        <DialogDescription>
          Confirm that {formatMoney(payout.approvedAmount)} has been paid to {rep(payout)}. This cannot be undone.
        </DialogDescription>
      </DialogHeader>
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
