import { DUNNING_STAGE_LABELS, type DunningStage } from '@shared/contracts/invoice-vocabulary';
import { Badge } from '@/components/ui/badge';

const TONES: Record<DunningStage, 'grey' | 'yellow' | 'red'> = {
  overdue: 'grey',
  first_reminder: 'yellow',
  second_reminder: 'yellow',
  contract_paused: 'red',
};

/** How far dunning has chased a customer (its furthest step among overdue invoices); a dash when nothing is overdue. */
export function DunningStageBadge({ stage }: { stage: DunningStage | null }) {
  if (!stage) return <span className="text-muted-foreground">—</span>;
  return (
    <Badge tone={TONES[stage]} className="whitespace-nowrap" data-testid="dunning-stage">
      {DUNNING_STAGE_LABELS[stage]}
    </Badge>
  );
}
