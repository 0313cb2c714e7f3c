import type { Report } from '@shared/contracts/reports';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatMoney } from '@/lib/format';

const MONTH = new Intl.DateTimeFormat('en-US', { month: 'short', year: '2-digit', timeZone: 'UTC' });
const at = (yyyyMm: string) => new Date(`${yyyyMm}-01T00:00:00Z`);
const compact = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  notation: 'compact',
  maximumFractionDigits: 1,
});

/**
 * The bars of the revenue chart (recharts, about 106 kB gzip: its own chunk, loaded by revenue-chart.tsx
 * only when the chart comes on screen). It fills the box it is given.
 */
export function RevenueBars({ byMonth }: { byMonth: Report['revenue']['byMonth'] }) {
  const data = byMonth.map((m) => ({ month: MONTH.format(at(m.month)), amount: m.amount, key: m.month }));
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e2e8f0" />
        <XAxis dataKey="month" tickLine={false} axisLine={false} fontSize={12} interval="preserveStartEnd" />
        <YAxis
          tickLine={false}
          axisLine={false}
          fontSize={12}
          width={56}
          // Zero always on the axis: a month whose refunds exceed what came in is a bar below it.
          domain={[(low: number) => Math.min(0, low), (high: number) => Math.max(0, high)]}
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
  );
}
