import type { PerformanceEntry } from '@shared/contracts/performance';
import { arrayOf, nullableString, number, object, string } from '../../lib/response-schema';

/** A month's campaign figures as the API answers them (lib/response-schema.ts): only these fields are ever sent. */
export const performanceEntryResponse = object<PerformanceEntry>({
  contractId: string,
  contractTitle: nullableString,
  month: string,
  impressions: number,
  clicks: number,
  views: number,
  updatedAt: string,
  updatedByName: nullableString,
});
export const performanceListResponse = arrayOf(performanceEntryResponse);
