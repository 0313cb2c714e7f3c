import type { Forecast, ForecastMonth } from '@shared/contracts/forecast';
import { Badge } from '@/components/ui/badge';
import { formatMoney } from '@/lib/format';
import { attainmentTone, monthLabel, percentLabel } from '../lib/format';

/**
 * The forecast as a table: a row per rep (and "All reps" when there are several), a column per month. Each cell:
 * what is booked, the weighted pipeline (W) and the best case (BC) under it, and the attainment of the month's
 * target. Wider than a phone, it scrolls sideways inside its own frame (focusable, so the keyboard scrolls it
 * too), the reps' names staying at the left.
 */
export function ForecastTable({ forecast }: { forecast: Forecast }) {
  const showTotals = forecast.rows.length > 1;
  return (
    <section
      aria-label="Forecast by rep and month (scrolls sideways)"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a frame that scrolls sideways, reached by the keyboard
      tabIndex={0}
      className="min-w-0 overflow-x-auto rounded-xl border bg-white shadow-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      data-testid="forecast-table"
    >
      <table className="w-full border-collapse text-sm">
        <caption className="sr-only">
          Booked revenue, weighted pipeline, best case, target and attainment by rep and month
        </caption>
        <thead className="bg-slate-50 text-left text-xs font-medium uppercase tracking-wide text-muted-foreground">
          <tr>
            <th scope="col" className="sticky left-0 z-10 bg-slate-50 px-3 py-2.5">
              Rep
            </th>
            {forecast.months.map((month) => (
              <th key={month} scope="col" className="whitespace-nowrap px-3 py-2.5">
                {monthLabel(month)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {forecast.rows.map((row) => (
            <tr key={row.ownerId} className="border-t align-top" data-testid="forecast-row">
              <th
                scope="row"
                className="sticky left-0 z-10 max-w-32 break-words bg-white px-3 py-2.5 text-left font-medium text-slate-900 sm:max-w-48"
              >
                {row.ownerName}
              </th>
              {row.months.map((month) => (
                <MonthCell key={month.month} month={month} />
              ))}
            </tr>
          ))}
          {showTotals && (
            <tr className="border-t-2 border-slate-200 bg-slate-50/70 align-top" data-testid="forecast-totals">
              <th scope="row" className="sticky left-0 z-10 bg-slate-50 px-3 py-2.5 text-left font-semibold">
                All reps
              </th>
              {forecast.totals.map((month) => (
                <MonthCell key={month.month} month={month} strong />
              ))}
            </tr>
          )}
        </tbody>
      </table>
    </section>
  );
}

/** One rep's (or everyone's) month: booked on top, weighted and best case below, attainment of the target. */
function MonthCell({ month, strong = false }: { month: ForecastMonth; strong?: boolean }) {
  return (
    <td className="min-w-36 px-3 py-2.5 tabular-nums" data-testid="forecast-cell">
      <div className={strong ? 'font-semibold text-slate-900' : 'font-medium text-slate-900'}>
        <span className="sr-only">Booked </span>
        {formatMoney(month.booked)}
      </div>
      <div className="whitespace-nowrap text-xs text-muted-foreground">
        <Abbr short="W" long="Weighted" /> {formatMoney(month.weighted)} · <Abbr short="BC" long="Best case" />{' '}
        {formatMoney(month.bestCase)}
      </div>
      {month.target !== null && (
        <div className="mt-1">
          {month.attainment === null ? (
            <Badge>Target {formatMoney(month.target)}</Badge>
          ) : (
            <Badge tone={attainmentTone(month.attainment)} className="whitespace-nowrap">
              {percentLabel(month.attainment)} of {formatMoney(month.target)}
            </Badge>
          )}
        </div>
      )}
    </td>
  );
}

/** A short label on screen (the table's key explains it), its words for screen readers. */
function Abbr({ short, long }: { short: string; long: string }) {
  return (
    <>
      <abbr title={long} aria-hidden className="no-underline">
        {short}
      </abbr>
      <span className="sr-only">{long}</span>
    </>
  );
}

/** The key above the table: what a cell's figures are. */
export function ForecastTableKey() {
  return (
    <p className="text-xs text-muted-foreground">
      Each month: booked revenue; <strong className="font-medium text-slate-700">W</strong> weighted pipeline ·{' '}
      <strong className="font-medium text-slate-700">BC</strong> best case (booked and the whole open pipeline); the
      badge, booked as a share of the month's target.
    </p>
  );
}
