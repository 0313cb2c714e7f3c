import type { CreditNote } from '@shared/contracts/credit-notes';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { type Column, DataTable } from '@/components/ui/data-table';
import { paths } from '@/lib/paths';
import { formatDate, formatMoney } from '../lib/format';
import { CreditNoteKindBadge } from './credit-note-kind-badge';
import { CreditNotePdfButton } from './credit-note-pdf-button';

/** An invoice's number that opens the invoice. */
export function ViewInvoiceButton({ number, onView }: { number: string; onView: () => void }) {
  return (
    <button
      type="button"
      onClick={onView}
      className="rounded font-mono text-xs font-medium text-primary hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      aria-label={`View invoice ${number}`}
    >
      {number}
    </button>
  );
}

/** The customer's name, which opens the customer. */
function CustomerLink({ customerId, name }: { customerId: string; name: string | null }) {
  return (
    <Link
      href={paths.customer(customerId)}
      className="block max-w-[10rem] truncate hover:underline 2xl:max-w-[16rem]"
      title={`${name ?? 'Unknown Customer'}: view the customer`}
    >
      {name ?? 'Unknown Customer'}
    </Link>
  );
}

/**
 * A table of credit notes: number, the invoice it credits (which opens it), customer, kind, reason, amount,
 * issue date and the PDF. A page of the server's, newest first. The Invoices screen (its Type filter) lists
 * every customer's; a customer's Credit card (`forCustomer`) lists that customer's, without the customer
 * column, in tighter rows.
 */
export function CreditNotesTable({
  rows,
  loading,
  busy,
  empty,
  onViewInvoice,
  forCustomer = false,
}: {
  rows: CreditNote[];
  loading: boolean;
  busy: boolean;
  empty: ReactNode;
  onViewInvoice: (invoiceId: string) => void;
  forCustomer?: boolean;
}) {
  const columns: Column<CreditNote>[] = [
    {
      id: 'number',
      header: 'Number',
      role: 'identity',
      cellClassName: 'whitespace-nowrap',
      cell: (note) => (
        <>
          <span className="font-mono text-xs font-medium text-slate-900">{note.number}</span>
          {/* Below 1536 px the issue date goes under the number rather than in a column of its own. */}
          {!forCustomer && (
            <span className="hidden text-xs tabular-nums text-muted-foreground sm:block 2xl:hidden">
              Issued {formatDate(note.issuedAt)}
            </span>
          )}
        </>
      ),
    },
    {
      id: 'invoice',
      header: 'Invoice',
      cellClassName: 'whitespace-nowrap',
      cell: (note) => <ViewInvoiceButton number={note.invoiceNumber} onView={() => onViewInvoice(note.invoiceId)} />,
    },
    {
      id: 'customer',
      header: 'Customer',
      cell: (note) => <CustomerLink customerId={note.customerId} name={note.customerName} />,
    },
    { id: 'kind', header: 'Kind', role: 'status', cell: (note) => <CreditNoteKindBadge kind={note.kind} /> },
    {
      id: 'reason',
      header: 'Reason',
      cell: (note) => (
        <span className="block max-w-[9rem] truncate 2xl:max-w-[20rem]" title={note.reason}>
          {note.reason}
        </span>
      ),
    },
    {
      id: 'amount',
      header: 'Amount',
      role: 'amount',
      align: 'right',
      cellClassName: forCustomer ? 'whitespace-nowrap' : 'whitespace-nowrap font-medium',
      cell: (note) => formatMoney(note.amount),
    },
    {
      id: 'issued',
      header: 'Issued',
      className: forCustomer ? undefined : 'hidden 2xl:table-cell',
      cellClassName: 'whitespace-nowrap tabular-nums',
      cell: (note) => formatDate(note.issuedAt),
    },
    {
      id: forCustomer ? 'pdf' : 'actions',
      header: forCustomer ? 'PDF' : 'Actions',
      role: 'actions',
      hideHeader: true,
      align: 'right',
      cellClassName: forCustomer ? 'py-2' : 'whitespace-nowrap py-2',
      cell: (note) => <CreditNotePdfButton note={note} />,
    },
  ];
  return (
    <DataTable
      caption="Credit notes"
      columns={forCustomer ? columns.filter((column) => column.id !== 'customer') : columns}
      rows={rows}
      rowKey={(note) => note.id}
      rowProps={(note) =>
        forCustomer
          ? { 'data-testid': 'customer-credit-note', 'data-number': note.number }
          : { 'data-testid': 'credit-note-row', 'data-credit-note-number': note.number }
      }
      loading={loading}
      loadingRows={forCustomer ? 2 : 6}
      busy={busy}
      empty={empty}
      sortable={false}
      frame={forCustomer ? undefined : 'card'}
      density={forCustomer ? 'compact' : 'snug'}
      className={forCustomer ? 'min-w-[44rem]' : undefined}
    />
  );
}
