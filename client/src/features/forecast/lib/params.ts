/** What the screen asks the forecast for: how many months from this one, and one rep (managers and admins). */
export type ForecastParams = { months: number; ownerId?: string };

/** The numbers of months the screen offers; 12 is the product's (and the API's) default. */
export const MONTH_CHOICES = [6, 12, 24] as const;
export const DEFAULT_MONTHS = 12;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The parameters of an address (?months=24&ownerId=...): a number of months offered, else 12; a rep's id or none. */
export function paramsFrom(search: URLSearchParams): ForecastParams {
  const months = Number(search.get('months'));
  const ownerId = search.get('ownerId') ?? '';
  return {
    months: (MONTH_CHOICES as readonly number[]).includes(months) ? months : DEFAULT_MONTHS,
    ...(UUID.test(ownerId) ? { ownerId } : {}),
  };
}
