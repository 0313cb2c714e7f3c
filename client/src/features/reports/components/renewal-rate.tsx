import type { RenewalRateFigures } from '@shared/contracts/renewal-vocabulary';
import type { Report } from '@shared/contracts/reports';
import { formatMoney } from '@/lib/format';

const percent = (rate: number | null) => (rate === null ? '—' : `${rate.toFixed(1)}%`);

/**
 * The renewal rate (product.md section 15) of the contracts whose term ended in the range: renewed over
 * ended by count and by value, and for managers one row per rep.
 */
export function RenewalRate({ renewals }: { renewals: Report['renewals'] }) {
  if (renewals.endedCount === 0) {
    return (
      <p className="py-6 text-center text-sm text-muted-foreground" data-testid="renewals-empty">
        No contract terms ended in this range.
      </p>
    );
  }
  return (
    <div className="grid gap-5">
      <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
        <div className="min-w-0">
          <dt className="text-muted-foreground">Renewal rate by count</dt>
          <dd className="text-lg font-semibold tabular-nums text-slate-900" data-testid="renewal-count-rate">
            {percent(renewals.countRate)}
          </dd>
          <dd className="text-xs text-muted-foreground">
            {renewals.renewedCount} of {renewals.endedCount} ended contracts renewed
          </dd>
        </div>
        <div className="min-w-0">
          <dt className="text-muted-foreground">Renewal rate by value</dt>
          <dd className="text-lg font-semibold tabular-nums text-slate-900" data-testid="renewal-value-rate">
            {percent(renewals.valueRate)}
          </dd>
          <dd className="text-xs text-muted-foreground">
            {formatMoney(renewals.renewedValue)} of {formatMoney(renewals.endedValue)}
          </dd>
        </div>
      </dl>
      {renewals.byRep.length > 0 && <RenewalsByRep rows={renewals.byRep} />}
    </div>
  );
}

function RenewalsByRep({
  rows,
}: {
  rows: (RenewalRateFigures & { salesRepId: string | null; salesRepName: string })[];
}) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[32rem] text-sm" data-testid="renewals-by-rep">
        <caption className="sr-only">Renewal rate by sales rep</caption>
        <thead>
          <tr className="border-b text-left text-muted-foreground">
            <th scope="col" className="py-2 pr-3 font-medium">
              Sales rep
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Ended
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Renewed
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              By count
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Value renewed
            </th>
            <th scope="col" className="py-2 pl-3 text-right font-medium">
              By value
            </th>
          </tr>
        </thead>
        <tbody className="divide-y">
          {rows.map((row) => (
            <tr key={row.salesRepId ?? 'none'}>
              <th scope="row" className="py-2 pr-3 text-left font-medium text-slate-900">
                {row.salesRepName}
              </th>
              <td className="px-3 py-2 text-right tabular-nums">{row.endedCount}</td>
              <td className="px-3 py-2 text-right tabular-nums">{row.renewedCount}</td>
              <td className="px-3 py-2 text-right tabular-nums">{percent(row.countRate)}</td>
              <td className="px-3 py-2 text-right tabular-nums">
                {formatMoney(row.renewedValue)} of {formatMoney(row.endedValue)}
              </td>
              <td className="py-2 pl-3 text-right tabular-nums">{percent(row.valueRate)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
