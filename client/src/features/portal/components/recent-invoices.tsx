import type { InvoiceSummary } from '@shared/contracts/invoices';
import { Receipt } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { DataTable } from '@/components/ui/data-table';
import { ErrorState } from '@/components/ui/feedback';
import { useRecentClientInvoices } from '../api/get-client-invoices';
import { AdvertiserGroups } from './advertiser-groups';
import { portalInvoiceColumns } from './portal-invoice-columns';

/**
 * The client's five newest invoices: number, period, due date, amount and status, with the actions the page
 * gives each row (Pay Now for pending ones, the PDF); an agency's grouped by advertiser (the invoice's customer;
 * `customerId`: the signed-in client's), and beside them the page's `action` ("Pay all due"). Empty text as ui-spec
 * says: "No invoices available".
 */
export function RecentInvoices({
  customerId,
  actions,
  action,
}: {
  customerId?: string | null;
  actions?: (invoice: InvoiceSummary) => ReactNode;
  action?: ReactNode;
}) {
  const { data, error } = useRecentClientInvoices();
  const rows = data?.rows ?? [];
  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>Recent Invoices</CardTitle>
        <CardDescription>
          {data && data.total > rows.length ? `The newest ${rows.length} of ${data.total}` : 'Your newest invoices'}
        </CardDescription>
        {action && <div className="pt-2">{action}</div>}
      </CardHeader>
      <CardContent>
        {error && !data ? (
          <ErrorState title="Could not load your invoices">Reload the page to try again.</ErrorState>
        ) : (
          // The newest five, newest first: a part of the list, so the headers do not sort.
          <AdvertiserGroups
            rows={rows}
            customerId={customerId}
            advertiser={(invoice) => ({ id: invoice.customerId, name: invoice.customerName })}
          >
            {(group, advertiser) => (
              <DataTable
                caption={advertiser ? `Recent invoices: ${advertiser}` : 'Recent invoices'}
                columns={portalInvoiceColumns(actions)}
                rows={group}
                rowKey={(invoice) => invoice.id}
                rowProps={() => ({ 'data-testid': 'client-invoice' })}
                loading={!data}
                loadingRows={3}
                className="min-w-[40rem]"
                empty={
                  <p className="flex flex-col items-center gap-2 py-8 text-center text-sm text-muted-foreground">
                    <Receipt className="size-8" aria-hidden />
                    No invoices available
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
