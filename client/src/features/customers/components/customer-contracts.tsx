import type { ContractSummary } from '@shared/contracts/contract-responses';
import { contractStatusBadge, shortContractId } from '@shared/contracts/contract-vocabulary';
import { FileText } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { type Column, DataTable } from '@/components/ui/data-table';
import { EmptyState, ErrorState } from '@/components/ui/feedback';
import { Pagination } from '@/components/ui/pagination';
import { formatDate, formatMoney } from '@/lib/format';
import { paths } from '@/lib/paths';
import { CUSTOMER_CONTRACTS_PAGE_SIZE, useCustomerContracts } from '../api/get-customer-contracts';
import { contractCountLabel } from '../format';

/** A page of the server's, in its order. */
const COLUMNS: Column<ContractSummary>[] = [
  {
    id: 'contract',
    header: 'Contract',
    cell: (contract) => (
      <Link
        href={paths.contract(contract.id)}
        className="rounded-sm font-mono font-medium text-primary hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        <span className="sr-only">Contract </span>#{shortContractId(contract.id)}
      </Link>
    ),
  },
  {
    id: 'description',
    header: 'Description',
    cell: (contract) => contract.description || <span className="text-muted-foreground">No description</span>,
  },
  {
    id: 'status',
    header: 'Status',
    cell: (contract) => {
      const badge = contractStatusBadge(contract.status);
      return <Badge tone={badge.tone}>{badge.label}</Badge>;
    },
  },
  {
    id: 'start',
    header: 'Start Date',
    cellClassName: 'whitespace-nowrap',
    cell: (contract) => formatDate(contract.startDate),
  },
  {
    id: 'total',
    header: 'Total',
    align: 'right',
    cellClassName: 'whitespace-nowrap',
    cell: (contract) => formatMoney(contract.totalAmount),
  },
];

/** The customer's contracts, a page at a time, each linking to its contract screen. */
export function CustomerContracts({ customerId }: { customerId: string }) {
  const [page, setPage] = useState(0);
  const { data, isLoading, isFetching, error } = useCustomerContracts(customerId, page);
  const pages = data ? Math.max(1, Math.ceil(data.total / CUSTOMER_CONTRACTS_PAGE_SIZE)) : 1;

  return (
    <Card>
      <CardHeader>
        <CardTitle>Contracts</CardTitle>
        <CardDescription aria-live="polite">{data ? contractCountLabel(data.total) : '\u00a0'}</CardDescription>
      </CardHeader>
      <CardContent>
        {error && !data ? (
          <ErrorState title="Could not load the contracts">Reload the page to try again.</ErrorState>
        ) : (
          <DataTable
            caption="Contracts of this customer"
            columns={COLUMNS}
            rows={data?.rows ?? []}
            rowKey={(contract) => contract.id}
            loading={!data}
            loadingRows={3}
            busy={isFetching && !isLoading}
            empty={
              <EmptyState icon={<FileText />} title="No contracts yet">
                Contracts created for this customer appear here.
              </EmptyState>
            }
          />
        )}
        <Pagination page={page} pages={pages} onPageChange={setPage} className="mt-4" />
      </CardContent>
    </Card>
  );
}
