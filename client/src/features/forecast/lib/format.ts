import type { ForecastMonth } from '@shared/contracts/forecast';
import { centsToAmount, parseMoney } from '@shared/money';

const LONG = new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });
const SHORT = new Intl.DateTimeFormat('en-US', { month: 'short', year: '2-digit', timeZone: 'UTC' });
const at = (month: string) => new Date(`${month}-01T00:00:00Z`);

/** "2027-03" as "Mar 2027" (the table's headers, the targets' labels). */
export const monthLabel = (month: string) => LONG.format(at(month));

/** "2027-03" as "Mar 27" (the chart's axis). */
export const shortMonthLabel = (month: string) => SHORT.format(at(month)).replace(' ', " '");

const COMPACT = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  notation: 'compact',
  minimumFractionDigits: 0,
  maximumFractionDigits: 1,
});

/** Dollars as "$20K", "$1.5M" (the chart's axis only: every figure a person reads elsewhere is formatMoney's). */
export const compactMoney = (dollars: number) => COMPACT.format(dollars);

/** A round step for about `count` gridlines up to `max`: 1, 2, 2.5 or 5 times a power of ten. */
export function niceStep(max: number, count = 4): number {
  if (max <= 0) return 1;
  const rough = max / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].find((factor) => factor * power >= rough) ?? 10;
  return step * power;
}

/** Attainment in percent as the API answers it (one decimal at most): "85%", "112.5%". */
export const percentLabel = (percent: number) => `${percent.toLocaleString('en-US', { maximumFractionDigits: 1 })}%`;

/** How far a month is towards its target: the badge's tone. */
export function attainmentTone(percent: number): 'green' | 'yellow' | 'grey' {
  if (percent >= 100) return 'green';
  if (percent >= 50) return 'yellow';
  return 'grey';
}

type Figure = 'booked' | 'weighted' | 'bestCase' | 'target';

/** A figure added up over months, in exact cents (a month without a target adds nothing to the targets). */
export function sumOf(months: ForecastMonth[], figure: Figure): number {
  let cents = 0;
  for (const month of months) cents += parseMoney(month[figure] ?? 0) ?? 0;
  return centsToAmount(cents);
}
