import type { Forecast } from '@shared/contracts/forecast';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, withQuery } from '@/lib/api-client';
import type { ForecastParams } from '../lib/params';
import { forecastQueryKey } from './keys';

/** The query of GET /api/forecast: the months from this one, a row per rep (a rep's own only), the totals. */
export const forecastPath = (path: string, params: ForecastParams) =>
  withQuery(path, { months: params.months, ownerId: params.ownerId });

/** Each rep's booked, weighted pipeline, best case, target and attainment by month (money in dollars). */
export const forecastQueryOptions = (params: ForecastParams) =>
  queryOptions({
    queryKey: [...forecastQueryKey, params],
    queryFn: () => api<Forecast>('GET', forecastPath('/api/forecast', params)),
    staleTime: 0,
  });

/** The previous figures stay on screen while those of another rep or number of months load. */
export function useForecast(params: ForecastParams, options: { enabled?: boolean } = {}) {
  return useQuery({
    ...forecastQueryOptions(params),
    enabled: options.enabled ?? true,
    placeholderData: keepPreviousData,
  });
}
