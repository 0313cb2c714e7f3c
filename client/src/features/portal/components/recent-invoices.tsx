import { invoiceStatusBadge } from '@shared/contracts/invoice-vocabulary';
import type { InvoiceSummary } from '@shared/contracts/invoices';
import { Receipt } from 'lucide-react';
import type { ReactNode } from 'react';
import { BADGE_TONES } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ErrorState, Skeleton } from '@/components/ui/feedback';
import { formatDate, formatMoney } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useRecentClientInvoices } from '../api/get-client-invoices';

/**
 * The client's five newest invoices: number, period, due date, amount and status, with the actions the page
 * gives each row (Pay Now for pending ones, the PDF). Empty text as ui-spec says: "No invoices available".
 */
export function RecentInvoices({ actions }: { actions?: (invoice: InvoiceSummary) => ReactNode }) {
  const { data, isLoading, error } = useRecentClientInvoices();
  const rows = data?.rows ?? [];
  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>Recent Invoices</CardTitle>
        <CardDescription>
          {data && data.total > rows.length ? `The newest ${rows.length} of ${data.total}` : 'Your newest invoices'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {isLoading && <Skeleton className="h-32 rounded-lg" />}
        {error && !data && <ErrorState title="Could not load your invoices">Reload the page to try again.</ErrorState>}
        {data && rows.length === 0 && (
          <p className="flex flex-col items-center gap-2 py-8 text-center text-sm text-muted-foreground">
            <Receipt className="size-8" aria-hidden />
            No invoices available
          </p>
        )}
        {rows.length > 0 && (
          <div className="relative overflow-x-auto rounded-lg border">
            <table className="w-full min-w-[40rem] text-sm">
              <caption className="sr-only">Recent invoices</caption>
              <thead className="bg-muted/60 text-left text-xs uppercase tracking-wide text-muted-foreground">
                <tr>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Invoice
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Due
                  </th>
                  <th scope="col" className="px-4 py-3 text-right font-medium">
                    Amount
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Status
                  </th>
                  <th scope="col" className="px-4 py-3 text-right font-medium">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y">
                {rows.map((invoice) => {
                  const badge = invoiceStatusBadge(invoice.status, invoice.overdue && invoice.status === 'pending');
                  return (
                    <tr key={invoice.id} data-testid="client-invoice">
                      <th scope="row" className="whitespace-nowrap px-4 py-3 text-left font-medium text-slate-900">
                        {invoice.number}
                        <span className="block text-xs font-normal text-muted-foreground">
                          {formatDate(invoice.periodStart)} – {formatDate(invoice.periodEnd)}
                        </span>
                      </th>
                      <td className="whitespace-nowrap px-4 py-3">{formatDate(invoice.dueDate)}</td>
                      <td className="px-4 py-3 text-right font-medium tabular-nums">
                        {formatMoney(invoice.amount)}
                        {invoice.amountPaid > 0 && invoice.status === 'pending' && (
                          <span className="block text-xs font-normal text-muted-foreground">
                            {formatMoney(invoice.amountDue)} due
                          </span>
                        )}
                      </td>
                      <td className="px-4 py-3">
                        <span
                          className={cn(
                            'whitespace-nowrap rounded-full border px-2.5 py-0.5 text-xs font-medium',
                            BADGE_TONES[badge.tone],
                          )}
                        >
                          {badge.label}
                        </span>
                      </td>
                      <td className="px-4 py-3">
                        <div className="flex justify-end gap-2">{actions?.(invoice)}</div>
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
