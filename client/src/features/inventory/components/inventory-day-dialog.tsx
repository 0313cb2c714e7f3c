import { contractStatusBadge } from '@shared/contracts/contract-vocabulary';
import type { InventoryHolder } from '@shared/contracts/inventory-vocabulary';
import { Link } from 'wouter';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { type Column, DataTable } from '@/components/ui/data-table';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { EmptyState, ErrorState } from '@/components/ui/feedback';
import { errorMessage } from '@/lib/api-client';
import { paths } from '@/lib/paths';
import { useInventoryDay } from '../api/get-inventory-day';
import { HeldMark } from './day-styles';
import type { SelectedDay } from './product-calendar';

/** "Sun, Dec 20, 2026" for a YYYY-MM-DD day. */
const longDay = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  });

/** "Dec 27, 2026, 3:30 PM": when a hold ends, in the user's time zone. */
const holdEnd = (timestamp: string) =>
  new Date(timestamp).toLocaleString('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });

const COLUMNS: Column<InventoryHolder>[] = [
  {
    id: 'contract',
    header: 'Contract',
    rowHeader: true,
    sortValue: (holder) => holder.shortId,
    cell: (holder) => (
      <span className="grid gap-0.5">
        {holder.canOpen ? (
          <Link
            href={paths.contract(holder.contractId)}
            className="justify-self-start rounded font-mono text-xs font-medium text-primary hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            aria-label={`Contract ${holder.shortId}${holder.title ? `: ${holder.title}` : ''}`}
          >
            {holder.shortId}
          </Link>
        ) : (
          <span className="font-mono text-xs font-medium">{holder.shortId}</span>
        )}
        {holder.title && <span className="font-normal text-slate-700">{holder.title}</span>}
      </span>
    ),
  },
  {
    id: 'customer',
    header: 'Customer',
    sortValue: (holder) => holder.customerName,
    cell: (holder) => holder.customerName ?? 'Unknown Customer',
  },
  {
    id: 'status',
    header: 'Status',
    sortValue: (holder) => holder.status,
    cell: (holder) => {
      const badge = contractStatusBadge(holder.status);
      return (
        <Badge tone={badge.tone} data-status={holder.status}>
          {badge.label}
        </Badge>
      );
    },
  },
  {
    id: 'kind',
    header: 'Takes as',
    sortValue: (holder) => holder.kind,
    cell: (holder) =>
      holder.kind === 'held' ? (
        <span className="inline-flex items-center gap-1.5">
          <HeldMark /> Held
        </span>
      ) : (
        'Booked'
      ),
  },
  {
    id: 'quantity',
    header: 'Slots',
    align: 'right',
    sortValue: (holder) => holder.quantity,
    cell: (holder) => holder.quantity,
  },
  {
    id: 'hold-until',
    header: 'Hold until',
    cellClassName: 'whitespace-nowrap',
    sortValue: (holder) => holder.holdUntil,
    cell: (holder) => (holder.kind === 'held' && holder.holdUntil ? holdEnd(holder.holdUntil) : '—'),
  },
  {
    id: 'sales-rep',
    header: 'Sales rep',
    sortValue: (holder) => holder.salesRepName,
    cell: (holder) => holder.salesRepName ?? '—',
  },
];

/** "1 of 3 slots available · 1 booked · 1 held". */
const figuresText = (day: SelectedDay['day']) =>
  `${day.available} of ${day.capacity} ${day.capacity === 1 ? 'slot' : 'slots'} available · ${day.booked} booked · ${day.held} held`;

/**
 * A day of an inventory product: its figures and the contracts holding or booking it. Closed, it keeps the day
 * it showed; focus goes back to that day's button.
 */
export function InventoryDayDialog({
  selected,
  open,
  onClose,
}: {
  selected: SelectedDay | null;
  open: boolean;
  onClose: () => void;
}) {
  // Asked again each time the dialog opens: a contract may have taken or released the day meanwhile.
  const query = useInventoryDay(open && selected ? { productId: selected.productId, date: selected.day.date } : null);
  const data = query.data;
  // The calendar's figures show at once; the day's own answer replaces them (it may be newer).
  const figures = data ?? selected?.day;
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onClose()}>
      <DialogContent
        className="max-w-4xl"
        data-testid="inventory-day-dialog"
        onCloseAutoFocus={(event) => {
          if (!selected?.opener?.isConnected) return;
          event.preventDefault();
          selected.opener.focus();
        }}
      >
        {selected && (
          <>
            <DialogHeader>
              <DialogTitle>
                {selected.productName} · {longDay(selected.day.date)}
              </DialogTitle>
              <DialogDescription>{figures && figuresText(figures)}</DialogDescription>
            </DialogHeader>
            {query.isError && !data ? (
              <ErrorState title="Could not load the contracts of this day">
                <p>{errorMessage(query.error, 'Something went wrong.')}</p>
                <Button
                  variant="outline"
                  size="sm"
                  className="mt-3"
                  onClick={() => void query.refetch()}
                  disabled={query.isFetching}
                >
                  {query.isFetching ? 'Trying again...' : 'Try again'}
                </Button>
              </ErrorState>
            ) : (
              <DataTable
                caption={`Contracts holding ${selected.productName} on ${selected.day.date}`}
                columns={COLUMNS}
                rows={data?.holders ?? []}
                rowKey={(holder) => holder.contractId}
                rowProps={(holder) => ({ 'data-testid': 'inventory-holder', 'data-kind': holder.kind })}
                loading={!data}
                loadingRows={2}
                density="compact"
                phone="cards"
                empty={<EmptyState title="No contract holds this day." />}
              />
            )}
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
