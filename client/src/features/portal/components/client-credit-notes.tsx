import type { CreditNote } from '@shared/contracts/credit-notes';
import { ReceiptText } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { type Column, DataTable } from '@/components/ui/data-table';
import { ErrorState } from '@/components/ui/feedback';
import { Pagination } from '@/components/ui/pagination';
import { formatDate, formatMoney } from '@/lib/format';
import { useClientCredit } from '../api/get-client-credit';
import { CLIENT_CREDIT_NOTES_PAGE_SIZE, useClientCreditNotes } from '../api/get-client-credit-notes';

/**
 * The client's credit notes (corrections of its invoices): number, the invoice it credits, amount and issue
 * date, with the actions the page gives each row (the PDF). The credit balance, when there is one, shows
 * under the title: it is taken off the next invoice.
 */
export function ClientCreditNotes({
  customerId,
  actions,
}: {
  customerId: string | null;
  actions?: (note: CreditNote) => ReactNode;
}) {
  const [page, setPage] = useState(0);
  const { data, error, isFetching, isLoading } = useClientCreditNotes(page);
  const credit = useClientCredit(customerId);
  const balance = credit.data?.balance ?? 0;
  const pages = data ? Math.max(1, Math.ceil(data.total / CLIENT_CREDIT_NOTES_PAGE_SIZE)) : 1;
  // A page of the server's, newest first: the headers do not sort.
  const columns: Column<CreditNote>[] = [
    {
      id: 'number',
      header: 'Credit note',
      rowHeader: true,
      cellClassName: 'whitespace-nowrap',
      cell: (note) => note.number,
    },
    { id: 'invoice', header: 'Invoice', cellClassName: 'whitespace-nowrap', cell: (note) => note.invoiceNumber },
    {
      id: 'amount',
      header: 'Amount',
      role: 'amount',
      align: 'right',
      cellClassName: 'whitespace-nowrap font-medium',
      cell: (note) => formatMoney(note.amount),
    },
    {
      id: 'issued',
      header: 'Issued',
      cellClassName: 'whitespace-nowrap',
      cell: (note) => formatDate(note.issuedAt),
    },
    {
      id: 'actions',
      header: 'Actions',
      hideHeader: true,
      cell: (note) => <div className="flex justify-end gap-2">{actions?.(note)}</div>,
    },
  ];
  return (
    <Card className="min-w-0" data-testid="client-credit-notes">
      <CardHeader>
        <CardTitle>Credit Notes</CardTitle>
        <CardDescription aria-live="polite">
          {balance > 0 ? (
            <span className="font-medium text-slate-900" data-testid="client-credit-balance">
              Credit balance: {formatMoney(balance)}
            </span>
          ) : (
            'Corrections of your invoices'
          )}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {error && !data ? (
          <ErrorState title="Could not load your credit notes">Reload the page to try again.</ErrorState>
        ) : (
          <DataTable
            caption="Credit notes"
            columns={columns}
            rows={data?.rows ?? []}
            rowKey={(note) => note.id}
            rowProps={() => ({ 'data-testid': 'client-credit-note' })}
            loading={!data}
            loadingRows={2}
            busy={isFetching && !isLoading}
            sortable={false}
            className="min-w-[34rem]"
            empty={
              <p className="flex flex-col items-center gap-2 py-8 text-center text-sm text-muted-foreground">
                <ReceiptText className="size-8" aria-hidden />
                No credit notes
              </p>
            }
          />
        )}
        <Pagination page={page} pages={pages} onPageChange={setPage} className="mt-4" />
      </CardContent>
    </Card>
  );
}
