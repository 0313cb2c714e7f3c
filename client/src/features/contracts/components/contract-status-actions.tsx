import { availableActions, resendRefusal } from '@shared/contracts/contract-lifecycle';
import type { Contract } from '@shared/contracts/contract-responses';
import { Ban, Pause, Play, RotateCw, Send, Zap } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { lazyWhen } from '@/components/ui/lazy-when';
import { type StatusAction, useChangeContractStatus } from '../api/change-contract-status';
import { useResendContract } from '../api/resend-contract';
import { useSendContract } from '../api/send-contract';

const CancelContractDialog = lazyWhen(
  () => import('./cancel-contract-dialog').then((m) => m.CancelContractDialog),
  (props) => props.open,
);

const STATUS_BUTTONS: Record<StatusAction, { label: string; busy: string; icon: typeof Zap }> = {
  activate: { label: 'Activate', busy: 'Activating...', icon: Zap },
  pause: { label: 'Pause', busy: 'Pausing...', icon: Pause },
  resume: { label: 'Resume', busy: 'Resuming...', icon: Play },
};

/**
 * A sent contract whose newest insertion order was superseded (the contract changed) or declined: Send to Customer
 * sends the next version (product.md section 15).
 */
const needsNewVersion = (contract: Contract) =>
  contract.status === 'sent' &&
  (contract.insertionOrder?.status === 'superseded' || contract.insertionOrder?.status === 'declined');

/**
 * Send to Customer (drafts, and sent contracts whose insertion order needs a new version), Resend (sent) and the
 * status actions the contract's status allows.
 */
export function ContractStatusActions({ contract }: { contract: Contract }) {
  const actions = availableActions(contract.status);
  const send = useSendContract();
  const resend = useResendContract();
  const change = useChangeContractStatus();
  const [canceling, setCanceling] = useState(false);
  const busy = send.isPending || resend.isPending || change.isPending;

  if (actions.length === 0) return null;
  return (
    <section className="flex flex-wrap items-center gap-2" aria-label="Contract status actions">
      {((actions.includes('send') && contract.status === 'draft') || needsNewVersion(contract)) && (
        <Button size="sm" disabled={busy} onClick={() => send.mutate(contract.id)}>
          <Send aria-hidden /> {send.isPending ? 'Sending...' : 'Send to Customer'}
        </Button>
      )}
      {resendRefusal(contract.status) === null && (
        <Button size="sm" variant="outline" disabled={busy} onClick={() => resend.mutate(contract.id)}>
          <RotateCw aria-hidden /> {resend.isPending ? 'Sending...' : 'Resend'}
        </Button>
      )}
      {(['activate', 'pause', 'resume'] as const)
        .filter((action) => actions.includes(action))
        .map((action) => {
          const { label, busy: busyLabel, icon: Icon } = STATUS_BUTTONS[action];
          const pending = change.isPending && change.variables?.action === action;
          return (
            <Button
              key={action}
              size="sm"
              variant="outline"
              disabled={busy}
              onClick={() => change.mutate({ id: contract.id, action })}
            >
              <Icon aria-hidden /> {pending ? busyLabel : label}
            </Button>
          );
        })}
      {actions.includes('cancel') && (
        <>
          <Button
            size="sm"
            variant="outline"
            className="text-destructive hover:bg-red-50 hover:text-destructive"
            disabled={busy}
            onClick={() => setCanceling(true)}
          >
            <Ban aria-hidden /> Cancel
          </Button>
          <CancelContractDialog contractId={contract.id} open={canceling} onOpenChange={setCanceling} />
        </>
      )}
    </section>
  );
}
