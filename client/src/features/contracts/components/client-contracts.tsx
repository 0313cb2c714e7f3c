import { FileText } from 'lucide-react';
import { useState } from 'react';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/feedback';
import { PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { CLIENT_CONTRACTS_PAGE_SIZE, useClientContractsPage } from '../api/get-client-contracts';
import { contractTitle, formatDate, formatMoney, termLabel } from '../lib/format';
import { ContractStatusBadge } from './contract-status-badge';

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
      {isLoading && <Skeleton className="h-48 rounded-xl" aria-busy="true" />}
      {error && !data && <ErrorState title="Could not load contracts">Reload the page to try again.</ErrorState>}
      {data && data.rows.length === 0 && (
        <EmptyState icon={<FileText />} title="No contracts found">
          Contracts appear here once your account manager sends them to you.
        </EmptyState>
      )}
      {data && data.rows.length > 0 && (
        <>
          <div className="overflow-x-auto rounded-xl border bg-white shadow-sm">
            <table className="w-full text-sm" aria-busy={isFetching}>
              <caption className="sr-only">Your contracts</caption>
              <thead className="bg-muted/60 text-left text-xs uppercase tracking-wide text-muted-foreground">
                <tr>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Contract
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Status
                  </th>
                  <th scope="col" className="whitespace-nowrap px-4 py-3 font-medium">
                    Start Date
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Term
                  </th>
                  <th scope="col" className="px-4 py-3 text-right font-medium">
                    Monthly
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.rows.map((contract) => (
                  <tr key={contract.id} className="border-t align-top" data-testid="contract-row">
                    <td className="min-w-40 px-4 py-3">
                      <span className="block font-medium text-slate-900">{contractTitle(contract)}</span>
                      {contract.description && (
                        <span className="line-clamp-2 text-xs text-muted-foreground">{contract.description}</span>
                      )}
                    </td>
                    <td className="px-4 py-3">
                      <ContractStatusBadge status={contract.status} />
                    </td>
                    <td className="whitespace-nowrap px-4 py-3 tabular-nums">{formatDate(contract.startDate)}</td>
                    <td className="whitespace-nowrap px-4 py-3">{termLabel(contract.termMonths)}</td>
                    <td className="whitespace-nowrap px-4 py-3 text-right tabular-nums">
                      {formatMoney(contract.monthlyAmount)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pagination page={page} pages={pages} onPageChange={setPage} className="mt-4" />
        </>
      )}
    </>
  );
}
