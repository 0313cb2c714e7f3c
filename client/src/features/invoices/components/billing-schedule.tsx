import type { ContractSchedule, ScheduleAdjustment } from '@shared/contracts/invoices';
import { CalendarRange, Snowflake } from 'lucide-react';
import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { type Column, DataTable } from '@/components/ui/data-table';
import { EmptyState, ErrorState } from '@/components/ui/feedback';
import { useContractSchedule } from '../api/get-contract-schedule';
import { formatDate, formatMoney, monthLabel } from '../lib/format';
import { InvoiceStatusBadge } from './invoice-status-badge';

type ScheduleItem = ContractSchedule['items'][number];
/**
 * A row of the schedule: a period, or one of the amendments' charges and credits its invoice carries, right
 * under it (part of the period's subtotal, not added to it).
 */
type Row =
  | ({ kind: 'period' } & ScheduleItem)
  | { kind: 'adjustment'; period: ScheduleItem; adjustment: ScheduleAdjustment; position: number };

const rowsOf = (items: ScheduleItem[]): Row[] =>
  items.flatMap((item): Row[] => [
    { kind: 'period', ...item },
    ...item.adjustments.map((adjustment, position) => ({
      kind: 'adjustment' as const,
      period: item,
      adjustment,
      position,
    })),
  ]);

/** The cell of a period row, nothing on an adjustment row. */
const onPeriod =
  (cell: (item: ScheduleItem) => ReactNode) =>
  (row: Row): ReactNode =>
    row.kind === 'period' ? cell(row) : null;

/** A period that bills nothing (its flights are over or not begun, its flat lines billed): no invoice is issued. */
const billsNothing = (item: ScheduleItem) => item.invoice === null && item.total === 0 && item.subtotal === 0;

/**
 * The agency's commission on a period billed to an agency (product.md section 20): deducted from the total when
 * billed net, owed to the agency once the invoice is paid when billed gross.
 */
const agencyNote = (item: ScheduleItem) =>
  item.agencyBillingMode === 'net'
    ? `Agency commission ${formatMoney(-item.agencyCommission)}`
    : `Agency commission ${formatMoney(item.agencyCommission)} owed once paid`;

/** The periods in their order: a schedule reads by time. */
const COLUMNS: Column<Row>[] = [
  {
    id: 'period',
    header: 'Period',
    cellClassName: (row) => (row.kind === 'period' ? 'whitespace-nowrap' : 'pl-6'),
    cell: (row) =>
      row.kind === 'period' ? (
        <>
          <span className="font-medium text-slate-900">{monthLabel(row.periodStart)}</span>
          <span className="block text-xs text-muted-foreground tabular-nums">
            {formatDate(row.periodStart)} – {formatDate(row.periodEnd)}
          </span>
        </>
      ) : (
        <>
          <span className="block text-xs text-muted-foreground">
            {row.adjustment.amount >= 0 ? 'Charge' : 'Credit'} on this invoice
          </span>
          <span className="text-slate-900">{row.adjustment.description}</span>
        </>
      ),
  },
  {
    id: 'due',
    header: 'Due',
    cellClassName: 'whitespace-nowrap tabular-nums',
    cell: onPeriod((item) =>
      billsNothing(item) ? <span className="text-muted-foreground">—</span> : formatDate(item.dueDate),
    ),
  },
  {
    id: 'subtotal',
    header: 'Subtotal',
    align: 'right',
    cellClassName: 'whitespace-nowrap',
    cell: (row) =>
      row.kind === 'period' ? (
        formatMoney(row.subtotal)
      ) : (
        <span className="text-muted-foreground">{formatMoney(row.adjustment.amount)}</span>
      ),
  },
  {
    id: 'tax',
    header: 'Tax',
    align: 'right',
    cellClassName: 'whitespace-nowrap',
    cell: onPeriod((item) => formatMoney(item.tax)),
  },
  {
    id: 'total',
    header: 'Total',
    align: 'right',
    cellClassName: 'whitespace-nowrap font-medium',
    cell: onPeriod((item) => formatMoney(item.total)),
  },
  {
    id: 'notes',
    header: 'Notes',
    hideHeader: true,
    cell: onPeriod((item) => (
      <span className="flex flex-wrap items-center gap-1">
        {item.inSeason && (
          <Badge tone="yellow" className="gap-1 border-orange-200 bg-orange-100 text-orange-900">
            <Snowflake className="size-3" aria-hidden /> In season
          </Badge>
        )}
        {item.setupFee > 0 && <Badge tone="blue">Setup fee {formatMoney(item.setupFee)}</Badge>}
        {item.agencyCommission > 0 && <span className="text-xs text-muted-foreground">{agencyNote(item)}</span>}
        {billsNothing(item) && <span className="text-xs text-muted-foreground">Nothing to bill, no invoice</span>}
        {item.invoice && (
          <>
            <span className="font-mono text-xs text-muted-foreground">{item.invoice.number}</span>
            <InvoiceStatusBadge status={item.invoice.status} />
          </>
        )}
      </span>
    )),
  },
];

/**
 * The next 12 billing periods of a contract with what each invoice will charge, in-season months marked
 * (seasonal prices apply October to December). Periods already invoiced show their invoice.
 */
export function BillingSchedule({ contractId, status }: { contractId: string; status: string }) {
  const { data, error } = useContractSchedule(contractId);
  const closed = status === 'canceled' || status === 'completed';
  return (
    <Card data-testid="billing-schedule" className="min-w-0">
      <CardHeader>
        <CardTitle>Billing schedule</CardTitle>
        <CardDescription>
          {data
            ? [
                data.items.length === 0
                  ? 'No further billing periods'
                  : `The next ${data.items.length === 1 ? 'billing period' : `${data.items.length} billing periods`}`,
                data.stopsOn ? `until the term ends on ${formatDate(data.stopsOn)}` : null,
                data.taxRate > 0 ? `${data.taxLabel} ${data.taxRate}%${data.taxIncluded ? ' included' : ''}` : null,
              ]
                .filter(Boolean)
                .join(' · ')
            : '\u00a0'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {error && !data ? (
          <ErrorState title="Could not load the schedule">Reload the page to try again.</ErrorState>
        ) : (
          <DataTable
            caption="Billing schedule"
            columns={COLUMNS}
            rows={rowsOf(data?.items ?? [])}
            rowKey={(row) =>
              row.kind === 'period' ? String(row.periodIndex) : `${row.period.periodIndex}-${row.position}`
            }
            rowProps={(row) =>
              row.kind === 'period'
                ? { 'data-testid': 'schedule-row', 'data-in-season': row.inSeason }
                : { 'data-testid': 'schedule-adjustment', 'data-period': row.period.periodStart }
            }
            rowClassName={(row) => (row.kind === 'period' ? row.inSeason : row.period.inSeason) && 'bg-orange-50/60'}
            loading={!data}
            className="min-w-[40rem]"
            empty={
              <EmptyState icon={<CalendarRange />} title="Nothing more to bill">
                {closed ? `This contract is ${status}: no further invoices will be issued.` : 'The term has ended.'}
              </EmptyState>
            }
          />
        )}
        {data?.items.some((i) => i.inSeason) && (
          <p className="mt-3 text-xs text-muted-foreground">
            In season (October to December), products with a seasonal price are billed at that price.
          </p>
        )}
      </CardContent>
    </Card>
  );
}
