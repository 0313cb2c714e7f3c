import { Plus } from 'lucide-react';
import { type ReactNode, useCallback, useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { CardGridSkeleton, EmptyState, ErrorState } from '@/components/ui/feedback';
import { PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { SearchInput } from '@/components/ui/search-input';
import { countLabel } from '@/lib/format';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { cn } from '@/lib/utils';

/**
 * The screens that are a "card grid with search" (ui-spec: users, customers, products, packages): a heading
 * with its create button, a search box and the screen's filters with the count, then loading, error and
 * empty states or the grid of cards and its pages. The search and the paging run on the server; each
 * screen supplies its query, its card, its filters and its dialogs.
 */

/** One page of a list as the API answers it (lib/api-client.ts apiPage). */
type ListPage<T> = { rows: T[]; total: number; totalIsLowerBound: boolean };

/** The search box's text, what is sent to the server once typing pauses, and the page shown. */
export type CardGridSearch = {
  search: string;
  setSearch: (value: string) => void;
  /** The trimmed, debounced search: the `q` of the query. */
  q: string;
  page: number;
  setPage: (page: number) => void;
};

/**
 * The search and page of a card grid. The page belongs to one search and filter: a new search, or a change
 * of any of `filters`, starts again from the first page.
 */
export function useCardGridSearch(filters: readonly unknown[] = []): CardGridSearch {
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim(), 300);
  const filterKey = JSON.stringify([q, ...filters]);
  const [paging, setPaging] = useState({ filterKey, page: 0 });
  const page = paging.filterKey === filterKey ? paging.page : 0;
  const setPage = useCallback((next: number) => setPaging({ filterKey, page: next }), [filterKey]);
  return { search, setSearch, q, page, setPage };
}

export type CardGridPageProps<T> = {
  title: string;
  description: ReactNode;
  /** The create button ("Add User", "Create Package"); none when the caller may not create. */
  create?: { label: string; onClick: () => void };
  list: CardGridSearch;
  searchBox: { id: string; label: string; placeholder: string; className?: string };
  /** The screen's filters, between the search box and the count. */
  filters?: ReactNode;
  /** Whether the search row wraps (a screen with several filters). */
  wrapFilters?: boolean;
  /** The count beside the search ("3 users", "1,000+ customers"), found by its test id. */
  count: { testId: string; singular: string; plural: string };
  query: { data: ListPage<T> | undefined; isLoading: boolean; isFetching: boolean; error: unknown };
  pageSize: number;
  /** Cards drawn while the first page loads. */
  skeletonCount?: number;
  errorTitle: string;
  /** What an empty page says: the screen words it for a search that found nothing or an empty list. */
  empty: { icon: ReactNode; title: string; text: string };
  /** The grid's accessible name ("Users"). */
  gridLabel: string;
  keyOf: (row: T) => string;
  card: (row: T) => ReactNode;
  /** The screen's dialogs. */
  children?: ReactNode;
};

export function CardGridPage<T>({
  title,
  description,
  create,
  list,
  searchBox,
  filters,
  wrapFilters = false,
  count,
  query,
  pageSize,
  skeletonCount = 6,
  errorTitle,
  empty,
  gridLabel,
  keyOf,
  card,
  children,
}: CardGridPageProps<T>) {
  const { data, isLoading, isFetching, error } = query;
  const { page, setPage } = list;

  // Deleting the last card of the last page steps back a page.
  const lastPage = data ? Math.max(0, Math.ceil(data.total / pageSize) - 1) : 0;
  useEffect(() => {
    if (data && data.rows.length === 0 && page > lastPage) setPage(lastPage);
  }, [data, page, lastPage, setPage]);

  const pages = data ? Math.max(1, Math.ceil(data.total / pageSize)) : 1;

  return (
    <>
      <PageHeader
        title={title}
        description={description}
        actions={
          create && (
            <Button onClick={create.onClick}>
              <Plus aria-hidden /> {create.label}
            </Button>
          )
        }
      />

      <div className={cn('mb-4 flex flex-col gap-3 sm:flex-row sm:items-center', wrapFilters && 'sm:flex-wrap')}>
        <SearchInput {...searchBox} value={list.search} onChange={list.setSearch} />
        {filters}
        <p className="text-sm text-muted-foreground sm:ml-auto" aria-live="polite" data-testid={count.testId}>
          {data ? countLabel(data.total, data.totalIsLowerBound, count.singular, count.plural) : '\u00a0'}
        </p>
      </div>

      {isLoading && <CardGridSkeleton count={skeletonCount} />}
      {error && !data && <ErrorState title={errorTitle}>Reload the page to try again.</ErrorState>}
      {data && data.rows.length === 0 && (
        <EmptyState icon={empty.icon} title={empty.title}>
          {empty.text}
        </EmptyState>
      )}
      {data && data.rows.length > 0 && (
        <>
          <ul
            aria-label={gridLabel}
            aria-busy={isFetching}
            className={`grid grid-cols-1 gap-4 transition-opacity sm:grid-cols-2 xl:grid-cols-3 ${isFetching ? 'opacity-70' : ''}`}
          >
            {data.rows.map((row) => (
              <li key={keyOf(row)} className="grid min-w-0 grid-cols-1">
                {card(row)}
              </li>
            ))}
          </ul>
          <Pagination page={page} pages={pages} more={data.totalIsLowerBound} onPageChange={setPage} />
        </>
      )}

      {children}
    </>
  );
}
