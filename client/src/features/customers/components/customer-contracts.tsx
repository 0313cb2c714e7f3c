import { contractStatusBadge, shortContractId } from '@shared/contracts/contract-vocabulary';
import { FileText } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/feedback';
import { Pagination } from '@/components/ui/pagination';
import { formatDate, formatMoney } from '@/lib/format';
import { paths } from '@/lib/paths';
import { CUSTOMER_CONTRACTS_PAGE_SIZE, useCustomerContracts } from '../api/get-customer-contracts';
import { contractCountLabel } from '../format';

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
        {isLoading && <Skeleton className="h-40 rounded-lg" />}
        {error && !data && <ErrorState title="Could not load the contracts">Reload the page to try again.</ErrorState>}
        {data && data.rows.length === 0 && (
          <EmptyState icon={<FileText />} title="No contracts yet">
            Contracts created for this customer appear here.
          </EmptyState>
        )}
        {data && data.rows.length > 0 && (
          <div className={`overflow-x-auto rounded-lg border ${isFetching ? 'opacity-70' : ''}`} aria-busy={isFetching}>
            <table className="w-full text-sm">
              <caption className="sr-only">Contracts of this customer</caption>
              <thead className="bg-muted/60 text-left text-xs uppercase tracking-wide text-muted-foreground">
                <tr>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Contract
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Description
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Status
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Start Date
                  </th>
                  <th scope="col" className="px-4 py-3 text-right font-medium">
                    Total
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.rows.map((contract) => {
                  const badge = contractStatusBadge(contract.status);
                  return (
                    <tr key={contract.id} className="border-t hover:bg-muted/40">
                      <td className="px-4 py-3">
                        <Link
                          href={paths.contract(contract.id)}
                          className="rounded-sm font-mono font-medium text-primary hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                        >
                          <span className="sr-only">Contract </span>#{shortContractId(contract.id)}
                        </Link>
                      </td>
                      <td className="px-4 py-3">
                        {contract.description || <span className="text-muted-foreground">No description</span>}
                      </td>
                      <td className="px-4 py-3">
                        <Badge tone={badge.tone}>{badge.label}</Badge>
                      </td>
                      <td className="whitespace-nowrap px-4 py-3">{formatDate(contract.startDate)}</td>
                      <td className="whitespace-nowrap px-4 py-3 text-right tabular-nums">
                        {formatMoney(contract.totalAmount)}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
        <Pagination page={page} pages={pages} onPageChange={setPage} className="mt-4" />
      </CardContent>
    </Card>
  );
}
