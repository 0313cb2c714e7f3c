import type { ContractSummary } from '@shared/contracts/contract-responses';
import {
  CONTRACT_STATUS_LABELS,
  CONTRACT_STATUSES,
  type ContractStatus,
  PAUSE_REASONS,
  PAUSED_FOR_NON_PAYMENT,
  type PauseReason,
} from '@shared/contracts/contract-vocabulary';
import { can } from '@shared/permissions';
import { FileText, Plus, Upload, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button';
import { AccessDenied, EmptyState, ErrorState } from '@/components/ui/feedback';
import { Label } from '@/components/ui/label';
import { LazySelect } from '@/components/ui/lazy-select';
import { lazyWhen } from '@/components/ui/lazy-when';
import { PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { SearchInput } from '@/components/ui/search-input';
import { useCurrentUser } from '@/features/auth/api/me';
import { CONTRACTS_PAGE_SIZE, useContracts } from '@/features/contracts/api/get-contracts';
import { ClientContracts } from '@/features/contracts/components/client-contracts';
import { ContractsTable } from '@/features/contracts/components/contracts-table';
import { useContractAccess } from '@/features/contracts/hooks/use-contract-access';
import { paths } from '@/lib/paths';
import { useDebouncedValue } from '@/lib/use-debounced-value';

// Dialogs load the first time they open (docs/decisions/017-performance.md).
const ContractFormDialog = lazyWhen(
  () => import('@/features/contracts/components/contract-form-dialog').then((module) => module.ContractFormDialog),
  (props) => props.contractId !== null,
);
const ImportDeliveryDialog = lazyWhen(
  () => import('@/features/delivery/components/import-delivery-dialog').then((module) => module.ImportDeliveryDialog),
  (props) => props.open,
);
const DeleteContractDialog = lazyWhen(
  () => import('@/features/contracts/components/delete-contract-dialog').then((module) => module.DeleteContractDialog),
  (props) => props.contract !== null,
);

type StatusFilter = ContractStatus | 'all';
type ReasonFilter = PauseReason | 'all';

/** The reason filter's options beside the status filter (whose options stay ui-spec's). */
const REASON_LABELS: Record<ReasonFilter, string> = {
  all: 'Any reason',
  manual: 'Paused by staff',
  non_payment: PAUSED_FOR_NON_PAYMENT,
};

// The filters paint without the Radix select, which loads when one is first used (lazy-select.tsx): it kept this
// screen's first load within its budget (docs/performance.md, "Client weight").
const STATUS_OPTIONS: { value: StatusFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  ...CONTRACT_STATUSES.map((s) => ({ value: s, label: CONTRACT_STATUS_LABELS[s] })),
];
const REASON_OPTIONS = (['all', ...PAUSE_REASONS] as ReasonFilter[]).map((r) => ({
  value: r,
  label: REASON_LABELS[r],
}));

/** A link may open the list filtered by status (?status=paused: the Reports screen's status counts). */
function statusFromUrl(): StatusFilter {
  const value = new URLSearchParams(window.location.search).get('status');
  return CONTRACT_STATUSES.find((status) => status === value) ?? 'all';
}

/** ?reason=non_payment: the Reports screen's "paused for non-payment" alert. */
function reasonFromUrl(): ReasonFilter {
  const value = new URLSearchParams(window.location.search).get('reason');
  return PAUSE_REASONS.find((reason) => reason === value) ?? 'all';
}

/** ?expiring=30: the Reports screen's "expiring within 30 days" alert (running contracts ending that soon). */
function expiringFromUrl(): number | undefined {
  const value = Number(new URLSearchParams(window.location.search).get('expiring'));
  return Number.isInteger(value) && value >= 1 && value <= 366 ? value : undefined;
}

export default function ContractsPage() {
  const { canRead, canReadOwnCompany } = useContractAccess();
  // A client sees their own company's contracts (read-only), not the staff's list.
  if (!canRead && canReadOwnCompany) return <ClientContracts />;
  return <StaffContracts />;
}

function StaffContracts() {
  const { canRead, canWrite } = useContractAccess();
  const { user } = useCurrentUser();
  const canImportDelivery = can(user, 'delivery:write:any') || can(user, 'delivery:write:own');
  const [importing, setImporting] = useState(false);
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim(), 300);
  const [status, setStatus] = useState<StatusFilter>(statusFromUrl);
  const [reason, setReason] = useState<ReasonFilter>(reasonFromUrl);
  const [expiring, setExpiring] = useState<number | undefined>(expiringFromUrl);
  const [page, setPage] = useState(0);
  const [editingId, setEditingId] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<ContractSummary | null>(null);
  const { data, isLoading, isFetching, error } = useContracts(
    { q, status, reason, expiring, page },
    { enabled: canRead },
  );

  // A new search or filter starts again from the first page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the search or filter changes
  useEffect(() => setPage(0), [q, status, reason, expiring]);
  // Deleting the last contract of the last page steps back a page.
  useEffect(() => {
    if (data && data.rows.length === 0 && page > 0) {
      setPage(Math.max(0, Math.ceil(data.total / CONTRACTS_PAGE_SIZE) - 1));
    }
  }, [data, page]);

  if (!canRead) return <AccessDenied message="You don't have permission to view contracts" />;

  const pages = data ? Math.max(1, Math.ceil(data.total / CONTRACTS_PAGE_SIZE)) : 1;
  const filtered = q !== '' || status !== 'all' || reason !== 'all' || expiring !== undefined;

  return (
    <>
      <PageHeader
        title="Contracts"
        description="Recurring advertising contracts, their status and payment links."
        actions={
          (canWrite || canImportDelivery) && (
            <>
              {canImportDelivery && (
                <Button variant="outline" onClick={() => setImporting(true)}>
                  <Upload aria-hidden /> Import Delivery
                </Button>
              )}
              {canWrite && (
                <Button asChild>
                  <Link href={paths.newContract}>
                    <Plus aria-hidden /> New Contract
                  </Link>
                </Button>
              )}
            </>
          )
        }
      />

      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center">
        <SearchInput
          id="contract-search"
          label="Search contracts"
          placeholder="Search by description or contract ID"
          value={search}
          onChange={setSearch}
        />
        <div className="flex items-center gap-2 sm:w-52">
          <Label htmlFor="contract-status-filter" className="sr-only">
            Filter by status
          </Label>
          <LazySelect
            id="contract-status-filter"
            value={status}
            onValueChange={(value) => setStatus(value as StatusFilter)}
            placeholder="All"
            display={STATUS_OPTIONS.find((option) => option.value === status)?.label}
            options={STATUS_OPTIONS}
          />
        </div>
        <div className="flex items-center gap-2 sm:w-60">
          <Label htmlFor="contract-reason-filter" className="sr-only">
            Filter by pause reason
          </Label>
          <LazySelect
            id="contract-reason-filter"
            value={reason}
            onValueChange={(value) => setReason(value as ReasonFilter)}
            placeholder={REASON_LABELS.all}
            display={REASON_LABELS[reason]}
            options={REASON_OPTIONS}
          />
        </div>
        {expiring !== undefined && (
          <Button
            variant="outline"
            size="sm"
            onClick={() => setExpiring(undefined)}
            className="self-start sm:self-auto"
          >
            Ending within {expiring} days <X aria-hidden />
            <span className="sr-only">(remove this filter)</span>
          </Button>
        )}
      </div>

      <h2 className="mb-3 text-base font-semibold text-slate-900" aria-live="polite" data-testid="contracts-count">
        {data ? countHeading(data.total, data.totalIsLowerBound, status, reason, expiring) : 'Loading contracts...'}
      </h2>

      {error && !data ? (
        <ErrorState title="Could not load contracts">Reload the page to try again.</ErrorState>
      ) : (
        <>
          <ContractsTable
            rows={data?.rows ?? []}
            loading={!data}
            busy={isFetching && !isLoading}
            canWrite={canWrite}
            empty={
              <EmptyState icon={<FileText />} title="No contracts found">
                {filtered
                  ? 'Try another search or status.'
                  : canWrite
                    ? 'Create the first one with "New Contract".'
                    : 'Contracts appear here once they are created.'}
              </EmptyState>
            }
            onEdit={(contract) => setEditingId(contract.id)}
            onDelete={(contract) => setDeleting(contract)}
          />
          {data?.rows.length !== 0 && (
            <Pagination
              page={page}
              pages={pages}
              more={data?.totalIsLowerBound}
              onPageChange={setPage}
              className="mt-4"
            />
          )}
        </>
      )}

      {canWrite && <ContractFormDialog contractId={editingId} onClose={() => setEditingId(null)} />}
      {canWrite && <DeleteContractDialog contract={deleting} onClose={() => setDeleting(null)} />}
      {canImportDelivery && <ImportDeliveryDialog open={importing} onClose={() => setImporting(false)} />}
    </>
  );
}

/**
 * "20 contracts", "3 active contracts", "2 contracts paused for non-payment", "4 contracts ending within 30 days";
 * a count that stopped early reads "1,000+ contracts".
 */
function countHeading(
  total: number,
  lowerBound: boolean,
  status: StatusFilter,
  reason: ReasonFilter,
  expiring: number | undefined,
): string {
  const noun = total === 1 && !lowerBound ? 'contract' : 'contracts';
  const figure = lowerBound ? `${total.toLocaleString('en-US')}+` : `${total}`;
  const head =
    status === 'all' ? `${figure} ${noun}` : `${figure} ${CONTRACT_STATUS_LABELS[status].toLowerCase()} ${noun}`;
  const why = reason === 'all' ? '' : ` ${REASON_LABELS[reason].toLowerCase()}`;
  return `${head}${why}${expiring === undefined ? '' : ` ending within ${expiring} days`}`;
}
