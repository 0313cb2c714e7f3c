import { CalendarRange, Snowflake } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/feedback';
import { useContractSchedule } from '../api/get-contract-schedule';
import { formatDate, formatMoney, monthLabel } from '../lib/format';
import { InvoiceStatusBadge } from './invoice-status-badge';

/**
 * The next 12 billing periods of a contract with what each invoice will charge, in-season months marked
 * (seasonal prices apply October to December). Periods already invoiced show their invoice.
 */
export function BillingSchedule({ contractId, status }: { contractId: string; status: string }) {
  const { data, isLoading, error } = useContractSchedule(contractId);
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
        {isLoading && <Skeleton className="h-48 rounded-lg" />}
        {error && !data && <ErrorState title="Could not load the schedule">Reload the page to try again.</ErrorState>}
        {data && data.items.length === 0 && (
          <EmptyState icon={<CalendarRange />} title="Nothing more to bill">
            {closed ? `This contract is ${status}: no further invoices will be issued.` : 'The term has ended.'}
          </EmptyState>
        )}
        {data && data.items.length > 0 && (
          <div className="relative overflow-x-auto rounded-lg border">
            <table className="w-full min-w-[40rem] text-sm">
              <caption className="sr-only">Billing schedule</caption>
              <thead className="bg-muted/60 text-left text-xs uppercase tracking-wide text-muted-foreground">
                <tr>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Period
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Due
                  </th>
                  <th scope="col" className="px-4 py-3 text-right font-medium">
                    Subtotal
                  </th>
                  <th scope="col" className="px-4 py-3 text-right font-medium">
                    Tax
                  </th>
                  <th scope="col" className="px-4 py-3 text-right font-medium">
                    Total
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    <span className="sr-only">Notes</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((item) => (
                  <tr
                    key={item.periodIndex}
                    className={`border-t ${item.inSeason ? 'bg-orange-50/60' : ''}`}
                    data-testid="schedule-row"
                    data-in-season={item.inSeason}
                  >
                    <td className="whitespace-nowrap px-4 py-3">
                      <span className="font-medium text-slate-900">{monthLabel(item.periodStart)}</span>
                      <span className="block text-xs text-muted-foreground tabular-nums">
                        {formatDate(item.periodStart)} – {formatDate(item.periodEnd)}
                      </span>
                    </td>
                    <td className="whitespace-nowrap px-4 py-3 tabular-nums">{formatDate(item.dueDate)}</td>
                    <td className="whitespace-nowrap px-4 py-3 text-right tabular-nums">
                      {formatMoney(item.subtotal)}
                    </td>
                    <td className="whitespace-nowrap px-4 py-3 text-right tabular-nums">{formatMoney(item.tax)}</td>
                    <td className="whitespace-nowrap px-4 py-3 text-right font-medium tabular-nums">
                      {formatMoney(item.total)}
                    </td>
                    <td className="px-4 py-3">
                      <span className="flex flex-wrap items-center gap-1">
                        {item.inSeason && (
                          <Badge tone="yellow" className="gap-1 border-orange-200 bg-orange-100 text-orange-900">
                            <Snowflake className="size-3" aria-hidden /> In season
                          </Badge>
                        )}
                        {item.setupFee > 0 && <Badge tone="blue">Setup fee {formatMoney(item.setupFee)}</Badge>}
                        {item.invoice && (
                          <>
                            <span className="font-mono text-xs text-muted-foreground">{item.invoice.number}</span>
                            <InvoiceStatusBadge status={item.invoice.status} />
                          </>
                        )}
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
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
