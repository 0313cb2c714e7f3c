/**
 * What a contract being written on the form will bill, from the billing engine (shared/contract-figures.ts):
 * the first invoice, the regular and in-season monthly amounts, each one-time charge, the value over the term,
 * with each line's metric, in-season price and flight as the server will store them
 * (shared/contracts/line-flight.ts). Its own module, so that the form paints before the engine has loaded.
 */
import type { TaxRule } from '../billing';
import { type ContractFigures, contractFigures } from '../contract-figures';
import type { Cents } from '../money';
import type { ContractFormValues } from './contract-form';
import type { CountedFormLine, FormProductFacts } from './contract-form-values';
import { computeAutoStopDate } from './contract-lifecycle';
import { parseWhole, termIssue } from './contract-vocabulary';
import { soldFlight } from './line-flight';

/** The figures of the form's complete lines (formTotals' `counted`); null while the start date or term is not valid. */
export function formFigures(
  values: Partial<Pick<ContractFormValues, 'startDate' | 'termMonths'>>,
  lines: readonly CountedFormLine[],
  options: {
    packagePriceCents: Cents;
    setupFeeCents: Cents;
    productsById?: Record<string, FormProductFacts | undefined>;
    tax?: Pick<TaxRule, 'rateBp' | 'included'>;
  },
): ContractFigures | null {
  const startDate = (values.startDate ?? '').trim().slice(0, 10);
  const termText = (values.termMonths ?? '').trim();
  const termMonths = termText === '' ? null : parseWhole(termText);
  if (!isCalendarDay(startDate) || (termMonths !== null && termIssue(termMonths))) return null;
  const termEnd = computeAutoStopDate(startDate, termMonths);
  const billable = lines.map((line) => {
    const product = options.productsById?.[line.productId];
    const priceMetric = product?.priceMetric ?? 'monthly';
    const flight = soldFlight(
      {
        flightStart: isCalendarDay(line.flightStart) ? line.flightStart : null,
        flightEnd: isCalendarDay(line.flightEnd) ? line.flightEnd : null,
      },
      { priceMetric, defaultDuration: product?.defaultDuration ?? null, inventoryRequired: product?.inventoryRequired },
      { startDate, termEnd },
    );
    return { ...line, description: product?.name ?? '', priceMetric, ...flight };
  });
  return contractFigures(
    {
      startDate,
      autoStopDate: termEnd,
      lines: billable,
      // The package's name plays no part in the figures; only whether there is one.
      packageName: options.packagePriceCents > 0 ? '' : null,
      packagePriceCents: options.packagePriceCents,
      setupFeeCents: options.setupFeeCents,
    },
    { tax: options.tax, from: startDate },
  );
}

/** A real calendar day written YYYY-MM-DD (2026-02-30 is not). */
function isCalendarDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const time = Date.parse(`${text}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === text;
}
