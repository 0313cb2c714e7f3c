import {
  ACCOUNTING_FORMAT_LABELS,
  type AccountingExport,
  type AccountingFormat,
  partLabel,
} from '@shared/contracts/accounting-vocabulary';
import { ChevronDown, Download, Inbox } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { type Column, DataTable } from '@/components/ui/data-table';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { EmptyState, ErrorState } from '@/components/ui/feedback';
import { Pagination } from '@/components/ui/pagination';
import { countLabel, formatDate, formatMoney } from '@/lib/format';
import { useDownloadExport } from '../api/download-export';
import { useDownloadExportZip } from '../api/download-export-zip';
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

/** What a format's files hold, one and many: invoices, credit notes, or documents (the journal). */
const HELD: Record<AccountingFormat, [string, string]> = {
  'xero-invoices': ['invoice', 'invoices'],
  'quickbooks-invoices': ['invoice', 'invoices'],
  'xero-credit-notes': ['credit note', 'credit notes'],
  journal: ['document', 'documents'],
};

/** A batch's files: "1 file", or "3 parts" and what each holds ("100 · 100 · 50"). */
export function filesText(batch: Pick<AccountingExport, 'parts'>): { count: string; split: string | null } {
  const { parts } = batch;
  if (parts.length <= 1) return { count: '1 file', split: null };
  return { count: `${parts.length} parts`, split: parts.map((part) => part.documentCount).join(' · ') };
}

/** A part's menu item: "Part 2 of 3 · 100 invoices". */
export function partItemText(
  batch: Pick<AccountingExport, 'format' | 'parts'>,
  part: AccountingExport['parts'][number],
) {
  const [one, many] = HELD[batch.format];
  return `${partLabel(part.part, batch.parts.length)} · ${countLabel(part.documentCount, false, one, many)}`;
}

/**
 * The batches made, newest first, each downloadable again (the same files every time): a batch of one file has
 * its Download button; a batch of several parts a Download menu with each part and all of them in one zip.
 */
export function ExportsTable({ page, onPageChange }: { page: number; onPageChange: (page: number) => void }) {
  const batches = useExports(page);
  const download = useDownloadExport();
  const downloadZip = useDownloadExportZip();
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
      cell: (batch) => {
        const { count, split } = filesText(batch);
        return (
          <>
            {batch.documentCount}
            <span className="block text-xs text-muted-foreground">{documentsText(batch.documents)}</span>
            <span className="block text-xs text-muted-foreground" data-testid="export-files">
              {split ? `in ${count}: ${split}` : count}
            </span>
          </>
        );
      },
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
      cell: (batch) => {
        const busy =
          (download.isPending && download.variables?.batch.id === batch.id) ||
          (downloadZip.isPending && downloadZip.variables?.id === batch.id);
        const [only] = batch.parts;
        if (batch.parts.length === 1 && only) {
          return (
            <Button
              variant="outline"
              size="sm"
              onClick={() => download.mutate({ batch, part: only })}
              aria-label={`Download ${batch.number}`}
              disabled={busy}
            >
              <Download aria-hidden /> Download
            </Button>
          );
        }
        return (
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <Button
                variant="outline"
                size="sm"
                aria-label={`Download ${batch.number}: ${batch.parts.length} parts`}
                disabled={busy}
              >
                <Download aria-hidden /> Download <ChevronDown aria-hidden />
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent>
              {batch.parts.map((part) => (
                <DropdownMenuItem key={part.part} onSelect={() => download.mutate({ batch, part })}>
                  {partItemText(batch, part)}
                </DropdownMenuItem>
              ))}
              <DropdownMenuSeparator />
              <DropdownMenuItem onSelect={() => downloadZip.mutate(batch)}>
                All {batch.parts.length} parts (zip)
              </DropdownMenuItem>
            </DropdownMenuContent>
          </DropdownMenu>
        );
      },
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
            Choose a range and a format above: the batch appears here, numbered, and its files can be downloaded again.
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
