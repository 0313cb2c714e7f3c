import { ACCOUNTING_FORMAT_LABELS, type AccountingExport } from '@shared/contracts/accounting-vocabulary';
import { Download, Inbox } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { type Column, DataTable } from '@/components/ui/data-table';
import { EmptyState, ErrorState } from '@/components/ui/feedback';
import { Pagination } from '@/components/ui/pagination';
import { countLabel, formatDate, formatMoney } from '@/lib/format';
import { useDownloadExport } from '../api/download-export';
import { EXPORTS_PAGE_SIZE, useExports } from '../api/get-exports';

/** What a batch holds, kind by kind: "3 invoices, 2 payments". */
export function documentsText(documents: AccountingExport['documents']): string {
  return [
    documents.invoices && countLabel(documents.invoices, false, 'invoice', 'invoices'),
    documents.creditNotes && countLabel(documents.creditNotes, false, 'credit note', 'credit notes'),
    documents.payments && countLabel(documents.payments, false, 'payment or refund', 'payments and refunds'),
    documents.creditRefunds && countLabel(documents.creditRefunds, false, 'credit refund', 'credit refunds'),
  ]
    .filter(Boolean)
    .join(', ');
}

/** The batches made, newest first, each downloadable again (the same file every time). */
export function ExportsTable({ page, onPageChange }: { page: number; onPageChange: (page: number) => void }) {
  const batches = useExports(page);
  const download = useDownloadExport();
  const rows = batches.data?.rows ?? [];
  const total = batches.data?.total ?? 0;

  const columns: Column<AccountingExport>[] = [
    {
      id: 'number',
      header: 'Batch',
      rowHeader: true,
      cell: (batch) => <span className="font-mono text-sm font-medium text-slate-900">{batch.number}</span>,
    },
    { id: 'format', header: 'Format', cell: (batch) => ACCOUNTING_FORMAT_LABELS[batch.format] },
    {
      id: 'range',
      header: 'Range',
      cellClassName: 'whitespace-nowrap',
      cell: (batch) =>
        batch.from === batch.to ? formatDate(batch.from) : `${formatDate(batch.from)} – ${formatDate(batch.to)}`,
    },
    {
      id: 'documents',
      header: 'Documents',
      cell: (batch) => (
        <>
          {batch.documentCount}
          <span className="block text-xs text-muted-foreground">{documentsText(batch.documents)}</span>
        </>
      ),
    },
    {
      id: 'amount',
      header: 'Total',
      align: 'right',
      cellClassName: 'whitespace-nowrap',
      cell: (batch) => (
        <>
          {formatMoney(batch.total)}
          <span className="block text-xs text-muted-foreground">
            {batch.tax === null ? 'debits = credits' : `tax ${formatMoney(batch.tax)}`}
          </span>
        </>
      ),
    },
    { id: 'madeBy', header: 'Made by', cell: (batch) => batch.createdBy?.name ?? '—' },
    {
      id: 'madeAt',
      header: 'Made at',
      cellClassName: 'whitespace-nowrap',
      cell: (batch) => (
        <time dateTime={batch.createdAt}>
          {formatDate(batch.createdAt)}
          <span className="block text-xs text-muted-foreground">
            {new Date(batch.createdAt).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' })}
          </span>
        </time>
      ),
    },
    {
      id: 'actions',
      header: 'Actions',
      hideHeader: true,
      align: 'right',
      cell: (batch) => (
        <Button
          variant="outline"
          size="sm"
          onClick={() => download.mutate(batch)}
          aria-label={`Download ${batch.number}`}
          disabled={download.isPending && download.variables?.id === batch.id}
        >
          <Download aria-hidden /> Download
        </Button>
      ),
    },
  ];

  if (batches.isError && !batches.data) {
    return <ErrorState title="The exports could not be loaded">Please reload the page.</ErrorState>;
  }
  return (
    <>
      <DataTable
        caption="Accounting exports"
        columns={columns}
        rows={rows}
        rowKey={(batch) => batch.id}
        rowProps={(batch) => ({ 'data-testid': 'export-row', 'data-format': batch.format })}
        loading={batches.isPending}
        busy={batches.isFetching && !batches.isPending}
        empty={
          <EmptyState icon={<Inbox aria-hidden />} title="No exports yet">
            Choose a range and a format above: the batch appears here, numbered, and can be downloaded again.
          </EmptyState>
        }
      />
      <Pagination
        page={page}
        pages={Math.ceil(total / EXPORTS_PAGE_SIZE)}
        onPageChange={onPageChange}
        className="mt-4"
      />
    </>
  );
}
