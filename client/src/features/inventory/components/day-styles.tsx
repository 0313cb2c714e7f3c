import type { AvailabilityDay, InventoryMonth } from '@shared/contracts/inventory-vocabulary';
import { formatMoney } from '@/lib/format';
import { cn } from '@/lib/utils';
import type { SellThrough } from '../lib/calendar';

/** A day's tint by how much of it is taken (the legend names each). */
export const SELL_THROUGH_CLASSES: Record<SellThrough, string> = {
  free: 'border-emerald-200 bg-emerald-50 text-emerald-950 hover:bg-emerald-100',
  partly: 'border-amber-300 bg-amber-50 text-amber-950 hover:bg-amber-100',
  sold_out: 'border-red-300 bg-red-100 text-red-950 hover:bg-red-200',
};

export const SELL_THROUGH_LABELS: Record<SellThrough, string> = {
  free: 'Available',
  partly: 'Partly sold',
  sold_out: 'Sold out',
};

/**
 * A day that has units held for the renewal of a contract due for renewal (right of first refusal): a dashed
 * fuchsia border over its sell-through tint (the legend names it).
 */
export const RENEWAL_DAY_CLASS = 'border-dashed border-fuchsia-500';

/** The figures of a day, each with its letter and colour (the legend spells them out). */
const FIGURES = [
  { key: 'booked', letter: 'B', name: 'Booked', bar: 'bg-slate-800', text: 'text-slate-900', optional: false },
  {
    key: 'held',
    letter: 'H',
    name: 'Held (sent, not yet booked)',
    bar: 'bg-indigo-500',
    text: 'text-indigo-800',
    optional: false,
  },
  {
    key: 'heldForRenewal',
    letter: 'R',
    name: 'Held for renewal',
    bar: 'bg-fuchsia-500',
    text: 'text-fuchsia-800',
    optional: true,
  },
  { key: 'available', letter: 'F', name: 'Free', bar: 'bg-white', text: 'text-emerald-800', optional: false },
] as const;

/**
 * The figures a day shows: held for renewal only when there are some, and then held only when there are some
 * too, so a phone's narrow day keeps three figures where it can (the day's name says all four).
 */
function shownFigures(day: AvailabilityDay) {
  return FIGURES.filter((figure) => {
    if (figure.optional) return day[figure.key] > 0;
    return figure.key !== 'held' || day.held > 0 || day.heldForRenewal === 0;
  });
}

/**
 * A day's booked, held, held-for-renewal and free units, apart: a bar in segments (in proportion to the
 * capacity) and the figures with their letters. Hidden from screen readers: the day's button says the same
 * in words (dayLabel).
 */
export function DayFigures({ day, stacked = false }: { day: AvailabilityDay; stacked?: boolean }) {
  const total = Math.max(day.capacity, day.booked + day.held + day.heldForRenewal, 1);
  const shown = shownFigures(day);
  return (
    <span aria-hidden className="flex w-full min-w-0 flex-col gap-0.5">
      <span className="flex h-1.5 w-full overflow-hidden rounded-full border border-black/10 bg-white">
        {FIGURES.map((figure) => {
          const units = day[figure.key];
          return units > 0 ? (
            <span key={figure.key} className={figure.bar} style={{ width: `${(units / total) * 100}%` }} />
          ) : null;
        })}
      </span>
      <span
        className={cn(
          'flex min-w-0 font-mono text-[9px] leading-tight tabular-nums sm:text-[10px]',
          stacked ? 'flex-col items-start' : 'justify-between gap-px',
          shown.length > 3 && 'tracking-tighter',
        )}
      >
        {shown.map((figure) => (
          <span key={figure.key} data-figure={figure.key} className={cn('whitespace-nowrap', figure.text)}>
            <span className="font-semibold">{day[figure.key]}</span>
            {figure.letter}
          </span>
        ))}
      </span>
    </span>
  );
}

/** "28.0% sold · $2,193.55 booked": a month of a product, over its days in the range. */
export function MonthSummary({ month, className }: { month: InventoryMonth; className?: string }) {
  return (
    <dl
      data-testid="inventory-month-summary"
      data-month={month.month}
      className={cn('flex flex-wrap gap-x-3 gap-y-0.5 text-xs text-muted-foreground', className)}
    >
      <div className="flex gap-1">
        <dt>Sell-through</dt>
        <dd className="font-semibold tabular-nums text-slate-900" data-testid="month-sell-through">
          {month.sellThrough.toFixed(1)}%
        </dd>
      </div>
      <div className="flex gap-1">
        <dt>Booked value</dt>
        <dd className="font-semibold tabular-nums text-slate-900" data-testid="month-booked-value">
          {formatMoney(month.bookedValue)}
        </dd>
      </div>
      <div className="flex gap-1">
        <dt className="sr-only">Slot-days</dt>
        <dd className="tabular-nums">
          {month.bookedUnits} of {month.capacityUnits} slot-days booked
          {month.heldUnits > 0 ? `, ${month.heldUnits} held` : ''}
        </dd>
      </div>
    </dl>
  );
}

/** What the colours, the bar and the letters mean. */
export function InventoryLegend() {
  return (
    <ul aria-label="Legend" className="flex flex-wrap items-center gap-x-4 gap-y-2 text-xs text-muted-foreground">
      {(Object.keys(SELL_THROUGH_LABELS) as SellThrough[]).map((bucket) => (
        <li key={bucket} className="flex items-center gap-1.5">
          <span aria-hidden className={cn('size-3.5 rounded border', SELL_THROUGH_CLASSES[bucket])} />
          {SELL_THROUGH_LABELS[bucket]}
        </li>
      ))}
      <li className="flex items-center gap-1.5">
        <span aria-hidden className={cn('size-3.5 rounded border bg-white', RENEWAL_DAY_CLASS)} />
        Held for renewal
      </li>
      {FIGURES.map((figure) => (
        <li key={figure.key} className="flex items-center gap-1.5">
          <span aria-hidden className={cn('h-2 w-3.5 rounded-sm border border-black/10', figure.bar)} />
          <span>
            <span className={cn('font-mono font-semibold', figure.text)}>{figure.letter}</span> {figure.name}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** The mark of units held for a renewal (right of first refusal), beside the words. */
export function RenewalMark({ className }: { className?: string }) {
  return <span aria-hidden className={cn('inline-block size-1.5 rounded-full bg-fuchsia-500', className)} />;
}

/** The mark of units held by a sent contract (not yet booked), beside the word. */
export function HeldMark({ className }: { className?: string }) {
  return <span aria-hidden className={cn('inline-block size-1.5 rounded-full bg-indigo-500', className)} />;
}
