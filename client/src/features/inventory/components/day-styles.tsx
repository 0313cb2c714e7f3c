import { cn } from '@/lib/utils';
import type { SellThrough } from '../lib/calendar';

/** A day's tint by how much of it is taken (the legend names each). */
export const SELL_THROUGH_CLASSES: Record<SellThrough, string> = {
  free: 'border-emerald-200 bg-emerald-50 text-emerald-950 hover:bg-emerald-100',
  partly: 'border-amber-300 bg-amber-100 text-amber-950 hover:bg-amber-200',
  sold_out: 'border-red-300 bg-red-200 text-red-950 hover:bg-red-300',
};

export const SELL_THROUGH_LABELS: Record<SellThrough, string> = {
  free: 'Available',
  partly: 'Partly sold',
  sold_out: 'Sold out',
};

/** The mark of a day with units held by a sent contract (not yet booked). */
export function HeldMark({ className }: { className?: string }) {
  return <span aria-hidden className={cn('inline-block size-1.5 rounded-full bg-indigo-600', className)} />;
}

/** What the colours and the mark mean. */
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
        <span aria-hidden className="flex size-3.5 items-start justify-end rounded border bg-white p-px">
          <HeldMark />
        </span>
        Held (sent, not yet booked)
      </li>
    </ul>
  );
}
