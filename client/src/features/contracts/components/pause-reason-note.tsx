import type { ContractSummary } from '@shared/contracts/contract-responses';
import { PAUSED_FOR_NON_PAYMENT } from '@shared/contracts/contract-vocabulary';
import { cn } from '@/lib/utils';
import { pausedForNonPayment } from '../lib/pause-reason';

/** "Paused for non-payment", in small text beside or under the Paused badge; nothing for any other contract. */
export function PauseReasonNote({
  contract,
  className,
}: {
  contract: Pick<ContractSummary, 'status' | 'pauseReason'>;
  className?: string;
}) {
  if (!pausedForNonPayment(contract)) return null;
  return (
    <span className={cn('text-xs font-medium text-red-700', className)} data-testid="contract-pause-reason">
      {PAUSED_FOR_NON_PAYMENT}
    </span>
  );
}
