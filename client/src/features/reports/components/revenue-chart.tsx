import type { Report } from '@shared/contracts/reports';
import { lazy, type RefObject, Suspense, useEffect, useRef, useState } from 'react';
import { type Column, DataTable } from '@/components/ui/data-table';
import { Skeleton } from '@/components/ui/feedback';
import { formatMoney } from '@/lib/format';

// The chart library is most of the Reports screen's weight: it loads only when a chart is on screen.
const RevenueBars = lazy(() => import('./revenue-bars').then((module) => ({ default: module.RevenueBars })));

const LONG_MONTH = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const at = (yyyyMm: string) => new Date(`${yyyyMm}-01T00:00:00Z`);

/** The chart's figures for screen readers, in the chart's order. */
const COLUMNS: Column<Report['revenue']['byMonth'][number]>[] = [
  { id: 'month', header: 'Month', rowHeader: true, cell: (m) => LONG_MONTH.format(at(m.month)) },
  { id: 'revenue', header: 'Revenue', cell: (m) => formatMoney(m.amount) },
];

/** True once the element is on screen or about to be (200 px ahead); at once where IntersectionObserver is missing. */
function useNearViewport(ref: RefObject<Element | null>): boolean {
  const [near, setNear] = useState(typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = ref.current;
    if (near || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: '200px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near, ref]);
  return near;
}

/**
 * Revenue by month as bars. Screen readers get the same figures as a table, there from the first paint; the
 * bars themselves (recharts) are hidden from them and load when the chart comes near the screen, in a box
 * of the final size (a placeholder meanwhile, so nothing moves when they appear).
 */
export function RevenueChart({ byMonth }: { byMonth: Report['revenue']['byMonth'] }) {
  const box = useRef<HTMLDivElement>(null);
  const near = useNearViewport(box);
  const placeholder = <Skeleton className="size-full" />;
  return (
    <figure className="m-0 min-w-0" data-testid="revenue-chart">
      <div ref={box} className="h-64 w-full sm:h-72" aria-hidden>
        {near ? (
          <Suspense fallback={placeholder}>
            <RevenueBars byMonth={byMonth} />
          </Suspense>
        ) : (
          placeholder
        )}
      </div>
      <DataTable
        caption="Revenue by month"
        columns={COLUMNS}
        rows={byMonth}
        rowKey={(m) => m.month}
        frame="none"
        frameClassName="sr-only"
      />
    </figure>
  );
}
