import type { Contract } from '@shared/contracts/contract-responses';
import type { DeliveryPeriod } from '@shared/contracts/delivery';
import { DELIVERY_MESSAGES, formatMonth, UNDER_DELIVERY_REMEDY_LABELS } from '@shared/contracts/delivery-vocabulary';
import { BarChart3 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { type Column, DataTable } from '@/components/ui/data-table';
import { ErrorState, Skeleton } from '@/components/ui/feedback';
import { lazyWhen } from '@/components/ui/lazy-when';
import { BookedImpressions } from '@/lib/booked-impressions';
import { deliveryOutcome, formatImpressions, periodDates } from '@/lib/delivery-text';
import { formatDate } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useContractDelivery } from '../api/get-contract-delivery';
import { Pacing } from './pacing';

// The form (react-hook-form and zod) loads the first time it opens.
const RecordDeliveryDialog = lazyWhen(
  () => import('./record-delivery-dialog').then((module) => module.RecordDeliveryDialog),
  (props) => props.period !== null,
);

/** What the card reads of a contract: the staff's contract, or the client's (its own contract page). */
type DeliveryContract = Pick<Contract, 'id' | 'underDeliveryRemedy'> & {
  lineItems: (Pick<Contract['lineItems'][number], 'id' | 'priceMetric' | 'quantity'> & { product: { name: string } })[];
};

/** A CPM line of the contract with its billed periods (newest first). */
type LineGroup = { lineId: string; productName: string; bookedPerMonth: number | null; periods: DeliveryPeriod[] };

/** The contract's CPM lines in their order, each with its periods; a line no longer on the contract comes last. */
export function groupByLine(contract: Pick<DeliveryContract, 'lineItems'>, periods: DeliveryPeriod[]): LineGroup[] {
  const groups = new Map<string, LineGroup>();
  for (const line of contract.lineItems) {
    if (line.priceMetric !== 'cpm') continue;
    groups.set(line.id, {
      lineId: line.id,
      productName: line.product.name,
      bookedPerMonth: Math.round(line.quantity * 1000),
      periods: [],
    });
  }
  for (const period of periods) {
    let group = groups.get(period.lineId);
    if (!group) {
      group = { lineId: period.lineId, productName: period.productName, bookedPerMonth: null, periods: [] };
      groups.set(period.lineId, group);
    }
    group.periods.push(period);
  }
  return [...groups.values()];
}

/** Whether the contract has a CPM line: only then does the page show its delivery. */
export const hasCpmLine = (contract: Pick<DeliveryContract, 'lineItems'>) =>
  contract.lineItems.some((line) => line.priceMetric === 'cpm');

/**
 * The contract page's delivery card (product.md section 12): per CPM line, each billed period's booked and
 * delivered impressions, clicks, pacing and how a shortfall was settled. Staff who may change the contract
 * record or correct the figures of an ended period until it is settled.
 */
export function DeliveryCard({
  contract,
  canWrite,
  onOpenInvoice,
}: {
  contract: DeliveryContract;
  canWrite: boolean;
  /** Opens an invoice (the page composes the invoice view). */
  onOpenInvoice?: (invoiceId: string) => void;
}) {
  const { data, error } = useContractDelivery(contract.id);
  const [recording, setRecording] = useState<DeliveryPeriod | null>(null);
  const groups = data ? groupByLine(contract, data.rows) : [];
  const remedy = UNDER_DELIVERY_REMEDY_LABELS[contract.underDeliveryRemedy];

  const columns: Column<DeliveryPeriod>[] = [
    {
      id: 'period',
      header: 'Period',
      rowHeader: true,
      cellClassName: 'whitespace-nowrap',
      cell: (period) => (
        <>
          {formatMonth(period.month)}
          <span className="block text-xs font-normal text-muted-foreground tabular-nums">{periodDates(period)}</span>
        </>
      ),
    },
    {
      id: 'invoice',
      header: 'Invoice',
      cellClassName: 'whitespace-nowrap',
      cell: (period) =>
        onOpenInvoice ? (
          <button
            type="button"
            onClick={() => onOpenInvoice(period.invoiceId)}
            className="rounded font-mono text-xs font-medium text-primary hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          >
            {period.invoiceNumber}
          </button>
        ) : (
          <span className="font-mono text-xs">{period.invoiceNumber}</span>
        ),
    },
    {
      id: 'booked',
      header: 'Booked',
      align: 'right',
      cellClassName: 'whitespace-nowrap',
      cell: (period) => <BookedImpressions period={period} />,
    },
    {
      id: 'delivered',
      header: 'Delivered',
      align: 'right',
      cellClassName: 'whitespace-nowrap',
      cell: (period) => (period.delivered === null ? '—' : formatImpressions(period.delivered)),
    },
    {
      id: 'clicks',
      header: 'Clicks',
      align: 'right',
      cellClassName: 'whitespace-nowrap',
      cell: (period) => (period.clicks === null ? '—' : formatImpressions(period.clicks)),
    },
    {
      id: 'pacing',
      header: 'Pacing',
      align: 'right',
      cellClassName: 'whitespace-nowrap',
      cell: (period) => <Pacing period={period} />,
    },
    {
      id: 'status',
      header: 'Remedy / Status',
      className: 'min-w-44 max-w-64',
      cell: (period) => (
        <>
          <span className={cn(period.status === 'settled' && 'font-medium text-slate-900')}>
            {deliveryOutcome(period)}
          </span>
          {period.recordedAt && (
            <span className="block text-xs text-muted-foreground">
              Recorded {formatDate(period.recordedAt)}
              {period.recordedByName ? ` by ${period.recordedByName}` : ''}
            </span>
          )}
        </>
      ),
    },
    ...(canWrite
      ? [
          {
            id: 'actions',
            header: 'Actions',
            hideHeader: true,
            align: 'right',
            cellClassName: 'py-1.5',
            placeholder: null,
            cell: (period) =>
              period.ended && period.status !== 'settled' ? (
                <Button
                  variant="outline"
                  size="sm"
                  aria-label={`${period.delivered === null ? 'Record' : 'Correct'} delivery of ${period.productName} for ${formatMonth(period.month)}`}
                  onClick={() => setRecording(period)}
                >
                  {period.delivered === null ? 'Record' : 'Correct'}
                </Button>
              ) : null,
          } satisfies Column<DeliveryPeriod>,
        ]
      : []),
  ];

  return (
    <Card className="min-w-0" data-testid="delivery-card">
      <CardHeader>
        <CardTitle>Delivery</CardTitle>
        <CardDescription>
          Booked and delivered impressions of the CPM lines, per billing period. Under-delivery is settled by:{' '}
          <span className="font-medium text-slate-700" data-testid="delivery-remedy">
            {remedy.label}
          </span>
          .
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {error && !data && <ErrorState title="Could not load the delivery">Reload the page to try again.</ErrorState>}
        {!data && !error && <Skeleton className="h-32 rounded-lg" />}
        {data && groups.length === 0 && (
          <p className="flex flex-col items-center gap-2 py-4 text-center text-sm text-muted-foreground">
            <BarChart3 className="size-8" aria-hidden />
            {DELIVERY_MESSAGES.noCpmLines}
          </p>
        )}
        {groups.map((group) => (
          <section
            key={group.lineId}
            className="grid min-w-0 gap-2"
            aria-labelledby={`delivery-line-${group.lineId}`}
            data-testid="delivery-line"
          >
            <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-0.5">
              <h4 id={`delivery-line-${group.lineId}`} className="text-sm font-semibold text-slate-900">
                {group.productName}
              </h4>
              {group.bookedPerMonth !== null && (
                <span className="text-xs text-muted-foreground tabular-nums">
                  {formatImpressions(group.bookedPerMonth)} impressions booked a month
                </span>
              )}
            </div>
            {group.periods.length === 0 ? (
              <p className="text-sm text-muted-foreground">
                No billed periods yet: delivery is recorded once a period has been invoiced and has ended.
              </p>
            ) : (
              <DataTable
                caption={`Delivery of ${group.productName}`}
                columns={columns}
                rows={group.periods}
                rowKey={(period) => `${period.lineId}-${period.month}`}
                rowProps={(period) => ({ 'data-testid': 'delivery-row', 'data-status': period.status })}
                density="compact"
                sortable={false}
                className="min-w-[46rem]"
              />
            )}
          </section>
        ))}
      </CardContent>
      {canWrite && (
        <RecordDeliveryDialog
          contractId={contract.id}
          remedy={contract.underDeliveryRemedy}
          period={recording}
          onClose={() => setRecording(null)}
        />
      )}
    </Card>
  );
}
