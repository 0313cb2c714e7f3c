import type { DealSort } from '@shared/contracts/deal-vocabulary';
import type { Deal } from '@shared/contracts/deals';
import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { type Column, DataTable, type SortState } from '@/components/ui/data-table';
import { ErrorState } from '@/components/ui/feedback';
import { Label } from '@/components/ui/label';
import { LazySelect } from '@/components/ui/lazy-select';
import { Pagination } from '@/components/ui/pagination';
import { countLabel, formatDate, formatMoney } from '@/lib/format';
import { DEALS_PAGE_SIZE, useDeals } from '../api/get-deals';
import type { PipelineFilters } from '../lib/filters';
import { percent } from '../lib/format-deal';

/** The columns the server sorts by, and its key for each. */
const SORT_KEYS: Record<string, DealSort> = {
  title: 'title',
  amount: 'amount',
  probability: 'probability',
  close: 'expectedCloseDate',
  updated: 'updatedAt',
};

/** The address's `sort` (a key, -key descending) as the table's sort state; none for the list's own order. */
export function sortStateOf(sort: string | null): SortState | null {
  if (!sort) return null;
  const key = sort.replace(/^-/, '');
  const column = Object.keys(SORT_KEYS).find((id) => SORT_KEYS[id] === key);
  return column ? { column, direction: sort.startsWith('-') ? 'descending' : 'ascending' } : null;
}

/** The table's sort state as the API's `sort`; null is the list's own order (the latest change first). */
export function sortParamOf(state: SortState | null): string | null {
  const key = state && SORT_KEYS[state.column];
  if (!key) return null;
  return state.direction === 'descending' ? `-${key}` : key;
}

/** The list's own order: the latest change first. */
export const DEFAULT_LIST_SORT = '-updatedAt';

/** On a phone the rows are cards without headers: the order is chosen here instead. */
const PHONE_SORTS = [
  { value: DEFAULT_LIST_SORT, label: 'Latest change first' },
  { value: 'title', label: 'Title, A to Z' },
  { value: '-amount', label: 'Amount, highest first' },
  { value: 'amount', label: 'Amount, lowest first' },
  { value: 'expectedCloseDate', label: 'Close date, soonest first' },
  { value: '-probability', label: 'Probability, highest first' },
];

function columnsFor(showOwner: boolean, onOpen: (deal: Deal) => void): Column<Deal>[] {
  const columns: (Column<Deal> | false)[] = [
    {
      id: 'title',
      header: 'Title',
      rowHeader: true,
      cellClassName: 'min-w-[10rem]',
      cell: (deal) => (
        <button
          type="button"
          aria-haspopup="dialog"
          onClick={() => onOpen(deal)}
          className="rounded text-left font-medium text-primary hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          {deal.title}
        </button>
      ),
    },
    { id: 'customer', header: 'Customer', cellClassName: 'min-w-[8rem]', cell: (deal) => deal.customerName },
    {
      id: 'status',
      header: 'Stage',
      cell: (deal) => (
        <span className="flex flex-wrap items-center gap-1.5">
          <span className="whitespace-nowrap">{deal.stageName}</span>
          {deal.stale && <Badge tone="yellow">Stale</Badge>}
        </span>
      ),
    },
    {
      id: 'amount',
      header: 'Amount',
      align: 'right',
      cellClassName: 'whitespace-nowrap',
      cell: (deal) => formatMoney(deal.amount),
    },
    { id: 'probability', header: 'Probability', align: 'right', cell: (deal) => percent(deal.probability) },
    {
      id: 'close',
      header: 'Close date',
      cellClassName: 'whitespace-nowrap tabular-nums',
      cell: (deal) => formatDate(deal.expectedCloseDate),
    },
    showOwner && { id: 'owner', header: 'Owner', cell: (deal) => deal.ownerName },
    {
      id: 'updated',
      header: 'Updated',
      cellClassName: 'whitespace-nowrap tabular-nums',
      cell: (deal) => formatDate(deal.updatedAt),
    },
  ];
  return columns.filter((column): column is Column<Deal> => column !== false);
}

/** The list view: a page of deals at a time, sorted by the server by the header the user chose. */
export function DealsList({
  filters,
  sort,
  page,
  onSort,
  onPage,
  showOwner,
  onOpen,
  empty,
}: {
  filters: PipelineFilters;
  /** The address's sort; null is the list's own order. */
  sort: string | null;
  page: number;
  onSort: (sort: string | null) => void;
  onPage: (page: number) => void;
  showOwner: boolean;
  onOpen: (deal: Deal) => void;
  /** What an empty list shows. */
  empty: ReactNode;
}) {
  const { data, isLoading, isFetching, error } = useDeals({ filters, sort: sort ?? DEFAULT_LIST_SORT, page });
  if (error && !data) return <ErrorState title="Could not load deals">Reload the page to try again.</ErrorState>;
  const pages = data ? Math.max(1, Math.ceil(data.total / DEALS_PAGE_SIZE)) : 1;
  return (
    <>
      <h2 className="mb-3 text-base font-semibold text-slate-900" aria-live="polite" data-testid="deals-count">
        {data ? countLabel(data.total, data.totalIsLowerBound, 'deal', 'deals') : 'Loading deals...'}
      </h2>
      <div className="mb-3 grid gap-1 sm:hidden">
        <Label htmlFor="deal-phone-sort" className="text-xs text-muted-foreground">
          Sort by
        </Label>
        <LazySelect
          id="deal-phone-sort"
          value={sort ?? DEFAULT_LIST_SORT}
          onValueChange={(value) => onSort(value === DEFAULT_LIST_SORT ? null : value)}
          placeholder="Latest change first"
          display={
            PHONE_SORTS.find((option) => option.value === (sort ?? DEFAULT_LIST_SORT))?.label ?? 'Sorted by a column'
          }
          options={PHONE_SORTS}
        />
      </div>
      <DataTable
        caption="Deals"
        columns={columnsFor(showOwner, onOpen)}
        rows={data?.rows ?? []}
        rowKey={(deal) => deal.id}
        rowProps={(deal) => ({ 'data-testid': 'deal-row', 'data-deal-id': deal.id })}
        loading={!data && isLoading}
        loadingRows={6}
        busy={isFetching && !isLoading}
        empty={empty}
        frame="card"
        density="snug"
        phone="cards"
        serverSort={{
          columns: Object.keys(SORT_KEYS),
          sort: sortStateOf(sort),
          onSort: (next) => onSort(sortParamOf(next)),
        }}
      />
      {data && data.rows.length > 0 && (
        <Pagination page={page} pages={pages} more={data.totalIsLowerBound} onPageChange={onPage} className="mt-4" />
      )}
    </>
  );
}
