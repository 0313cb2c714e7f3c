import type { PerformanceEntry } from '@shared/contracts/performance';
import { clickThroughRate, formatMonth } from '@shared/contracts/performance-vocabulary';
import type { ReactNode } from 'react';

const number = new Intl.NumberFormat('en-US');

/** Figures by month (and contract, when several): impressions, clicks, views and the click-through rate. */
export function FiguresTable({
  entries,
  caption,
  contractName,
  actions,
}: {
  entries: PerformanceEntry[];
  caption: string;
  /** Shows a Contract column. */
  contractName?: (entry: PerformanceEntry) => string;
  actions?: (entry: PerformanceEntry) => ReactNode;
}) {
  return (
    <div className="relative overflow-x-auto rounded-lg border">
      <table className="w-full min-w-[34rem] text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-muted/60 text-left text-xs uppercase tracking-wide text-muted-foreground">
          <tr>
            <th scope="col" className="px-4 py-3 font-medium">
              Month
            </th>
            {contractName && (
              <th scope="col" className="px-4 py-3 font-medium">
                Contract
              </th>
            )}
            <th scope="col" className="px-4 py-3 text-right font-medium">
              Impressions
            </th>
            <th scope="col" className="px-4 py-3 text-right font-medium">
              Clicks
            </th>
            <th scope="col" className="px-4 py-3 text-right font-medium">
              Views
            </th>
            <th scope="col" className="px-4 py-3 text-right font-medium">
              CTR
            </th>
            {actions && (
              <th scope="col" className="px-4 py-3 text-right font-medium">
                <span className="sr-only">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody className="divide-y">
          {entries.map((entry) => (
            <tr key={`${entry.contractId}-${entry.month}`}>
              <th scope="row" className="whitespace-nowrap px-4 py-3 text-left font-medium text-slate-900">
                {formatMonth(entry.month)}
              </th>
              {contractName && <td className="px-4 py-3">{contractName(entry)}</td>}
              <td className="px-4 py-3 text-right tabular-nums">{number.format(entry.impressions)}</td>
              <td className="px-4 py-3 text-right tabular-nums">{number.format(entry.clicks)}</td>
              <td className="px-4 py-3 text-right tabular-nums">{number.format(entry.views)}</td>
              <td className="px-4 py-3 text-right tabular-nums">{clickThroughRate(entry)}</td>
              {actions && (
                <td className="px-4 py-3">
                  <div className="flex justify-end gap-2">{actions(entry)}</div>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
