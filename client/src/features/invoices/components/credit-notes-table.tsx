import type { CreditNote } from '@shared/contracts/credit-notes';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { type Column, DataTable } from '@/components/ui/data-table';
import { paths } from '@/lib/paths';
import { formatDate, formatMoney } from '../lib/format';
import { CreditNoteKindBadge } from './credit-note-kind-badge';
import { CreditNotePdfButton } from './credit-note-pdf-button';

/**
 * The Invoices screen's table of credit notes (its Type filter): number, the invoice it credits (which
 * opens it), customer, kind, reason, amount, issue date and the PDF. A page of the server's, newest first.
 */
export function CreditNotesTable({
  rows,
  loading,
  busy,
  empty,
  onViewInvoice,
}: {
  rows: CreditNote[];
  loading: boolean;
  busy: boolean;
  empty: ReactNode;
  onViewInvoice: (invoiceId: string) => void;
}) {
  const columns: Column<CreditNote>[] = [
    {
      id: 'number',
      header: 'Number',
      cellClassName: 'whitespace-nowrap',
      cell: (note) => <span className="font-mono text-xs font-medium text-slate-900">{note.number}</span>,
    },
    {
      id: 'invoice',
      header: 'Invoice',
      cellClassName: 'whitespace-nowrap',
      cell: (note) => (
        <button
          type="button"
          onClick={() => onViewInvoice(note.invoiceId)}
          className="rounded font-mono text-xs font-medium text-primary hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          aria-label={`View invoice ${note.invoiceNumber}`}
        >
          {note.invoiceNumber}
        </button>
      ),
    },
    {
      id: 'customer',
      header: 'Customer',
      cellClassName: 'min-w-[10rem]',
      cell: (note) => (
        <Link href={paths.customer(note.customerId)} className="hover:underline" title="View the customer">
          {note.customerName ?? 'Unknown Customer'}
        </Link>
      ),
    },
    { id: 'kind', header: 'Kind', cell: (note) => <CreditNoteKindBadge kind={note.kind} /> },
    {
      id: 'reason',
      header: 'Reason',
      cell: (note) => (
        <span className="block max-w-[12rem] truncate 2xl:max-w-[20rem]" title={note.reason}>
          {note.reason}
        </span>
      ),
    },
    {
      id: 'amount',
      header: 'Amount',
      align: 'right',
      cellClassName: 'whitespace-nowrap font-medium',
      cell: (note) => formatMoney(note.amount),
    },
    {
      id: 'issued',
      header: 'Issued',
      cellClassName: 'whitespace-nowrap tabular-nums',
      cell: (note) => formatDate(note.issuedAt),
    },
    {
      id: 'actions',
      header: 'Actions',
      hideHeader: true,
      align: 'right',
      cellClassName: 'whitespace-nowrap py-2',
      cell: (note) => <CreditNotePdfButton note={note} />,
    },
  ];
  return (
    <DataTable
      caption="Credit notes"
      columns={columns}
      rows={rows}
      rowKey={(note) => note.id}
      rowProps={(note) => ({ 'data-testid': 'credit-note-row', 'data-credit-note-number': note.number })}
      loading={loading}
      loadingRows={6}
      busy={busy}
      empty={empty}
      sortable={false}
      frame="card"
      density="snug"
      className="min-w-[56rem]"
    />
  );
}
