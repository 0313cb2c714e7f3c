import type { InvoiceSummary } from '@shared/contracts/invoices';
import type { Column } from '@/components/ui/data-table';
import { DunningStageNote } from './dunning-stage-note';
import { InvoiceStatusBadge } from './invoice-status-badge';

/**
 * The Status column of the invoice tables: the status badge, and under it how far dunning has chased an
 * overdue invoice. Wide enough for a stage on two lines ("Contract paused / for non-payment").
 */
export const invoiceStatusColumn: Column<InvoiceSummary> = {
  id: 'status',
  header: 'Status',
  cellClassName: (invoice) => invoice.dunningStage !== null && 'min-w-[8rem]',
  cell: (invoice) => (
    <span className="grid justify-items-start gap-1">
      <InvoiceStatusBadge status={invoice.status} overdue={invoice.overdue} />
      <DunningStageNote stage={invoice.dunningStage} />
    </span>
  ),
};
