import { DUNNING_STAGE_LABELS, DUNNING_STAGES, type DunningStage } from '@shared/contracts/invoice-vocabulary';
import {
  AGING_BUCKET_LABELS,
  AGING_BUCKETS,
  type AgingBucket,
  RECEIVABLES_SORT_LABELS,
  RECEIVABLES_SORTS,
  type ReceivablesSort,
} from '@shared/contracts/receivables-vocabulary';
import { can } from '@shared/permissions';
import { Download, HandCoins, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'wouter';
import { Button } from '@/components/ui/button';
import { AccessDenied, EmptyState, ErrorState } from '@/components/ui/feedback';
import { Label } from '@/components/ui/label';
import { PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { SearchInput } from '@/components/ui/search-input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { useCurrentUser } from '@/features/auth/api/me';
import { useExportReceivables } from '@/features/receivables/api/export-receivables';
import {
  RECEIVABLES_PAGE_SIZE,
  type ReceivablesFilter,
  useReceivables,
} from '@/features/receivables/api/get-receivables';
import { useReceivablesSummary } from '@/features/receivables/api/get-receivables-summary';
import { ReceivablesSummaryCards } from '@/features/receivables/components/receivables-summary';
import { ReceivablesTable } from '@/features/receivables/components/receivables-table';
import { countLabel } from '@/lib/format';
import { useDebouncedValue } from '@/lib/use-debounced-value';

const oneOf = <T extends string>(values: readonly T[], value: string | null, fallback: T): T =>
  values.find((v) => v === value) ?? fallback;

/**
 * Receivables (finance, admins, managers): every customer owing money or holding credit, aged by days past due,
 * with its dunning stage, credit and last payment; totals above; filters kept in the address; CSV export.
 */
export default function ReceivablesPage() {
  const { user } = useCurrentUser();
  const allowed = can(user, 'receivables:read');
  const [params, setParams] = useSearchParams();
  const bucket = oneOf<AgingBucket | 'all'>([...AGING_BUCKETS, 'all'], params.get('bucket'), 'all');
  const stage = oneOf<DunningStage | 'all'>([...DUNNING_STAGES, 'all'], params.get('stage'), 'all');
  const credit = params.get('credit') === 'true';
  const autopayFailed = params.get('autopay') === 'failed';
  const sort = oneOf<ReceivablesSort>(RECEIVABLES_SORTS, params.get('sort'), 'balance');
  const setParam = (key: string, value: string | null) =>
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (value === null) next.delete(key);
        else next.set(key, value);
        return next;
      },
      { replace: true },
    );
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(0);
  const filter: ReceivablesFilter = { q, bucket, stage, credit, autopayFailed, sort };
  const list = useReceivables(filter, page, { enabled: allowed });
  const summary = useReceivablesSummary({ q, bucket, stage, credit, autopayFailed }, { enabled: allowed });
  const exporting = useExportReceivables();

  // A new search or filter starts again from the first page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the search or a filter changes
  useEffect(() => setPage(0), [q, bucket, stage, credit, autopayFailed, sort]);

  if (!allowed) return <AccessDenied message="You don't have permission to view receivables" />;

  const data = list.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / RECEIVABLES_PAGE_SIZE)) : 1;
  const filtered = q !== '' || bucket !== 'all' || stage !== 'all' || credit || autopayFailed;
  const clear = () => {
    setSearch('');
    setParams(sort === 'balance' ? {} : { sort }, { replace: true });
  };

  return (
    <>
      <PageHeader
        title="Receivables"
        description="Who owes what: open balances by age, how far dunning has chased each customer, credit and last payments."
        actions={
          <Button
            variant="outline"
            onClick={() => exporting.mutate(filter)}
            disabled={exporting.isPending}
            aria-label="Export receivables as CSV"
          >
            <Download aria-hidden /> {exporting.isPending ? 'Exporting...' : 'Export CSV'}
          </Button>
        }
      />

      <ReceivablesSummaryCards
        summary={summary.data}
        loading={summary.isLoading}
        bucket={bucket}
        onBucket={(next) => setParam('bucket', next === 'all' ? null : next)}
      />

      <div className="mb-4 grid gap-3 sm:grid-cols-2 xl:flex xl:flex-wrap xl:items-end">
        <SearchInput
          id="receivables-search"
          label="Search customers"
          placeholder="Customer name"
          value={search}
          onChange={setSearch}
          className="sm:max-w-none xl:max-w-xs"
        />
        <div className="grid gap-1 xl:w-40">
          <Label htmlFor="receivables-bucket" className="text-xs text-muted-foreground">
            Age
          </Label>
          <Select value={bucket} onValueChange={(value) => setParam('bucket', value === 'all' ? null : value)}>
            <SelectTrigger id="receivables-bucket" aria-label="Filter by age">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value="all">Any age</SelectItem>
              {AGING_BUCKETS.map((b) => (
                <SelectItem key={b} value={b}>
                  {AGING_BUCKET_LABELS[b]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <div className="grid gap-1 xl:w-60">
          <Label htmlFor="receivables-stage" className="text-xs text-muted-foreground">
            Dunning stage
          </Label>
          <Select value={stage} onValueChange={(value) => setParam('stage', value === 'all' ? null : value)}>
            <SelectTrigger id="receivables-stage" aria-label="Filter by dunning stage">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value="all">Any stage</SelectItem>
              {DUNNING_STAGES.map((s) => (
                <SelectItem key={s} value={s}>
                  {DUNNING_STAGE_LABELS[s]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <div className="grid gap-1 xl:w-44">
          <Label htmlFor="receivables-sort" className="text-xs text-muted-foreground">
            Order
          </Label>
          <Select value={sort} onValueChange={(value) => setParam('sort', value === 'balance' ? null : value)}>
            <SelectTrigger id="receivables-sort" aria-label="Order by">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {RECEIVABLES_SORTS.map((s) => (
                <SelectItem key={s} value={s}>
                  {RECEIVABLES_SORT_LABELS[s]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <div className="flex h-9 items-center gap-2">
          <Switch
            id="receivables-credit"
            checked={credit}
            onCheckedChange={(checked) => setParam('credit', checked ? 'true' : null)}
          />
          <Label htmlFor="receivables-credit">Only with credit</Label>
        </div>
        <div className="flex h-9 items-center gap-2">
          <Switch
            id="receivables-autopay"
            checked={autopayFailed}
            onCheckedChange={(checked) => setParam('autopay', checked ? 'failed' : null)}
          />
          <Label htmlFor="receivables-autopay">Autopay failed</Label>
        </div>
        {filtered && (
          <Button variant="ghost" onClick={clear} className="justify-self-start">
            <X aria-hidden /> Clear filters
          </Button>
        )}
      </div>

      <h2 className="mb-3 text-base font-semibold text-slate-900" aria-live="polite" data-testid="receivables-count">
        {data ? countLabel(data.total, false, 'customer', 'customers') : 'Loading receivables...'}
      </h2>

      {list.error && !data ? (
        <ErrorState title="Could not load receivables">Reload the page to try again.</ErrorState>
      ) : (
        <ReceivablesTable
          rows={data?.rows ?? []}
          loading={!data}
          busy={list.isFetching && !list.isLoading}
          empty={
            <EmptyState icon={<HandCoins />} title="No receivables found">
              {filtered ? 'Try another search or filter.' : 'No customer owes money or holds credit right now.'}
            </EmptyState>
          }
        />
      )}
      {data && data.rows.length > 0 && <Pagination page={page} pages={pages} onPageChange={setPage} className="mt-4" />}
    </>
  );
}
