import type { Forecast, ForecastMonth, ForecastRow } from '@shared/contracts/forecast';
import { arrayOf, integer, nullableNumber, number, object, string } from '../../lib/response-schema';

/** The forecast as the API answers it (lib/response-schema.ts); money in dollars. */
const monthResponse = object<ForecastMonth>({
  month: string,
  booked: number,
  weighted: number,
  bestCase: number,
  target: nullableNumber,
  attainment: nullableNumber,
});

export const forecastResponse = object<Forecast>({
  months: arrayOf(string),
  rows: arrayOf(object<ForecastRow>({ ownerId: string, ownerName: string, months: arrayOf(monthResponse) })),
  totals: arrayOf(monthResponse),
});

export const targetsSavedResponse = object<{ saved: number }>({ saved: integer });
