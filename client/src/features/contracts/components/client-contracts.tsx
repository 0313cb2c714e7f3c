import type { ClientContract } from '@shared/contracts/dashboard';
import { FileText } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { type Column, DataTable } from '@/components/ui/data-table';
import { EmptyState, ErrorState } from '@/components/ui/feedback';
import { PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { contractValueText } from '@/lib/contract-value';
import { paths } from '@/lib/paths';
import { CLIENT_CONTRACTS_PAGE_SIZE, useClientContractsPage } from '../api/get-client-contracts';
import { contractTitle, formatDate, termLabel } from '../lib/format';
import { ContractStatusBadge } from './contract-status-badge';

/** A page of the server's, in its order. */
const COLUMNS: Column<ClientContract>[] = [
  {
    id: 'contract',
    header: 'Contract',
    cellClassName: 'min-w-40',
    cell: (contract) => (
      <>
        <Link
          href={paths.portalContract(contract.id)}
          className="block rounded-sm font-medium text-primary hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          {contractTitle(contract)}
        </Link>
        {contract.description && (
          <span className="line-clamp-2 text-xs text-muted-foreground">{contract.description}</span>
        )}
      </>
    ),
  },
  { id: 'status', header: 'Status', cell: (contract) => <ContractStatusBadge status={contract.status} /> },
  {
    id: 'start',
    header: 'Start Date',
    cellClassName: 'whitespace-nowrap tabular-nums',
    cell: (contract) => formatDate(contract.startDate),
  },
  {
    id: 'term',
    header: 'Term',
    cellClassName: 'whitespace-nowrap',
    cell: (contract) => termLabel(contract.termMonths),
  },
  {
    id: 'value',
    header: 'Value',
    align: 'right',
    cellClassName: 'whitespace-nowrap',
    cell: (contract) => {
      const value = contractValueText(contract);
      return (
        <span className="grid justify-items-end" data-testid="contract-value">
          <span className="tabular-nums">{value.amount}</span>
          <span className="text-xs text-muted-foreground">{value.note}</span>
        </span>
      );
    },
  },
];

/** The Contracts entry as a client sees it: their own company's contracts, read-only. */
export function ClientContracts() {
  const [page, setPage] = useState(0);
  const { data, isLoading, error, isFetching } = useClientContractsPage(page);
  const pages = data ? Math.max(1, Math.ceil(data.total / CLIENT_CONTRACTS_PAGE_SIZE)) : 1;
  return (
    <>
      <PageHeader title="Contracts" description="Your company's advertising contracts and what they cost each month." />
      <h2 className="mb-3 text-base font-semibold text-slate-900" aria-live="polite" data-testid="contracts-count">
        {data ? `${data.total} contract${data.total === 1 ? '' : 's'}` : 'Loading contracts...'}
      </h2>
      {error && !data ? (
        <ErrorState title="Could not load contracts">Reload the page to try again.</ErrorState>
      ) : (
        <>
          <DataTable
            caption="Your contracts"
            columns={COLUMNS}
            rows={data?.rows ?? []}
            rowKey={(contract) => contract.id}
            rowProps={() => ({ 'data-testid': 'contract-row' })}
            loading={!data}
            loadingRows={3}
            busy={isFetching && !isLoading}
            frame="card"
            empty={
              <EmptyState icon={<FileText />} title="No contracts found">
                Contracts appear here once your account manager sends them to you.
              </EmptyState>
            }
          />
          {data?.rows.length !== 0 && <Pagination page={page} pages={pages} onPageChange={setPage} className="mt-4" />}
        </>
      )}
    </>
  );
}
