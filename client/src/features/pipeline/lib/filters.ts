import { DEAL_SOURCES, type DealSource } from '@shared/contracts/deal-vocabulary';

/** What the board and the list are narrowed to; each lives in the address (?ownerId=&month=&source=&q=). */
export type PipelineFilters = {
  /** A rep's deals (managers and admins only). */
  ownerId?: string;
  /** The expected close month, YYYY-MM. */
  month?: string;
  source?: DealSource;
  /** The search, trimmed: a deal's title or its customer's name. */
  q?: string;
};

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The first and last day of a YYYY-MM month: `2026-02` is 2026-02-01 to 2026-02-28. */
export function monthRange(month: string): { closeFrom: string; closeTo: string } | null {
  const match = MONTH.exec(month);
  if (!match) return null;
  const [year, monthNumber] = [Number(match[1]), Number(match[2])];
  const lastDay = new Date(Date.UTC(year, monthNumber, 0)).getUTCDate();
  return { closeFrom: `${month}-01`, closeTo: `${month}-${String(lastDay).padStart(2, '0')}` };
}

/** The filters as the API's query parameters (GET /api/deals, GET /api/pipeline/summary). */
export function filterParams(filters: PipelineFilters): Record<string, string | undefined> {
  const range = filters.month ? monthRange(filters.month) : null;
  return {
    ownerId: filters.ownerId,
    closeFrom: range?.closeFrom,
    closeTo: range?.closeTo,
    source: filters.source,
    q: filters.q || undefined,
  };
}

/** The filters an address carries; a value the API would refuse is left out. */
export function filtersFromParams(params: URLSearchParams): PipelineFilters {
  const ownerId = params.get('ownerId') ?? '';
  const month = params.get('month') ?? '';
  const source = params.get('source') ?? '';
  const q = (params.get('q') ?? '').trim().slice(0, 200);
  return {
    ownerId: UUID.test(ownerId) ? ownerId : undefined,
    month: MONTH.test(month) ? month : undefined,
    source: DEAL_SOURCES.find((s) => s === source),
    q: q || undefined,
  };
}

export const hasFilters = (filters: PipelineFilters) =>
  Boolean(filters.ownerId || filters.month || filters.source || filters.q);
