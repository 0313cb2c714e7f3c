import type { Forecast, ForecastMonth } from '@shared/contracts/forecast';
import { QueryClient } from '@tanstack/react-query';

/** A forecast as the API answers it (money in dollars, attainment in percent), for the forecast's component tests. */

export const RILEY = '30000000-0000-4000-8000-000000000001';
export const SAM = '30000000-0000-4000-8000-000000000002';
export const PAT = '30000000-0000-4000-8000-000000000003';

const month = (
  key: string,
  booked: number,
  weighted: number,
  bestCase: number,
  target: number | null,
  attainment: number | null,
): ForecastMonth => ({ month: key, booked, weighted, bestCase, target, attainment });

export const FORECAST: Forecast = {
  months: ['2027-03', '2027-04', '2027-05'],
  rows: [
    {
      ownerId: RILEY,
      ownerName: 'Riley Rep',
      months: [
        month('2027-03', 12000, 1250.5, 17000, 15000, 80),
        month('2027-04', 0, 0, 0, null, null),
        month('2027-05', 3000, 500, 4000, 0, null),
      ],
    },
    {
      ownerId: SAM,
      ownerName: 'Sam Seller',
      months: [
        month('2027-03', 8000, 0, 8000, 5000, 160),
        month('2027-04', 2500, 750, 5500, 10000, 25),
        month('2027-05', 0, 0, 0, null, null),
      ],
    },
  ],
  totals: [
    month('2027-03', 20000, 1250.5, 25000, 20000, 100),
    month('2027-04', 2500, 750, 5500, 10000, 25),
    month('2027-05', 3000, 500, 4000, 0, null),
  ],
};

/** A query client as the app's (nothing refetches by itself, nothing is retried), for data the test puts in. */
export const testQueryClient = () =>
  new QueryClient({
    defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY, retry: false }, mutations: { retry: false } },
  });
