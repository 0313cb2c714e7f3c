import type { Report } from '@shared/contracts/reports';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { type Column, DataTable } from '@/components/ui/data-table';
import { formatMoney } from '@/lib/format';

const MONTH = new Intl.DateTimeFormat('en-US', { month: 'short', year: '2-digit', timeZone: 'UTC' });
const LONG_MONTH = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const at = (yyyyMm: string) => new Date(`${yyyyMm}-01T00:00:00Z`);
const compact = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  notation: 'compact',
  maximumFractionDigits: 1,
});

/** The chart's figures for screen readers, in the chart's order. */
const COLUMNS: Column<Report['revenue']['byMonth'][number]>[] = [
  { id: 'month', header: 'Month', rowHeader: true, cell: (m) => LONG_MONTH.format(at(m.month)) },
  { id: 'revenue', header: 'Revenue', cell: (m) => formatMoney(m.amount) },
];

/**
 * Revenue by month as bars (recharts, loaded with the Reports screen only). Screen readers get the same
 * figures as a table; the chart itself is hidden from them.
 */
export function RevenueChart({ byMonth }: { byMonth: Report['revenue']['byMonth'] }) {
  const data = byMonth.map((m) => ({ month: MONTH.format(at(m.month)), amount: m.amount, key: m.month }));
  return (
    <figure className="m-0 min-w-0" data-testid="revenue-chart">
      <div className="h-64 w-full sm:h-72" aria-hidden>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e2e8f0" />
            <XAxis dataKey="month" tickLine={false} axisLine={false} fontSize={12} interval="preserveStartEnd" />
            <YAxis
              tickLine={false}
              axisLine={false}
              fontSize={12}
              width={56}
              tickFormatter={(value: number) => compact.format(value)}
            />
            <Tooltip
              cursor={{ fill: 'rgba(99, 102, 241, 0.08)' }}
              formatter={(value) => [formatMoney(Number(value)), 'Revenue']}
            />
            <Bar
              dataKey="amount"
              name="Revenue"
              fill="#4f46e5"
              radius={[4, 4, 0, 0]}
              maxBarSize={56}
              isAnimationActive={false}
            />
          </BarChart>
        </ResponsiveContainer>
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
