import { DEAL_SOURCE_LABELS, DEAL_SOURCES } from '@shared/contracts/deal-vocabulary';
import { X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { LazySelect } from '@/components/ui/lazy-select';
import { SearchInput } from '@/components/ui/search-input';
import { SELLER_ROLES, usePeopleOptions } from '@/lib/people-options';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import type { ParamChanges } from '../hooks/use-pipeline-params';
import { hasFilters, type PipelineFilters } from '../lib/filters';

const ALL = 'all';
const SOURCE_OPTIONS = [
  { value: ALL, label: 'All sources' },
  ...DEAL_SOURCES.map((source) => ({ value: source, label: DEAL_SOURCE_LABELS[source] })),
];

/**
 * The board's and list's filters: the search (sent once typing pauses), the rep (for those who see every rep's
 * deals), the expected close month and the source.
 */
export function PipelineFilterBar({
  filters,
  onChange,
  canFilterRep,
}: {
  filters: PipelineFilters;
  onChange: (changes: ParamChanges) => void;
  canFilterRep: boolean;
}) {
  const [search, setSearch] = useState(filters.q ?? '');
  const q = useDebouncedValue(search.trim(), 300);
  const owners = usePeopleOptions({ roles: SELLER_ROLES, enabled: canFilterRep });
  // biome-ignore lint/correctness/useExhaustiveDependencies: only once typing pauses
  useEffect(() => {
    if (q !== (filters.q ?? '')) onChange({ q: q || null });
  }, [q]);
  const ownerOptions = [
    { value: ALL, label: 'All reps' },
    ...(owners.data ?? []).map((owner) => ({
      value: owner.id,
      label: owner.isActive ? owner.name : `${owner.name} (inactive)`,
    })),
  ];
  const owner = filters.ownerId ?? ALL;
  const source = filters.source ?? ALL;

  return (
    <div className="mb-4 grid gap-3 sm:grid-cols-2 lg:flex lg:flex-wrap lg:items-end">
      <div className="grid gap-1 lg:w-72">
        <span className="text-xs font-medium text-muted-foreground" aria-hidden>
          Search
        </span>
        <SearchInput
          id="deal-search"
          label="Search deals"
          placeholder="Search by title or customer"
          value={search}
          onChange={setSearch}
          className="sm:max-w-none"
        />
      </div>
      {canFilterRep && (
        <div className="grid gap-1 lg:w-52">
          <Label htmlFor="deal-rep-filter" className="text-xs text-muted-foreground">
            Rep
          </Label>
          <LazySelect
            id="deal-rep-filter"
            value={owner}
            onValueChange={(value) => onChange({ ownerId: value === ALL ? null : value })}
            placeholder={owners.isLoading ? 'Loading reps...' : 'All reps'}
            display={ownerOptions.find((option) => option.value === owner)?.label ?? 'Loading reps...'}
            options={ownerOptions}
          />
        </div>
      )}
      <div className="grid gap-1 lg:w-44">
        <Label htmlFor="deal-month-filter" className="text-xs text-muted-foreground">
          Close month
        </Label>
        <Input
          id="deal-month-filter"
          type="month"
          value={filters.month ?? ''}
          onChange={(event) => onChange({ month: event.target.value || null })}
        />
      </div>
      <div className="grid gap-1 lg:w-44">
        <Label htmlFor="deal-source-filter" className="text-xs text-muted-foreground">
          Source
        </Label>
        <LazySelect
          id="deal-source-filter"
          value={source}
          onValueChange={(value) => onChange({ source: value === ALL ? null : value })}
          placeholder="All sources"
          display={SOURCE_OPTIONS.find((option) => option.value === source)?.label}
          options={SOURCE_OPTIONS}
        />
      </div>
      {hasFilters(filters) && (
        <Button
          variant="ghost"
          className="justify-self-start"
          onClick={() => {
            setSearch('');
            onChange({ ownerId: null, month: null, source: null, q: null });
          }}
        >
          <X aria-hidden /> Clear filters
        </Button>
      )}
    </div>
  );
}
