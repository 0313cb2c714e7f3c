import { CREDIT_ENTRY_LABELS, type CustomerCreditEntry } from '@shared/contracts/credit-notes';
import { PAYMENT_METHOD_LABELS } from '@shared/contracts/invoice-vocabulary';
import { can } from '@shared/permissions';
import { HandCoins, ReceiptText, WalletCards } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { type Column, DataTable } from '@/components/ui/data-table';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/feedback';
import { lazyWhen } from '@/components/ui/lazy-when';
import { Pagination } from '@/components/ui/pagination';
import { useCurrentUser } from '@/features/auth/api/me';
import { useCreditNotes } from '../api/get-credit-notes';
import { useCustomerCredit } from '../api/get-customer-credit';
import { formatDate, formatMoney } from '../lib/format';
import { CreditNotesTable, ViewInvoiceButton } from './credit-notes-table';
import type { RefundTarget } from './refund-credit-dialog';

// Dialogs load the first time they open (docs/decisions/017-performance.md).
const InvoiceDetailDialog = lazyWhen(
  () => import('./invoice-detail-dialog').then((module) => module.InvoiceDetailDialog),
  (props) => props.invoiceId !== null,
);
const RefundCreditDialog = lazyWhen(
  () => import('./refund-credit-dialog').then((module) => module.RefundCreditDialog),
  (props) => props.target !== null,
);

const PAGE_SIZE = 10;

/** "+$25.00" when the balance grew, "-$25.00" when it was used or paid back. */
export const signedMoney = (amount: number) => (amount > 0 ? `+${formatMoney(amount)}` : formatMoney(amount));

/** A movement's words: what happened, and for a refund how it was paid back. */
export function entryLabel(entry: CustomerCreditEntry): string {
  const label = CREDIT_ENTRY_LABELS[entry.kind] ?? entry.kind;
  const how = entry.method ? PAYMENT_METHOD_LABELS[entry.method] : null;
  return [label, how, entry.reference].filter(Boolean).join(' · ');
}

/**
 * A customer's credit: the balance (credit notes beyond what was due, less what later invoices used and
 * what was refunded), its movements, and the customer's credit notes. Finance and admins refund the balance.
 */
export function CustomerCredit({ customerId, customerName }: { customerId: string; customerName: string }) {
  const { user } = useCurrentUser();
  const canManage = can(user, 'invoice:manage');
  const credit = useCustomerCredit(customerId);
  const [page, setPage] = useState(0);
  const notes = useCreditNotes({ customerId, page, pageSize: PAGE_SIZE });
  const [viewing, setViewing] = useState<string | null>(null);
  const [refunding, setRefunding] = useState<RefundTarget | null>(null);
  const balance = credit.data?.balance ?? 0;
  const pages = notes.data ? Math.max(1, Math.ceil(notes.data.total / PAGE_SIZE)) : 1;

  // Newest first, as the server sends them.
  const entryColumns: Column<CustomerCreditEntry>[] = [
    {
      id: 'date',
      header: 'Date',
      cellClassName: 'whitespace-nowrap tabular-nums',
      cell: (entry) => formatDate(entry.createdAt),
    },
    { id: 'movement', header: 'Movement', cellClassName: 'min-w-[12rem]', cell: entryLabel },
    {
      id: 'document',
      header: 'Credit note / invoice',
      cellClassName: 'whitespace-nowrap',
      cell: (entry) => (
        <span className="flex flex-wrap items-center gap-2">
          {entry.creditNoteNumber && <span className="font-mono text-xs">{entry.creditNoteNumber}</span>}
          {entry.invoiceId && entry.invoiceNumber && (
            <ViewInvoiceButton number={entry.invoiceNumber} onView={() => setViewing(entry.invoiceId)} />
          )}
          {!entry.creditNoteNumber && !entry.invoiceNumber && <span className="text-muted-foreground">—</span>}
        </span>
      ),
    },
    {
      id: 'amount',
      header: 'Amount',
      align: 'right',
      cellClassName: (entry) => `whitespace-nowrap font-medium ${entry.amount > 0 ? 'text-green-700' : ''}`,
      cell: (entry) => signedMoney(entry.amount),
    },
  ];

  return (
    <Card data-testid="customer-credit" className="min-w-0">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1.5">
          <CardTitle>Credit</CardTitle>
          <CardDescription>Credit notes beyond what was due, kept for the next invoice or refunded.</CardDescription>
        </div>
        {canManage && balance > 0 && (
          <Button variant="outline" size="sm" onClick={() => setRefunding({ customerId, customerName, balance })}>
            <HandCoins aria-hidden /> Refund Credit
          </Button>
        )}
      </CardHeader>
      <CardContent className="grid gap-6">
        {credit.error && !credit.data ? (
          <ErrorState title="Could not load the credit balance">Reload the page to try again.</ErrorState>
        ) : (
          <>
            <div className="flex items-center gap-3" aria-live="polite">
              <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-secondary text-secondary-foreground [&_svg]:size-5">
                <WalletCards aria-hidden />
              </span>
              <div>
                <p className="text-sm font-medium text-muted-foreground">Credit balance</p>
                {credit.data ? (
                  <p className="text-2xl font-semibold tabular-nums text-slate-900" data-testid="credit-balance">
                    {formatMoney(balance)}
                  </p>
                ) : (
                  <Skeleton className="mt-1 h-8 w-24" />
                )}
              </div>
            </div>
            <section aria-labelledby="credit-movements" className="grid min-w-0 gap-2">
              <h4 id="credit-movements" className="text-sm font-semibold text-slate-900">
                Balance movements
              </h4>
              <DataTable
                caption="Credit balance movements"
                columns={entryColumns}
                rows={credit.data?.entries ?? []}
                rowKey={(entry) => entry.id}
                rowProps={() => ({ 'data-testid': 'credit-entry' })}
                loading={!credit.data}
                loadingRows={2}
                sortable={false}
                density="compact"
                className="min-w-[36rem]"
                empty={<p className="py-4 text-center text-sm text-muted-foreground">No movements yet</p>}
              />
            </section>
          </>
        )}
        <section aria-labelledby="customer-credit-notes" className="grid min-w-0 gap-2">
          <h4 id="customer-credit-notes" className="text-sm font-semibold text-slate-900">
            Credit notes
            {notes.data && notes.data.total > 0 && (
              <span className="ml-2 font-normal text-muted-foreground">{notes.data.total}</span>
            )}
          </h4>
          {notes.error && !notes.data ? (
            <ErrorState title="Could not load the credit notes">Reload the page to try again.</ErrorState>
          ) : (
            <CreditNotesTable
              forCustomer
              rows={notes.data?.rows ?? []}
              loading={!notes.data}
              busy={notes.isFetching && !notes.isLoading}
              onViewInvoice={setViewing}
              empty={
                <EmptyState icon={<ReceiptText />} title="No credit notes">
                  Credit notes issued on this customer's invoices appear here.
                </EmptyState>
              }
            />
          )}
          <Pagination page={page} pages={pages} onPageChange={setPage} className="mt-2" />
        </section>
      </CardContent>
      <InvoiceDetailDialog invoiceId={viewing} onClose={() => setViewing(null)} />
      {canManage && <RefundCreditDialog target={refunding} onClose={() => setRefunding(null)} />}
    </Card>
  );
}
