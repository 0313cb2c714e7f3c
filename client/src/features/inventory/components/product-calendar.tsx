import type { AvailabilityDay, InventoryCalendar, InventoryMonth } from '@shared/contracts/inventory-vocabulary';
import { type KeyboardEvent, useId, useMemo, useRef, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/feedback';
import { formatDate } from '@/lib/format';
import { cn } from '@/lib/utils';
import {
  type CalendarMonth,
  calendarMonths,
  capacityText,
  dayLabel,
  sellThrough,
  shiftDate,
  soldOutDays,
  WEEKDAYS,
} from '../lib/calendar';
import { DayFigures, MonthSummary, RENEWAL_DAY_CLASS, SELL_THROUGH_CLASSES } from './day-styles';

export type InventoryProduct = InventoryCalendar['products'][number];

/** The day a user picked: which product, which day, and the figures the calendar showed for it (if shown). */
export type SelectedDay = {
  productId: string;
  productName: string;
  date: string;
  day: AvailabilityDay | null;
  /** The day's button: focus goes back to it when the dialog closes. */
  opener: HTMLElement | null;
};

/** Moves between days with the keyboard: a key and how many days it steps. */
const STEPS: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 };

/**
 * An inventory product's card: its capacity and a calendar per month of the range with the month's
 * sell-through and booked value, each day coloured by how much of it is taken and showing its booked, held
 * and free units. A day opens the contracts holding it. The days are one tab
 * stop: the arrow keys move between them (Home and End: the range's first and last day).
 */
export function ProductCalendar({
  product,
  today,
  onSelect,
}: {
  product: InventoryProduct;
  today: string;
  onSelect: (selected: SelectedDay) => void;
}) {
  const months = useMemo(() => calendarMonths(product.days), [product.days]);
  const summaries = useMemo(() => new Map(product.months.map((m) => [m.month, m])), [product.months]);
  const first = product.days[0]?.date ?? null;
  const last = product.days[product.days.length - 1]?.date ?? null;
  const inRange = (date: string) => first !== null && last !== null && date >= first && date <= last;
  const [active, setActive] = useState<string | null>(null);
  const focusDate = active !== null && inRange(active) ? active : inRange(today) ? today : first;
  const grid = useRef<HTMLDivElement>(null);
  const soldOut = soldOutDays(product.days);

  const move = (event: KeyboardEvent<HTMLButtonElement>, date: string) => {
    if (first === null || last === null) return;
    let next: string | null = null;
    if (event.key in STEPS) next = shiftDate(date, STEPS[event.key]);
    else if (event.key === 'Home') next = first;
    else if (event.key === 'End') next = last;
    if (next === null) return;
    event.preventDefault();
    next = next < first ? first : next > last ? last : next;
    setActive(next);
    grid.current?.querySelector<HTMLButtonElement>(`[data-date="${next}"]`)?.focus();
  };

  return (
    <Card data-testid="inventory-product" data-product-id={product.productId}>
      <CardHeader>
        <div className="flex flex-wrap items-center gap-2">
          <CardTitle className="text-base">{product.productName}</CardTitle>
          {!product.isActive && <Badge tone="grey">Archived</Badge>}
        </div>
        <CardDescription>
          Capacity: {capacityText(product.capacity)}
          {product.days.length > 0 && (
            <>
              {' · '}
              {soldOut === 0 ? 'No day sold out' : `${soldOut} ${soldOut === 1 ? 'day' : 'days'} sold out`}
              {product.lowest && product.lowest.available < product.capacity && (
                <>
                  {' · '}
                  Fewest left: {product.lowest.available} on {formatDate(product.lowest.date)}
                </>
              )}
            </>
          )}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <p className="sr-only">
          Each day is a button: the arrow keys move between days, Enter opens the contracts holding the day.
        </p>
        <div ref={grid} className="grid grid-cols-1 gap-x-6 gap-y-6 md:grid-cols-2 2xl:grid-cols-3">
          {months.map((month) => (
            <MonthGrid
              key={month.key}
              month={month}
              summary={summaries.get(month.key) ?? null}
              today={today}
              focusDate={focusDate}
              onSelect={(day, opener) => {
                setActive(day.date);
                onSelect({
                  productId: product.productId,
                  productName: product.productName,
                  date: day.date,
                  day,
                  opener,
                });
              }}
              onKeyDown={move}
            />
          ))}
        </div>
      </CardContent>
    </Card>
  );
}

function MonthGrid({
  month,
  summary,
  today,
  focusDate,
  onSelect,
  onKeyDown,
}: {
  month: CalendarMonth;
  summary: InventoryMonth | null;
  today: string;
  focusDate: string | null;
  onSelect: (day: AvailabilityDay, opener: HTMLElement) => void;
  onKeyDown: (event: KeyboardEvent<HTMLButtonElement>, date: string) => void;
}) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="min-w-0" data-month={month.key}>
      <h3 id={headingId} className="text-sm font-semibold text-slate-900">
        {month.label}
      </h3>
      {summary && <MonthSummary month={summary} className="mb-2 mt-1" />}
      <div className="grid grid-cols-7 gap-0.5 sm:gap-1">
        {WEEKDAYS.map((weekday) => (
          <abbr
            key={weekday.long}
            title={weekday.long}
            aria-hidden
            className="pb-1 text-center text-[11px] font-medium text-muted-foreground no-underline"
          >
            {weekday.short}
          </abbr>
        ))}
        {month.leadingBlanks > 0 && <div aria-hidden style={{ gridColumn: `span ${month.leadingBlanks}` }} />}
        {month.cells.map((cell) =>
          cell.figures ? (
            <DayButton
              key={cell.date}
              day={cell.figures}
              number={cell.day}
              isToday={cell.date === today}
              tabbable={cell.date === focusDate}
              onSelect={onSelect}
              onKeyDown={onKeyDown}
            />
          ) : (
            <div
              key={cell.date}
              aria-hidden
              className="flex min-h-12 items-start justify-center rounded-md pt-1 text-[11px] text-slate-300 sm:min-h-14"
            >
              {cell.day}
            </div>
          ),
        )}
      </div>
    </section>
  );
}

function DayButton({
  day,
  number,
  isToday,
  tabbable,
  onSelect,
  onKeyDown,
}: {
  day: AvailabilityDay;
  number: number;
  isToday: boolean;
  tabbable: boolean;
  onSelect: (day: AvailabilityDay, opener: HTMLElement) => void;
  onKeyDown: (event: KeyboardEvent<HTMLButtonElement>, date: string) => void;
}) {
  const bucket = sellThrough(day);
  return (
    <button
      type="button"
      data-date={day.date}
      data-sell-through={bucket}
      data-held={day.held > 0 || undefined}
      data-held-for-renewal={day.heldForRenewal > 0 || undefined}
      aria-label={`${dayLabel(day)}${isToday ? ' (today)' : ''}`}
      aria-current={isToday ? 'date' : undefined}
      tabIndex={tabbable ? 0 : -1}
      onClick={(event) => onSelect(day, event.currentTarget)}
      onKeyDown={(event) => onKeyDown(event, day.date)}
      className={cn(
        'relative flex min-h-12 min-w-0 cursor-pointer flex-col overflow-hidden items-start justify-between gap-0.5 rounded-md border px-0.5 py-1 leading-none transition-colors sm:min-h-14 sm:px-1',
        'focus-visible:z-10 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-1',
        SELL_THROUGH_CLASSES[bucket],
        day.heldForRenewal > 0 && RENEWAL_DAY_CLASS,
        isToday && 'border-slate-900 border-2',
      )}
    >
      <span className="text-[11px] font-semibold sm:text-xs">{number}</span>
      <DayFigures day={day} />
    </button>
  );
}

/** Placeholder cards while the calendar loads. */
export function InventorySkeleton() {
  return (
    <div className="grid gap-6" role="status" aria-busy="true" aria-label="Loading the inventory">
      {Array.from({ length: 2 }, (_, i) => (
        <Card key={i} className="p-5">
          <Skeleton className="h-5 w-48" />
          <Skeleton className="mt-2 h-4 w-64" />
          <div className="mt-5 grid grid-cols-1 gap-6 sm:grid-cols-2 xl:grid-cols-3">
            {Array.from({ length: 3 }, (_, j) => (
              <Skeleton key={j} className={cn('h-56', j > 0 && 'hidden sm:block', j > 1 && 'sm:hidden xl:block')} />
            ))}
          </div>
        </Card>
      ))}
    </div>
  );
}
