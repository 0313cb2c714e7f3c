import type { ReceivableRow } from '@shared/contracts/receivables-vocabulary';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { type Column, DataTable } from '@/components/ui/data-table';
import { formatDate, formatMoney } from '@/lib/format';
import { paths } from '@/lib/paths';
import { daysLate } from '../lib/days-late';
import { DunningStageBadge } from './dunning-stage-badge';

/** An aging amount: muted when nothing is in the bucket, red past due. */
function Aged({ value, late }: { value: number; late: boolean }) {
  if (value === 0) return <span className="text-muted-foreground">—</span>;
  return <span className={late ? 'whitespace-nowrap text-red-700' : 'whitespace-nowrap'}>{formatMoney(value)}</span>;
}

const customerLink = (row: ReceivableRow) => (
  <Link
    href={paths.customer(row.customerId)}
    className="rounded font-medium text-primary hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
  >
    {row.customerName}
  </Link>
);

const lastPayment = (row: ReceivableRow) =>
  row.lastPaymentDate === null || row.lastPaymentAmount === null ? (
    <span className="text-muted-foreground">None yet</span>
  ) : (
    <span className="whitespace-nowrap">
      {formatMoney(row.lastPaymentAmount)}
      <span className="block text-xs text-muted-foreground">{formatDate(row.lastPaymentDate)}</span>
    </span>
  );

/**
 * Eight columns that fit a 1280 px screen: the customer with its open invoices and dunning stage under its
 * name, the open balance with the credit held under it, the five aging buckets, the last payment.
 */
const COLUMNS: Column<ReceivableRow>[] = [
  {
    id: 'customer',
    header: 'Customer',
    rowHeader: true,
    cell: (row) => (
      <span className="grid min-w-[10rem] max-w-[15rem] justify-items-start gap-1">
        {customerLink(row)}
        {row.openInvoices > 0 && (
          <span className="text-xs font-normal text-muted-foreground">
            {row.openInvoices} open {row.openInvoices === 1 ? 'invoice' : 'invoices'}
            {row.daysPastDue > 0 && ` · oldest ${daysLate(row.daysPastDue)}`}
          </span>
        )}
        {row.dunningStage && <DunningStageBadge stage={row.dunningStage} />}
      </span>
    ),
  },
  {
    id: 'balance',
    header: 'Open balance',
    align: 'right',
    cellClassName: 'whitespace-nowrap',
    cell: (row) => (
      <>
        <span className="font-semibold text-slate-900">{formatMoney(row.openBalance)}</span>
        {row.creditBalance > 0 && (
          <span className="block text-xs text-green-700">Credit {formatMoney(row.creditBalance)}</span>
        )}
      </>
    ),
  },
  { id: 'current', header: 'Current', align: 'right', cell: (row) => <Aged value={row.aging.current} late={false} /> },
  { id: '1-30', header: '1–30 days', align: 'right', cell: (row) => <Aged value={row.aging['1-30']} late /> },
  { id: '31-60', header: '31–60 days', align: 'right', cell: (row) => <Aged value={row.aging['31-60']} late /> },
  { id: '61-90', header: '61–90 days', align: 'right', cell: (row) => <Aged value={row.aging['61-90']} late /> },
  { id: '90+', header: '90+ days', align: 'right', cell: (row) => <Aged value={row.aging['90+']} late /> },
  { id: 'last-payment', header: 'Last payment', align: 'right', cell: lastPayment },
];

/** A customer's card on a phone: the balance, what is overdue, the stage, credit and the last payment. */
function ReceivableCard(row: ReceivableRow) {
  const fact = (label: string, value: ReactNode) => (
    <div className="flex items-baseline justify-between gap-3">
      <span className="text-muted-foreground">{label}</span>
      <span className="text-right tabular-nums">{value}</span>
    </div>
  );
  return (
    <>
      <div className="flex items-start justify-between gap-3">
        {customerLink(row)}
        <span className="text-base font-semibold tabular-nums text-slate-900">{formatMoney(row.openBalance)}</span>
      </div>
      {fact('Overdue', row.overdue > 0 ? <span className="text-red-700">{formatMoney(row.overdue)}</span> : '—')}
      {row.daysPastDue > 0 && fact('Oldest', daysLate(row.daysPastDue))}
      {fact('Dunning stage', <DunningStageBadge stage={row.dunningStage} />)}
      {row.creditBalance > 0 && fact('Credit', formatMoney(row.creditBalance))}
      {fact('Last payment', lastPayment(row))}
    </>
  );
}

/** The Receivables list: one row per customer, a page of the server's in the order it chose. */
export function ReceivablesTable({
  rows,
  loading,
  busy,
  empty,
}: {
  rows: ReceivableRow[];
  loading: boolean;
  busy: boolean;
  empty: ReactNode;
}) {
  return (
    <DataTable
      caption="Receivables by customer"
      columns={COLUMNS}
      rows={rows}
      rowKey={(row) => row.customerId}
      rowProps={(row) => ({ 'data-testid': 'receivable-row', 'data-customer': row.customerName })}
      loading={loading}
      busy={busy}
      empty={empty}
      density="snug"
      frame="card"
      className="text-[13px]"
      sortable={false}
      phone="cards"
      card={ReceivableCard}
    />
  );
}
