import type { PortalContract } from '@shared/contracts/client-portal';
import type { ContractNextStep } from '@shared/contracts/contract-next-step';
import { contractStatusBadge, shortContractId } from '@shared/contracts/contract-vocabulary';
import { FileText } from 'lucide-react';
import { Link } from 'wouter';
import { BADGE_TONES } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { type Column, DataTable } from '@/components/ui/data-table';
import { ErrorState } from '@/components/ui/feedback';
import { contractValueText } from '@/lib/contract-value';
import { formatDate, formatMoney } from '@/lib/format';
import { paths } from '@/lib/paths';
import { cn } from '@/lib/utils';
import { usePortalContracts } from '../api/get-client-contracts';
import { AdvertiserGroups } from './advertiser-groups';

/** "Contract #" and the last 6 characters of the id when the contract has no title (ui-spec section 2). */
export const clientContractName = (contract: { id: string; title: string | null }) =>
  contract.title || `Contract #${shortContractId(contract.id, 6)}`;

/**
 * A sent contract's next step in a few words (the contract's page says it in full: client-next-step.tsx). Kept here
 * so that the list does not load the page's words.
 */
const nextStepShort = (step: ContractNextStep) =>
  step.kind === 'first_payment'
    ? 'Pay the first invoice from your e-mailed link'
    : `First invoice ${formatDate(step.firstInvoiceOn)}`;

/** Newest first as the server sends them; every one of them is here, so the headers sort. */
const COLUMNS: Column<PortalContract>[] = [
  {
    id: 'contract',
    header: 'Contract',
    rowHeader: true,
    cell: (contract) => (
      <>
        <Link
          href={paths.portalContract(contract.id)}
          className="rounded-sm text-primary hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          {clientContractName(contract)}
        </Link>
        {contract.description && (
          <span className="block max-w-[22rem] truncate text-xs font-normal text-muted-foreground">
            {contract.description}
          </span>
        )}
      </>
    ),
    sortValue: clientContractName,
  },
  {
    id: 'status',
    header: 'Status',
    cell: (contract) => {
      const badge = contractStatusBadge(contract.status);
      // A sent contract whose newest insertion order waits for the client's signature (product.md section 15).
      const toSign = contract.status === 'sent' && contract.insertionOrder?.status === 'sent';
      return (
        <span className="inline-flex flex-wrap gap-1.5">
          <span className={cn('rounded-full border px-2.5 py-0.5 text-xs font-medium', BADGE_TONES[badge.tone])}>
            {badge.label}
          </span>
          {toSign && (
            <span className={cn('rounded-full border px-2.5 py-0.5 text-xs font-medium', BADGE_TONES.indigo)}>
              To sign
            </span>
          )}
          {contract.nextStep && (
            <span className="basis-full text-xs text-muted-foreground" data-testid="contract-next-step">
              {nextStepShort(contract.nextStep)}
            </span>
          )}
        </span>
      );
    },
    sortValue: (contract) => contractStatusBadge(contract.status).label,
  },
  {
    id: 'start',
    header: 'Start',
    cellClassName: 'whitespace-nowrap',
    cell: (contract) => (
      <>
        {formatDate(contract.startDate)}
        <span className="block text-xs text-muted-foreground">
          {contract.termMonths ? `${contract.termMonths} months` : 'Indefinite'}
        </span>
      </>
    ),
    sortValue: (contract) => contract.startDate,
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
  {
    id: 'total',
    header: 'Total',
    role: 'amount',
    align: 'right',
    cellClassName: 'font-medium',
    cell: (contract) => formatMoney(contract.totalAmount),
    sortValue: (contract) => contract.totalAmount,
  },
];

/**
 * The client's contracts: name, status, start, term, monthly amount and totalAmount; an agency's grouped by
 * advertiser (`customerId`: the signed-in client's customer).
 */
export function ClientContractsTable({ customerId }: { customerId?: string | null }) {
  const { data, error } = usePortalContracts();
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
        {error && !data ? (
          <ErrorState title="Could not load your contracts">Reload the page to try again.</ErrorState>
        ) : (
          <AdvertiserGroups
            rows={rows}
            customerId={customerId}
            advertiser={(contract) => ({ id: contract.advertiserId, name: contract.advertiserName })}
          >
            {(group, advertiser) => (
              <DataTable
                caption={advertiser ? `My contracts: ${advertiser}` : 'My contracts'}
                columns={COLUMNS}
                rows={group}
                rowKey={(contract) => contract.id}
                loading={!data}
                loadingRows={3}
                className="min-w-[36rem]"
                sortable={data !== undefined && data.total <= rows.length}
                empty={
                  <p className="flex flex-col items-center gap-2 py-8 text-center text-sm text-muted-foreground">
                    <FileText className="size-8" aria-hidden />
                    No contracts available
                  </p>
                }
              />
            )}
          </AdvertiserGroups>
        )}
      </CardContent>
    </Card>
  );
}
