import type { InvoiceSummary } from '@shared/contracts/invoices';
import { Receipt } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { DataTable } from '@/components/ui/data-table';
import { ErrorState } from '@/components/ui/feedback';
import { Pagination } from '@/components/ui/pagination';
import { CLIENT_CONTRACT_INVOICES_PAGE_SIZE, useClientContractInvoices } from '../api/get-client-contract-invoices';
import { portalInvoiceColumns } from './portal-invoice-columns';

/**
 * The invoices of one of the client's contracts, newest first, a page at a time, with the actions the page gives
 * each (Pay Now for an open one, the PDF), as the portal's invoice list offers them.
 */
export function ClientContractInvoices({
  contractId,
  actions,
}: {
  contractId: string;
  actions: (invoice: InvoiceSummary) => ReactNode;
}) {
  const [page, setPage] = useState(0);
  const { data, error, isFetching, isLoading } = useClientContractInvoices(contractId, page);
  const pages = data ? Math.max(1, Math.ceil(data.total / CLIENT_CONTRACT_INVOICES_PAGE_SIZE)) : 1;
  return (
    <Card className="min-w-0" id="invoices" data-testid="client-contract-invoices">
      <CardHeader>
        <CardTitle>Invoices</CardTitle>
        <CardDescription>
          {data ? `${data.total} invoice${data.total === 1 ? '' : 's'} issued for this contract` : '\u00a0'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {error && !data ? (
          <ErrorState title="Could not load the invoices">Reload the page to try again.</ErrorState>
        ) : (
          <DataTable
            caption="Invoices of this contract"
            columns={portalInvoiceColumns(actions)}
            rows={data?.rows ?? []}
            rowKey={(invoice) => invoice.id}
            rowProps={() => ({ 'data-testid': 'client-contract-invoice' })}
            loading={!data}
            loadingRows={3}
            busy={isFetching && !isLoading}
            frame="inset"
            density="compact"
            phone="cards"
            empty={
              <p className="flex flex-col items-center gap-2 py-6 text-center text-sm text-muted-foreground">
                <Receipt className="size-8" aria-hidden />
                No invoices yet
              </p>
            }
            footer={
              data && data.total > CLIENT_CONTRACT_INVOICES_PAGE_SIZE ? (
                <Pagination page={page} pages={pages} onPageChange={setPage} className="" />
              ) : undefined
            }
          />
        )}
      </CardContent>
    </Card>
  );
}
