import type { Report, ReportRange } from '@shared/contracts/reports';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const reportQueryOptions = (range: ReportRange) =>
  queryOptions({
    queryKey: ['/api/reports', { range }],
    queryFn: () => api<Report>('GET', `/api/reports?range=${range}`),
    staleTime: 30_000,
  });

/** The report of one range; the previous range's figures stay on screen while the next one loads. */
export function useReport(range: ReportRange) {
  return useQuery({ ...reportQueryOptions(range), placeholderData: keepPreviousData });
}
