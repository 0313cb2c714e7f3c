import { invoiceStatusBadge } from '@shared/contracts/invoice-vocabulary';
import type { InvoiceSummary } from '@shared/contracts/invoices';
import { showsAmountDue } from '@shared/invoice-amounts';
import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import type { Column } from '@/components/ui/data-table';
import { formatDate, formatMoney } from '@/lib/format';

/**
 * The columns of the client's invoice lists (the portal's recent invoices, a contract's invoices): the number and
 * period, the due date, the amount (and what is still due), the status, and the actions the page gives each row.
 */
export function portalInvoiceColumns(actions?: (invoice: InvoiceSummary) => ReactNode): Column<InvoiceSummary>[] {
  return [
    {
      id: 'invoice',
      header: 'Invoice',
      rowHeader: true,
      cellClassName: 'whitespace-nowrap',
      cell: (invoice) => (
        <>
          {invoice.number}
          <span className="block text-xs font-normal text-muted-foreground">
            {formatDate(invoice.periodStart)} – {formatDate(invoice.periodEnd)}
          </span>
        </>
      ),
    },
    { id: 'due', header: 'Due', cellClassName: 'whitespace-nowrap', cell: (invoice) => formatDate(invoice.dueDate) },
    {
      id: 'amount',
      header: 'Amount',
      role: 'amount',
      align: 'right',
      cellClassName: 'whitespace-nowrap font-medium',
      cell: (invoice) => (
        <>
          {formatMoney(invoice.amount)}
          {showsAmountDue(invoice) && (
            <span className="block text-xs font-normal text-muted-foreground">
              {formatMoney(invoice.amountDue)} due
            </span>
          )}
        </>
      ),
    },
    {
      id: 'status',
      header: 'Status',
      cell: (invoice) => {
        const badge = invoiceStatusBadge(invoice.status, invoice.overdue && invoice.status === 'pending');
        return (
          <Badge tone={badge.tone} className="whitespace-nowrap" data-testid="invoice-status">
            {badge.label}
          </Badge>
        );
      },
    },
    {
      id: 'actions',
      header: 'Actions',
      hideHeader: true,
      cell: (invoice) => <div className="flex flex-wrap justify-end gap-2">{actions?.(invoice)}</div>,
    },
  ];
}
