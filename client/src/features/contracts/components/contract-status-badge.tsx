import { contractStatusBadge } from '@shared/contracts/contract-vocabulary';
import { Badge } from '@/components/ui/badge';

/** The status in its colour: active green, sent yellow, draft grey, paused and canceled red, completed blue. */
export function ContractStatusBadge({ status, className }: { status: string; className?: string }) {
  const badge = contractStatusBadge(status);
  return (
    <Badge tone={badge.tone} className={className} data-status={status}>
      {badge.label}
    </Badge>
  );
}
