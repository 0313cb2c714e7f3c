import { holidaySeason, shiftRange } from '@shared/contracts/inventory-vocabulary';
import { can, canAny } from '@shared/permissions';
import { CalendarDays } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'wouter';
import { Button } from '@/components/ui/button';
import { AccessDenied, EmptyState, ErrorState } from '@/components/ui/feedback';
import { lazyWhen } from '@/components/ui/lazy-when';
import { PageHeader } from '@/components/ui/page-header';
import { useCurrentUser } from '@/features/auth/api/me';
import { type InventoryRange, useInventoryCalendar } from '@/features/inventory/api/get-inventory-calendar';
import { InventoryLegend } from '@/features/inventory/components/day-styles';
import { InventorySkeleton, ProductCalendar, type SelectedDay } from '@/features/inventory/components/product-calendar';
import { ProductsGrid } from '@/features/inventory/components/products-grid';
import { RangePicker } from '@/features/inventory/components/range-picker';
import { checkRange } from '@/features/inventory/lib/range';
import { errorMessage } from '@/lib/api-client';
import { formatDate, todayIso } from '@/lib/format';
import { paths } from '@/lib/paths';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { cn } from '@/lib/utils';

// The day's contracts load the first time a day is opened (docs/decisions/017-performance.md).
const InventoryDayDialog = lazyWhen(
  () => import('@/features/inventory/components/inventory-day-dialog').then((module) => module.InventoryDayDialog),
  (props) => props.open,
);

const sameRange = (a: InventoryRange | null, b: InventoryRange | null) => a?.from === b?.from && a?.to === b?.to;

type View = 'calendars' | 'grid';
const VIEWS: { value: View; label: string }[] = [
  { value: 'calendars', label: 'Calendars' },
  { value: 'grid', label: 'Products × days' },
];

/** The range shown: the server's default ('current': the business's current month and the next ones) or one asked for. */
type Shown = InventoryRange | 'current';

/**
 * The Inventory screen (product.md section 13): each inventory product's days over a range (the current month
 * and the next ones, unless the address names another), with each day's booked, held and free units and each
 * month's sell-through and booked value; as a calendar per product, or products side by side by day. A day
 * lists the contracts holding or booking it and, sold out, the next free dates.
 */
export default function InventoryPage() {
  const { user } = useCurrentUser();
  const allowed = canAny(user, ['inventory:read:any', 'inventory:read:own']);
  const [params, setParams] = useSearchParams();
  const asked = params.get('from') && params.get('to') ? { from: params.get('from')!, to: params.get('to')! } : null;
  const view: View = params.get('view') === 'grid' ? 'grid' : 'calendars';
  // The fields: empty until the server names its default range.
  const [draft, setDraft] = useState<InventoryRange | null>(asked);
  const checked = draft ? checkRange(draft.from, draft.to) : null;
  const [shown, setShown] = useState<Shown>(asked ?? 'current');
  // The server's default range, once an answer named it.
  const [current, setCurrent] = useState<InventoryRange | null>(null);
  const showRange = (range: InventoryRange) => {
    setDraft(range);
    setShown(sameRange(range, current) ? 'current' : range);
  };

  // A range typed in is asked for once the fields stop changing (typing a year passes through others).
  const settled = useDebouncedValue(checked?.range ? `${checked.range.from}/${checked.range.to}` : null, 400);
  useEffect(() => {
    if (settled === null) return;
    const [from, to] = settled.split('/');
    const next = { from, to };
    setShown((previous) => {
      if (previous === 'current' ? sameRange(current, next) : sameRange(previous, next)) return previous;
      return sameRange(current, next) ? 'current' : next;
    });
  }, [settled, current]);

  const calendar = useInventoryCalendar(shown === 'current' ? null : shown, { enabled: allowed });
  const data = calendar.data;
  // The default range's answer names it: the fields show it.
  useEffect(() => {
    if (!data || shown !== 'current' || calendar.isPlaceholderData) return;
    const range = { from: data.from, to: data.to };
    setCurrent((previous) => (sameRange(previous, range) ? previous : range));
    setDraft((previous) => previous ?? range);
  }, [data, shown, calendar.isPlaceholderData]);

  // The address keeps a range other than the default and the grid view, so a reload or a link shows the same.
  useEffect(() => {
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (shown === 'current') {
          next.delete('from');
          next.delete('to');
        } else {
          next.set('from', shown.from);
          next.set('to', shown.to);
        }
        return next;
      },
      { replace: true },
    );
  }, [shown, setParams]);
  const setView = (value: View) =>
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (value === 'grid') next.set('view', 'grid');
        else next.delete('view');
        return next;
      },
      { replace: true },
    );

  const [selected, setSelected] = useState<SelectedDay | null>(null);
  const [dayOpen, setDayOpen] = useState(false);
  const select = (day: SelectedDay) => {
    setSelected(day);
    setDayOpen(true);
  };

  if (!allowed) return <AccessDenied message="You don't have permission to view the inventory" />;

  const products = data?.products ?? [];
  const today = data?.today ?? todayIso();
  const season = holidaySeason(today);
  const valid = checked?.range ?? null;
  const retry = (
    <Button
      variant="outline"
      size="sm"
      className="mt-3"
      onClick={() => void calendar.refetch()}
      disabled={calendar.isFetching}
    >
      {calendar.isFetching ? 'Trying again...' : 'Try again'}
    </Button>
  );
  const openDay = (date: string) => {
    if (!selected) return;
    const product = products.find((p) => p.productId === selected.productId);
    setSelected({ ...selected, date, day: product?.days.find((d) => d.date === date) ?? null });
  };

  return (
    <>
      <PageHeader title="Inventory" description="Availability of holiday placements by day" />

      <div className="mb-6 grid gap-4">
        <RangePicker
          from={draft?.from ?? ''}
          to={draft?.to ?? ''}
          errors={draft ? (checked?.errors ?? null) : null}
          onChange={setDraft}
          onEarlier={valid ? () => showRange(shiftRange(valid, -1)) : undefined}
          onLater={valid ? () => showRange(shiftRange(valid, 1)) : undefined}
          onCurrent={
            shown === 'current' && sameRange(draft, current)
              ? undefined
              : () => {
                  if (current) showRange(current);
                  else {
                    setDraft(null);
                    setShown('current');
                  }
                }
          }
          onSeason={sameRange(draft, season) ? undefined : () => showRange(season)}
        />
        <div className="flex flex-wrap items-center justify-between gap-x-6 gap-y-3">
          <p className="text-sm text-muted-foreground" aria-live="polite" data-testid="inventory-summary">
            {data
              ? `${formatDate(data.from)} – ${formatDate(data.to)} · ${products.length} inventory ${products.length === 1 ? 'product' : 'products'}`
              : draft && !valid
                ? 'Choose a valid range to see availability.'
                : calendar.isError
                  ? 'Availability could not be loaded.'
                  : 'Loading availability...'}
          </p>
          <fieldset className="flex rounded-lg bg-muted p-1">
            <legend className="sr-only">View</legend>
            {VIEWS.map((option) => (
              <button
                key={option.value}
                type="button"
                aria-pressed={view === option.value}
                onClick={() => setView(option.value)}
                className={cn(
                  'cursor-pointer rounded-md px-3 py-1.5 text-sm font-medium text-muted-foreground transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
                  view === option.value && 'bg-white text-foreground shadow-sm',
                )}
              >
                {option.label}
              </button>
            ))}
          </fieldset>
        </div>
        <InventoryLegend />
      </div>

      {calendar.isError && !data && (
        <ErrorState title="Could not load the inventory">
          <p>{errorMessage(calendar.error, 'Something went wrong. Try again in a moment.')}</p>
          {retry}
        </ErrorState>
      )}
      {calendar.isLoading && <InventorySkeleton />}
      {data && products.length === 0 && (
        <EmptyState icon={<CalendarDays />} title="No inventory products yet">
          Mark a product as inventory required and give it a capacity on the{' '}
          {can(user, 'nav:products') ? (
            <Link href={paths.products} className="font-medium text-primary underline-offset-4 hover:underline">
              Products screen
            </Link>
          ) : (
            'Products screen'
          )}
          .
        </EmptyState>
      )}
      {products.length > 0 && (
        <div
          className={cn('grid grid-cols-1 gap-6', calendar.isPlaceholderData && 'opacity-70 transition-opacity')}
          aria-busy={calendar.isFetching}
          data-testid="inventory-calendar"
          data-view={view}
        >
          {view === 'grid' ? (
            <ProductsGrid products={products} today={today} onSelect={select} />
          ) : (
            products.map((product) => (
              <ProductCalendar key={product.productId} product={product} today={today} onSelect={select} />
            ))
          )}
        </div>
      )}

      <InventoryDayDialog selected={selected} open={dayOpen} onClose={() => setDayOpen(false)} onOpenDay={openDay} />
    </>
  );
}
