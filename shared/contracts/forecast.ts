import { z } from 'zod';
import { moneyCents } from './common';

/**
 * The forecast (product.md section 19): for each of the next months, by rep, what is booked (signed and running
 * contracts, by the billing engine), the open pipeline weighted by probability and spread over each deal's
 * flight by days, the best case (booked and the whole pipeline), the month's target and its attainment.
 */

export const MAX_FORECAST_MONTHS = 24;

const uuid = (message: string) => z.string({ message }).trim().uuid(message);

/** GET /api/forecast and its CSV. */
export const forecastQuerySchema = z.object({
  months: z.coerce
    .number({ message: `months must be a whole number from 1 to ${MAX_FORECAST_MONTHS}` })
    .int(`months must be a whole number from 1 to ${MAX_FORECAST_MONTHS}`)
    .min(1, `months must be a whole number from 1 to ${MAX_FORECAST_MONTHS}`)
    .max(MAX_FORECAST_MONTHS, `months must be a whole number from 1 to ${MAX_FORECAST_MONTHS}`)
    .default(12),
  ownerId: uuid('Owner not found').optional(),
});
export type ForecastQuery = z.output<typeof forecastQuerySchema>;

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/**
 * PUT /api/forecast/targets: the targets given are set (a month's amount per rep), those given as null removed,
 * the others left as they are.
 */
export const forecastTargetsSchema = z.object({
  targets: z
    .array(
      z.object({
        ownerId: uuid('Choose a sales rep'),
        month: z.string({ message: 'Month must be YYYY-MM' }).trim().regex(MONTH, 'Month must be YYYY-MM'),
        /** null: the month has no target any more. */
        amount: moneyCents({
          required: 'Target is required',
          negative: 'A target cannot be negative',
          invalid: 'Target must be an amount in dollars with at most two decimals, like 25000.00',
        }).nullable(),
      }),
      { message: 'Targets must be a list' },
    )
    .min(1, 'Set at least one target')
    .max(MAX_FORECAST_MONTHS * 50, 'Too many targets at once'),
});
export type ForecastTargetsValues = z.output<typeof forecastTargetsSchema>;
export type ForecastTargetsInput = z.input<typeof forecastTargetsSchema>;

/** One month of one rep (or of everyone); money in dollars; attainment in percent of the target (null without one). */
export type ForecastMonth = {
  month: string;
  booked: number;
  weighted: number;
  bestCase: number;
  target: number | null;
  attainment: number | null;
};

export type ForecastRow = { ownerId: string; ownerName: string; months: ForecastMonth[] };

export type Forecast = { months: string[]; rows: ForecastRow[]; totals: ForecastMonth[] };
