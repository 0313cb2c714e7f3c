import { contractStatusBadge, shortContractId } from '@shared/contracts/contract-vocabulary';
import { FileText } from 'lucide-react';
import { BADGE_TONES } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ErrorState, Skeleton } from '@/components/ui/feedback';
import { formatDate, formatMoney } from '@/lib/format';
import { cn } from '@/lib/utils';
import { usePortalContracts } from '../api/get-client-contracts';

/** "Contract #" and the last 6 characters of the id when the contract has no title (ui-spec section 2). */
export const clientContractName = (contract: { id: string; title: string | null }) =>
  contract.title || `Contract #${shortContractId(contract.id, 6)}`;

/** The client's contracts: name, status, start, term, monthly amount and totalAmount. */
export function ClientContractsTable() {
  const { data, isLoading, error } = usePortalContracts();
  const rows = data?.rows ?? [];
  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>My Contracts</CardTitle>
        <CardDescription>
          {data ? `${data.total} contract${data.total === 1 ? '' : 's'}` : 'Your advertising contracts with us'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {isLoading && <Skeleton className="h-32 rounded-lg" />}
        {error && !data && <ErrorState title="Could not load your contracts">Reload the page to try again.</ErrorState>}
        {data && rows.length === 0 && (
          <p className="flex flex-col items-center gap-2 py-8 text-center text-sm text-muted-foreground">
            <FileText className="size-8" aria-hidden />
            No contracts available
          </p>
        )}
        {rows.length > 0 && (
          <div className="relative overflow-x-auto rounded-lg border">
            <table className="w-full min-w-[36rem] text-sm">
              <caption className="sr-only">My contracts</caption>
              <thead className="bg-muted/60 text-left text-xs uppercase tracking-wide text-muted-foreground">
                <tr>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Contract
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Status
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Start
                  </th>
                  <th scope="col" className="px-4 py-3 text-right font-medium">
                    Monthly
                  </th>
                  <th scope="col" className="px-4 py-3 text-right font-medium">
                    Total
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y">
                {rows.map((contract) => {
                  const badge = contractStatusBadge(contract.status);
                  return (
                    <tr key={contract.id}>
                      <th scope="row" className="px-4 py-3 text-left font-medium text-slate-900">
                        {clientContractName(contract)}
                        {contract.description && (
                          <span className="block max-w-[22rem] truncate text-xs font-normal text-muted-foreground">
                            {contract.description}
                          </span>
                        )}
                      </th>
                      <td className="px-4 py-3">
                        <span
                          className={cn(
                            'rounded-full border px-2.5 py-0.5 text-xs font-medium',
                            BADGE_TONES[badge.tone],
                          )}
                        >
                          {badge.label}
                        </span>
                      </td>
                      <td className="whitespace-nowrap px-4 py-3">
                        {formatDate(contract.startDate)}
                        <span className="block text-xs text-muted-foreground">
                          {contract.termMonths ? `${contract.termMonths} months` : 'Indefinite'}
                        </span>
                      </td>
                      <td className="px-4 py-3 text-right tabular-nums">{formatMoney(contract.monthlyAmount)}</td>
                      <td className="px-4 py-3 text-right font-medium tabular-nums">
                        {formatMoney(contract.totalAmount)}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
