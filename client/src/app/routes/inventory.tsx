import { holidaySeason } from '@shared/contracts/inventory-vocabulary';
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
import { RangePicker } from '@/features/inventory/components/range-picker';
import { checkRange } from '@/features/inventory/lib/range';
import { errorMessage } from '@/lib/api-client';
import { formatDate, todayIso } from '@/lib/format';
import { paths } from '@/lib/paths';
import { useDebouncedValue } from '@/lib/use-debounced-value';

// The day's contracts load the first time a day is opened (docs/decisions/017-performance.md).
const InventoryDayDialog = lazyWhen(
  () => import('@/features/inventory/components/inventory-day-dialog').then((module) => module.InventoryDayDialog),
  (props) => props.open,
);

const sameRange = (a: InventoryRange | null, b: InventoryRange | null) => a?.from === b?.from && a?.to === b?.to;

/**
 * The Inventory screen (product.md section 13): each inventory product's days over a range (the holiday season,
 * October to December, unless the address names another), coloured by how much of each is taken; a day lists
 * the contracts holding or booking it.
 */
export default function InventoryPage() {
  const { user } = useCurrentUser();
  const allowed = canAny(user, ['inventory:read:any', 'inventory:read:own']);
  const today = todayIso();
  const season = holidaySeason(today);
  const { from: seasonFrom, to: seasonTo } = season;
  const [params, setParams] = useSearchParams();
  const [draft, setDraft] = useState<InventoryRange>(() => ({
    from: params.get('from') ?? season.from,
    to: params.get('to') ?? season.to,
  }));
  const checked = checkRange(draft.from, draft.to);
  // The range asked for: the last valid one, once the fields stop changing (typing a year passes through others).
  const [shown, setShown] = useState<InventoryRange | null>(checked.range);
  const settled = useDebouncedValue(checked.range ? `${checked.range.from}/${checked.range.to}` : null, 400);
  useEffect(() => {
    if (settled === null) return;
    const [from, to] = settled.split('/');
    setShown((current) => (sameRange(current, { from, to }) ? current : { from, to }));
  }, [settled]);
  // The address keeps a range other than the season, so a reload or a shared link shows the same days.
  useEffect(() => {
    if (!shown) return;
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (sameRange(shown, { from: seasonFrom, to: seasonTo })) {
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
  }, [shown, seasonFrom, seasonTo, setParams]);

  const calendar = useInventoryCalendar(shown ?? season, { enabled: allowed && shown !== null });
  const [selected, setSelected] = useState<SelectedDay | null>(null);
  const [dayOpen, setDayOpen] = useState(false);

  if (!allowed) return <AccessDenied message="You don't have permission to view the inventory" />;

  const data = calendar.data;
  const products = data?.products ?? [];
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

  return (
    <>
      <PageHeader title="Inventory" description="Availability of holiday placements by day" />

      <div className="mb-6 grid gap-4">
        <RangePicker
          from={draft.from}
          to={draft.to}
          errors={checked.errors}
          onChange={setDraft}
          onSeason={sameRange(draft, season) ? undefined : () => setDraft(season)}
        />
        <div className="flex flex-wrap items-center justify-between gap-x-6 gap-y-3">
          <p className="text-sm text-muted-foreground" aria-live="polite" data-testid="inventory-summary">
            {data
              ? `${formatDate(data.from)} – ${formatDate(data.to)} · ${products.length} inventory ${products.length === 1 ? 'product' : 'products'}`
              : !shown
                ? 'Choose a valid range to see availability.'
                : calendar.isError
                  ? 'Availability could not be loaded.'
                  : 'Loading availability...'}
          </p>
          <InventoryLegend />
        </div>
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
          className={calendar.isPlaceholderData ? 'grid gap-6 opacity-70 transition-opacity' : 'grid gap-6'}
          aria-busy={calendar.isFetching}
          data-testid="inventory-calendar"
        >
          {products.map((product) => (
            <ProductCalendar
              key={product.productId}
              product={product}
              today={today}
              onSelect={(day) => {
                setSelected(day);
                setDayOpen(true);
              }}
            />
          ))}
        </div>
      )}

      <InventoryDayDialog selected={selected} open={dayOpen} onClose={() => setDayOpen(false)} />
    </>
  );
}
