import type { DeliveryPeriod } from '@shared/contracts/delivery';
import { formatImpressions } from './delivery-text';

/** A period's booked impressions, with the makegood part under them when its invoice carries one. */
export function BookedImpressions({ period }: { period: Pick<DeliveryPeriod, 'booked' | 'makegood'> }) {
  return (
    <>
      {formatImpressions(period.booked)}
      {period.makegood > 0 && (
        <span className="block text-xs text-muted-foreground">incl. {formatImpressions(period.makegood)} makegood</span>
      )}
    </>
  );
}
