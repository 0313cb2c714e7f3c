/**
 * The totals of the searchable lists (contracts, customers, invoices, credit notes): a list counts its
 * matches up to COUNT_LIMIT past the page's start and stops there, so a count never reads more rows than
 * that, however large the table or broad the search. Beyond it the total is a lower bound: the answer says so
 * with `X-Total-Count-Lower-Bound: true` (server/lib/http.ts) and the screens read "1,000+".
 *
 * The count statement is `select count(*) from (select 1 ... where <the page's conditions> limit <bound + 1>)`.
 */
export const COUNT_LIMIT = 1_000;

export type BoundedTotal = { total: number; totalIsLowerBound: boolean };

/** How many matches a page's count reads at most: COUNT_LIMIT, or the end of the page when it lies further. */
export function countBound(page: { offset: number; limit: number }): number {
  return Math.max(COUNT_LIMIT, page.offset + page.limit);
}

/** The total a page answers from a count of at most `bound + 1` rows. */
export function boundedTotal(counted: number, bound: number): BoundedTotal {
  return counted > bound ? { total: bound, totalIsLowerBound: true } : { total: counted, totalIsLowerBound: false };
}
