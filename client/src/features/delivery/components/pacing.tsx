import type { DeliveryPeriod } from '@shared/contracts/delivery';
import { PACING_ALERT_PERCENT, pacingText } from '@shared/contracts/delivery-vocabulary';
import { Badge } from '@/components/ui/badge';
import { pacingIsLow } from '@/lib/delivery-text';

/** Delivered as a share of booked; below the alert level it shows as a red badge that says so. */
export function Pacing({ period }: { period: Pick<DeliveryPeriod, 'booked' | 'delivered'> }) {
  const text = pacingText(period.booked, period.delivered);
  if (!pacingIsLow(period)) return <span className="tabular-nums">{text}</span>;
  return (
    <Badge tone="red" className="tabular-nums" title={`Below ${PACING_ALERT_PERCENT}% of booked`}>
      {text}
      <span className="sr-only"> (below {PACING_ALERT_PERCENT}% of booked)</span>
    </Badge>
  );
}
