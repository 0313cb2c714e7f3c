import { scaledSeasonalPrice } from '@shared/contracts/seasonal-price';
import { type Cents, centsToPlain, lineTotalCents } from '@shared/money';
import { CircleAlert } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { formatCentsMoney } from '../lib/format';

export type SeasonalPriceNoticeProps = {
  /** The line's number (1-based), for the names of the buttons. */
  line: number;
  quantity: number;
  discountCents: Cents;
  unitPriceCents: Cents;
  /** The unit price the in-season price went with (the product's, or the one the rep last settled on). */
  previousUnitPriceCents: Cents;
  seasonalPriceCents: Cents;
  /** Sets the in-season field ('' clears it) and records the rep's choice. */
  onChoose: (seasonalPrice: string | null) => void;
  /** A flat line bills once; the others every month. */
  once: boolean;
};

/**
 * Shown beside a line's In-Season Price when its unit price was changed and the in-season price was not:
 * what the season will bill for the line (quantity x in-season price - discount), and the three choices:
 * keep the in-season price, clear it (the season bills the regular price), or scale it with the price. It
 * stays until the rep chooses (docs/decisions/034-in-season-price-notice.md).
 */
export default function SeasonalPriceNotice(props: SeasonalPriceNoticeProps) {
  const { quantity, discountCents, unitPriceCents, seasonalPriceCents, once } = props;
  const per = once ? '' : ' a month';
  const seasonCents = lineTotalCents({ quantity, unitPriceCents: seasonalPriceCents, discountCents });
  const regularCents = lineTotalCents({ quantity, unitPriceCents, discountCents });
  const scaled = scaledSeasonalPrice(seasonalPriceCents, props.previousUnitPriceCents, unitPriceCents);
  const id = `line-${props.line}-season-notice`;
  return (
    <section
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      data-testid="seasonal-price-notice"
      className="col-span-2 grid gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
    >
      <p id={`${id}-title`} className="flex items-center gap-1.5 font-medium">
        <CircleAlert className="size-4 shrink-0" aria-hidden /> The in-season price was not changed
      </p>
      <p id={`${id}-text`} data-testid="seasonal-price-figure">
        October to December this line bills <strong>{formatCentsMoney(seasonCents)}</strong>
        {per} at {formatCentsMoney(seasonalPriceCents)}, against {formatCentsMoney(regularCents)}
        {per} at the new price of {formatCentsMoney(unitPriceCents)}.
      </p>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" variant="outline" onClick={() => props.onChoose(null)}>
          Keep {formatCentsMoney(seasonalPriceCents)}
        </Button>
        <Button size="sm" variant="outline" onClick={() => props.onChoose('')}>
          Clear (bill {formatCentsMoney(unitPriceCents)})
        </Button>
        {scaled !== null && (
          <Button size="sm" variant="outline" onClick={() => props.onChoose(centsToPlain(scaled))}>
            Scale to {formatCentsMoney(scaled)}
          </Button>
        )}
      </div>
    </section>
  );
}
