import type { ScheduleItem } from '@shared/contracts/invoices';
import { CalendarClock } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { type Column, DataTable } from '@/components/ui/data-table';
import { ErrorState } from '@/components/ui/feedback';
import { formatDate, formatMoney } from '@/lib/format';
import { useClientContractSchedule } from '../api/get-client-contract-schedule';

const COLUMNS: Column<ScheduleItem>[] = [
  {
    id: 'period',
    header: 'Period',
    rowHeader: true,
    cellClassName: 'whitespace-nowrap',
    cell: (item) => (
      <>
        {formatDate(item.periodStart)} – {formatDate(item.periodEnd)}
        {item.seasonalPricing && (
          <span className="block text-xs font-normal text-muted-foreground">In-season prices</span>
        )}
      </>
    ),
  },
  { id: 'due', header: 'Due', cellClassName: 'whitespace-nowrap', cell: (item) => formatDate(item.dueDate) },
  {
    id: 'amount',
    header: 'Amount',
    align: 'right',
    cellClassName: 'whitespace-nowrap font-medium',
    cell: (item) => (
      <>
        {formatMoney(item.total)}
        {item.tax > 0 && (
          <span className="block text-xs font-normal text-muted-foreground">incl. {formatMoney(item.tax)} tax</span>
        )}
      </>
    ),
  },
  {
    id: 'state',
    header: 'Invoice',
    cell: (item) =>
      item.invoice ? (
        <span className="whitespace-nowrap text-xs">Issued: {item.invoice.number}</span>
      ) : (
        <Badge tone="grey">Scheduled</Badge>
      ),
  },
];

/** The contract's upcoming invoices as the billing run will issue them (the billing engine's schedule). */
export function ClientContractSchedule({ contractId }: { contractId: string }) {
  const { data, error } = useClientContractSchedule(contractId);
  return (
    <Card className="min-w-0" data-testid="client-contract-schedule">
      <CardHeader>
        <CardTitle>Upcoming invoices</CardTitle>
        <CardDescription>
          {data?.stopsOn
            ? `Billing stops on ${formatDate(data.stopsOn)}.`
            : 'The next billing periods and what each will bill.'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {error && !data ? (
          <ErrorState title="Could not load the schedule">Reload the page to try again.</ErrorState>
        ) : (
          <DataTable
            caption="Upcoming invoices"
            columns={COLUMNS}
            rows={data?.items ?? []}
            rowKey={(item) => String(item.periodIndex)}
            rowProps={() => ({ 'data-testid': 'schedule-item' })}
            loading={!data}
            loadingRows={3}
            frame="inset"
            density="compact"
            phone="cards"
            empty={
              <p className="flex flex-col items-center gap-2 py-6 text-center text-sm text-muted-foreground">
                <CalendarClock className="size-8" aria-hidden />
                No invoices are scheduled for this contract
              </p>
            }
          />
        )}
      </CardContent>
    </Card>
  );
}
