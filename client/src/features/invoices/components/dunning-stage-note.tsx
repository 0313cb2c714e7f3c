import { DUNNING_STAGE_LABELS, type DunningStage } from '@shared/contracts/invoice-vocabulary';
import { cn } from '@/lib/utils';

/**
 * How far dunning has chased an overdue invoice ("First reminder sent"), in small muted text beside or under
 * its status badge; nothing for an invoice that is not overdue (its stage is null).
 */
export function DunningStageNote({ stage, className }: { stage: DunningStage | null; className?: string }) {
  if (!stage) return null;
  return (
    <span className={cn('text-xs leading-snug text-muted-foreground', className)} data-testid="invoice-dunning-stage">
      {DUNNING_STAGE_LABELS[stage]}
    </span>
  );
}
