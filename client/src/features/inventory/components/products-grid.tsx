import type { AvailabilityDay, InventoryMonth } from '@shared/contracts/inventory-vocabulary';
import { type KeyboardEvent, useMemo, useRef, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';
import { capacityText, dayLabel, sellThrough, WEEKDAYS, weekdayIndex } from '../lib/calendar';
import { DayFigures, MonthSummary, RENEWAL_DAY_CLASS, SELL_THROUGH_CLASSES } from './day-styles';
import type { InventoryProduct, SelectedDay } from './product-calendar';

/** The months of the range: their key (YYYY-MM), label and how many of its days the range shows. */
function rangeMonths(days: readonly AvailabilityDay[]) {
  const months: { key: string; label: string; span: number }[] = [];
  for (const day of days) {
    const key = day.date.slice(0, 7);
    const last = months.at(-1);
    if (last?.key === key) last.span += 1;
    else {
      const label = new Date(`${key}-01T00:00:00Z`).toLocaleDateString('en-US', {
        month: 'long',
        year: 'numeric',
        timeZone: 'UTC',
      });
      months.push({ key, label, span: 1 });
    }
  }
  return months;
}

const STEPS: Record<string, [number, number]> = {
  ArrowLeft: [0, -1],
  ArrowRight: [0, 1],
  ArrowUp: [-1, 0],
  ArrowDown: [1, 0],
};

/**
 * Products side by side: a row per inventory product, a column per day of the range, each cell a day with the
 * calendar's meaning (tint by how much is taken; booked, held and free units). The table scrolls sideways
 * under a product column that stays in view. The cells are one tab stop: the arrow keys move between days
 * and products (Home and End: a row's first and last day); a cell opens the contracts holding the day.
 */
export function ProductsGrid({
  products,
  today,
  onSelect,
}: {
  products: InventoryProduct[];
  today: string;
  onSelect: (selected: SelectedDay) => void;
}) {
  const days = products[0]?.days ?? [];
  const months = useMemo(() => rangeMonths(days), [days]);
  const [active, setActive] = useState<[number, number] | null>(null);
  const table = useRef<HTMLTableElement>(null);
  const todayColumn = days.findIndex((day) => day.date === today);
  const [activeRow, activeColumn] = active ?? [0, Math.max(todayColumn, 0)];

  const move = (event: KeyboardEvent<HTMLButtonElement>, row: number, column: number) => {
    let next: [number, number] | null = null;
    if (event.key in STEPS) next = [row + STEPS[event.key][0], column + STEPS[event.key][1]];
    else if (event.key === 'Home') next = [row, 0];
    else if (event.key === 'End') next = [row, days.length - 1];
    if (next === null) return;
    event.preventDefault();
    const clamped: [number, number] = [
      Math.min(Math.max(next[0], 0), products.length - 1),
      Math.min(Math.max(next[1], 0), days.length - 1),
    ];
    setActive(clamped);
    table.current?.querySelector<HTMLButtonElement>(`[data-cell="${clamped[0]}:${clamped[1]}"]`)?.focus();
  };

  return (
    <div className="grid min-w-0 grid-cols-1 gap-6">
      <div className="min-w-0 rounded-lg border bg-white shadow-sm">
        <p className="sr-only">
          Each day is a button: the arrow keys move between days and products, Enter opens the contracts holding the
          day.
        </p>
        <p className="border-b px-4 py-2 text-xs text-muted-foreground" aria-hidden>
          Scroll sideways for more days.
        </p>
        <div className="overflow-x-auto" data-testid="inventory-grid-scroller">
          <table ref={table} className="border-separate border-spacing-0 text-left" data-testid="inventory-grid">
            <caption className="sr-only">Inventory products by day</caption>
            <thead>
              <tr>
                <th
                  scope="col"
                  rowSpan={2}
                  className="sticky left-0 z-20 min-w-32 border-b border-r bg-white px-3 py-2 text-xs font-medium text-muted-foreground sm:min-w-44"
                >
                  Product
                </th>
                {months.map((month) => (
                  <th
                    key={month.key}
                    scope="colgroup"
                    colSpan={month.span}
                    className="border-b border-l px-2 py-1.5 text-xs font-semibold text-slate-900"
                  >
                    <span className="sticky left-34 sm:left-46">{month.label}</span>
                  </th>
                ))}
              </tr>
              <tr>
                {days.map((day) => {
                  const weekday = WEEKDAYS[weekdayIndex(day.date)];
                  return (
                    <th
                      key={day.date}
                      scope="col"
                      className={cn(
                        'border-b px-0.5 py-1 text-center text-[10px] font-medium text-muted-foreground',
                        day.date.endsWith('-01') && 'border-l',
                        day.date === today && 'bg-slate-900 text-white',
                      )}
                    >
                      <abbr title={weekday.long} className="block no-underline">
                        {weekday.short}
                      </abbr>
                      <span className="block text-xs text-inherit">{Number(day.date.slice(8, 10))}</span>
                    </th>
                  );
                })}
              </tr>
            </thead>
            <tbody>
              {products.map((product, row) => (
                <tr key={product.productId} data-testid="inventory-grid-row" data-product-id={product.productId}>
                  <th
                    scope="row"
                    className="sticky left-0 z-10 min-w-32 max-w-32 border-b border-r bg-white px-3 py-2 align-top sm:min-w-44 sm:max-w-44"
                  >
                    <span className="block truncate text-sm font-medium text-slate-900" title={product.productName}>
                      {product.productName}
                    </span>
                    <span className="block text-xs font-normal text-muted-foreground">
                      {capacityText(product.capacity)}
                    </span>
                    {!product.isActive && (
                      <Badge tone="grey" className="mt-1">
                        Archived
                      </Badge>
                    )}
                  </th>
                  {product.days.map((day, column) => (
                    <td key={day.date} className={cn('border-b p-0.5', day.date.endsWith('-01') && 'border-l')}>
                      <button
                        type="button"
                        data-cell={`${row}:${column}`}
                        data-date={day.date}
                        data-sell-through={sellThrough(day)}
                        data-held-for-renewal={day.heldForRenewal > 0 || undefined}
                        aria-label={`${product.productName}, ${dayLabel(day)}${day.date === today ? ' (today)' : ''}`}
                        aria-current={day.date === today ? 'date' : undefined}
                        tabIndex={row === activeRow && column === activeColumn ? 0 : -1}
                        onClick={(event) => {
                          setActive([row, column]);
                          onSelect({
                            productId: product.productId,
                            productName: product.productName,
                            date: day.date,
                            day,
                            opener: event.currentTarget,
                          });
                        }}
                        onKeyDown={(event) => move(event, row, column)}
                        className={cn(
                          'flex h-14 w-10 cursor-pointer flex-col justify-end rounded border px-0.5 py-0.5 transition-colors',
                          'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-1',
                          SELL_THROUGH_CLASSES[sellThrough(day)],
                          day.heldForRenewal > 0 && RENEWAL_DAY_CLASS,
                          day.date === today && 'border-2 border-slate-900',
                        )}
                      >
                        <DayFigures day={day} stacked />
                      </button>
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
      <MonthsTable products={products} months={months} />
    </div>
  );
}

/** Each product's months side by side: sell-through and booked value. */
function MonthsTable({ products, months }: { products: InventoryProduct[]; months: { key: string; label: string }[] }) {
  return (
    <section aria-labelledby="inventory-months-heading" className="min-w-0 rounded-lg border bg-white shadow-sm">
      <h2 id="inventory-months-heading" className="border-b px-4 py-3 text-sm font-semibold text-slate-900">
        Months: sell-through and booked value
      </h2>
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm" data-testid="inventory-months">
          <thead>
            <tr>
              <th scope="col" className="px-4 py-2 text-xs font-medium text-muted-foreground">
                Product
              </th>
              {months.map((month) => (
                <th key={month.key} scope="col" className="px-4 py-2 text-xs font-medium text-muted-foreground">
                  {month.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {products.map((product) => {
              const byMonth = new Map<string, InventoryMonth>(product.months.map((m) => [m.month, m]));
              return (
                <tr key={product.productId} className="border-t" data-product-id={product.productId}>
                  <th scope="row" className="px-4 py-2 font-medium text-slate-900">
                    {product.productName}
                  </th>
                  {months.map((month) => {
                    const summary = byMonth.get(month.key);
                    return (
                      <td key={month.key} className="px-4 py-2 align-top">
                        {summary ? <MonthSummary month={summary} className="min-w-48" /> : '—'}
                      </td>
                    );
                  })}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
