import { contractStatusBadge } from '@shared/contracts/contract-vocabulary';
import {
  type AvailabilityDay,
  type InventoryDay,
  type InventoryHolder,
  NEXT_FREE_HORIZON_DAYS,
} from '@shared/contracts/inventory-vocabulary';
import { useMemo } from 'react';
import { Link } from 'wouter';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { type Column, DataTable } from '@/components/ui/data-table';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { EmptyState, ErrorState } from '@/components/ui/feedback';
import { errorMessage } from '@/lib/api-client';
import { paths } from '@/lib/paths';
import { useInventoryDay } from '../api/get-inventory-day';
import { HeldMark, RenewalMark } from './day-styles';
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

/** "Dec 31, 2026" for a YYYY-MM-DD day. */
const shortDay = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  });

const KIND_LABEL: Record<InventoryHolder['kind'], string> = {
  booked: 'Booked',
  held: 'Held',
  held_for_renewal: 'Held for renewal',
};

/** A holder as a table row: its position is its key (a contract the caller may not see has no id to show). */
type HolderRow = InventoryHolder & { key: string };

const COLUMNS: Column<HolderRow>[] = [
  {
    id: 'contract',
    header: 'Contract',
    rowHeader: true,
    sortValue: (holder) => holder.contract?.shortId ?? null,
    cell: ({ contract, kind }) =>
      contract ? (
        <span className="grid gap-0.5">
          {contract.canOpen ? (
            <Link
              href={paths.contract(contract.id)}
              className="justify-self-start rounded font-mono text-xs font-medium text-primary hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
              aria-label={`Contract ${contract.shortId}${contract.title ? `: ${contract.title}` : ''}`}
            >
              {contract.shortId}
            </Link>
          ) : (
            <span className="font-mono text-xs font-medium">{contract.shortId}</span>
          )}
          {contract.title && <span className="font-normal text-slate-700">{contract.title}</span>}
        </span>
      ) : (
        // Another rep's contract: only that its units are booked, held or held for renewal, and until when.
        <span className="grid gap-0.5">
          <span>{KIND_LABEL[kind]}</span>
          <span className="text-xs font-normal text-slate-500">Another contract</span>
        </span>
      ),
  },
  {
    id: 'customer',
    header: 'Customer',
    sortValue: (holder) => holder.contract?.customerName ?? null,
    cell: ({ contract }) => (contract ? (contract.customerName ?? 'Unknown Customer') : '—'),
  },
  {
    id: 'status',
    header: 'Status',
    sortValue: (holder) => holder.contract?.status ?? null,
    cell: ({ contract }) => {
      if (!contract) return '—';
      const badge = contractStatusBadge(contract.status);
      return (
        <Badge tone={badge.tone} data-status={contract.status}>
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
      holder.kind === 'booked' ? (
        'Booked'
      ) : (
        <span className="inline-flex items-center gap-1.5 whitespace-nowrap">
          {holder.kind === 'held' ? <HeldMark /> : <RenewalMark />} {KIND_LABEL[holder.kind]}
        </span>
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
    id: 'end-date',
    header: 'Ends',
    cellClassName: 'whitespace-nowrap',
    sortValue: (holder) => holder.endDate,
    cell: (holder) => (holder.endDate ? shortDay(holder.endDate) : 'No end date'),
  },
  {
    id: 'hold-until',
    header: 'Hold until',
    cellClassName: 'whitespace-nowrap',
    sortValue: (holder) => holder.contract?.holdUntil ?? null,
    cell: ({ kind, contract }) => (kind === 'held' && contract?.holdUntil ? holdEnd(contract.holdUntil) : '—'),
  },
  {
    id: 'sales-rep',
    header: 'Sales rep',
    sortValue: (holder) => holder.contract?.salesRepName ?? null,
    cell: ({ contract }) => contract?.salesRepName ?? '—',
  },
];

/** "1 of 3 slots available · 1 booked · 1 held" (and "· 1 held for renewal" when some are). */
const figuresText = (day: AvailabilityDay) =>
  `${day.available} of ${day.capacity} ${day.capacity === 1 ? 'slot' : 'slots'} available · ${day.booked} booked · ${day.held} held${day.heldForRenewal > 0 ? ` · ${day.heldForRenewal} held for renewal` : ''}`;

/** "Fri, Dec 11": a next free date's button. */
const buttonDay = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });

/**
 * What a sold-out day offers instead: the nearest days after it with a slot free (the server's answer), each
 * opening that day.
 */
function NextFreeDates({
  nextFree,
  onOpenDay,
}: {
  nextFree: InventoryDay['nextFree'] | undefined;
  onOpenDay: (date: string) => void;
}) {
  return (
    <section
      aria-label="Next free dates"
      data-testid="inventory-next-free"
      className="rounded-md border border-red-200 bg-red-50 p-3 text-sm"
    >
      <p className="font-medium text-red-950">Sold out. Next free dates:</p>
      {!nextFree ? (
        <p className="mt-1 text-muted-foreground">Looking for free days...</p>
      ) : nextFree.dates.length === 0 ? (
        <p className="mt-1 text-slate-700">No free day in the next {NEXT_FREE_HORIZON_DAYS} days.</p>
      ) : (
        <ul className="mt-2 flex flex-wrap gap-2">
          {nextFree.dates.map((date) => (
            <li key={date}>
              <Button
                variant="outline"
                size="sm"
                data-date={date}
                aria-label={`Open ${longDay(date)}`}
                onClick={() => onOpenDay(date)}
              >
                {buttonDay(date)}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * A day of an inventory product: its figures and the contracts holding or booking it. Closed, it keeps the day
 * it showed; focus goes back to that day's button.
 */
export function InventoryDayDialog({
  selected,
  open,
  onClose,
  onOpenDay,
}: {
  selected: SelectedDay | null;
  open: boolean;
  onClose: () => void;
  /** Shows another day of the same product (a next free date). */
  onOpenDay: (date: string) => void;
}) {
  // Asked again each time the dialog opens: a contract may have taken or released the day meanwhile.
  const query = useInventoryDay(open && selected ? { productId: selected.productId, date: selected.date } : null);
  const data = query.data;
  const rows = useMemo<HolderRow[]>(
    () => (data?.holders ?? []).map((holder, index) => ({ ...holder, key: String(index) })),
    [data],
  );
  // The calendar's figures show at once; the day's own answer replaces them (it may be newer).
  const figures = (data?.date === selected?.date ? data : null) ?? selected?.day ?? null;
  const soldOut = figures !== null && figures.available === 0;
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
                {selected.productName} · {longDay(selected.date)}
              </DialogTitle>
              <DialogDescription>
                {figures ? figuresText(figures) : 'Loading the figures of this day...'}
              </DialogDescription>
            </DialogHeader>
            {soldOut && <NextFreeDates nextFree={data?.nextFree} onOpenDay={onOpenDay} />}
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
                caption={`Contracts holding ${selected.productName} on ${selected.date}`}
                columns={COLUMNS}
                rows={rows}
                rowKey={(holder) => holder.key}
                rowProps={(holder) => ({
                  'data-testid': 'inventory-holder',
                  'data-kind': holder.kind,
                  'data-shown': holder.contract ? 'contract' : 'units',
                })}
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
