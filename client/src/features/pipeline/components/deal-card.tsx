import { useDraggable } from '@dnd-kit/core';
import type { Deal } from '@shared/contracts/deals';
import { type ReactNode, useEffect, useRef } from 'react';
import { Badge } from '@/components/ui/badge';
import { formatMoney } from '@/lib/format';
import { cn } from '@/lib/utils';
import type { CardData } from '../lib/board-a11y';
import { closeText, percent } from '../lib/format-deal';
import { GripIcon } from './grip-icon';

type CardProps = {
  deal: Deal;
  /** The owner's name is shown to those who see every rep's deals. */
  showOwner: boolean;
  onOpen: (deal: Deal) => void;
};

/**
 * A deal on the board: its handle picks it up (pointer or keyboard), the rest of the card is one button that opens
 * its details (its name is the deal's title).
 */
export function DealCard({
  deal,
  showOwner,
  onOpen,
  focusHandle = false,
  onFocused,
}: CardProps & { focusHandle?: boolean; onFocused?: () => void }) {
  const data: CardData = { deal };
  const { setNodeRef, setActivatorNodeRef, attributes, listeners, isDragging } = useDraggable({ id: deal.id, data });
  const handle = useRef<HTMLButtonElement | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the card shows where it was moved to
  useEffect(() => {
    if (!focusHandle) return;
    handle.current?.focus();
    onFocused?.();
  }, [focusHandle]);
  return (
    <li ref={setNodeRef} className={cn(isDragging && 'opacity-40')} data-testid="deal-card" data-deal-id={deal.id}>
      <DealCardBody deal={deal} showOwner={showOwner} onOpen={onOpen}>
        <button
          ref={(node) => {
            setActivatorNodeRef(node);
            handle.current = node;
          }}
          type="button"
          {...attributes}
          {...listeners}
          aria-label={`Move deal ${deal.title}`}
          className="relative z-[1] -ml-1 mt-0.5 flex size-7 shrink-0 cursor-grab touch-none items-center justify-center rounded text-muted-foreground hover:bg-muted hover:text-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring active:cursor-grabbing"
        >
          <GripIcon className="size-4" />
        </button>
      </DealCardBody>
    </li>
  );
}

/** The card being dragged, drawn over the board while it moves. */
export function DealCardOverlay({ deal, showOwner }: { deal: Deal; showOwner: boolean }) {
  return (
    <div className="rotate-1 cursor-grabbing shadow-lg">
      <DealCardBody deal={deal} showOwner={showOwner}>
        <span className="-ml-1 mt-0.5 flex size-7 shrink-0 items-center justify-center text-muted-foreground">
          <GripIcon className="size-4" />
        </span>
      </DealCardBody>
    </div>
  );
}

function DealCardBody({
  deal,
  showOwner,
  onOpen,
  children,
}: Omit<CardProps, 'onOpen'> & { onOpen?: (deal: Deal) => void; children: ReactNode }) {
  return (
    <article
      className="relative flex gap-2 rounded-lg border bg-white p-3 text-sm shadow-sm transition-shadow hover:shadow-md"
      aria-label={deal.title}
    >
      {children}
      <div className="grid min-w-0 flex-1 gap-1">
        <div className="flex items-start justify-between gap-2">
          {onOpen ? (
            <button
              type="button"
              aria-haspopup="dialog"
              onClick={() => onOpen(deal)}
              className="min-w-0 break-words text-left font-medium text-slate-900 after:absolute after:inset-0 after:rounded-lg after:content-[''] focus-visible:outline-none focus-visible:after:ring-2 focus-visible:after:ring-ring"
            >
              {deal.title}
            </button>
          ) : (
            <span className="min-w-0 break-words font-medium text-slate-900">{deal.title}</span>
          )}
          {deal.stale && (
            <Badge tone="yellow" className="shrink-0" title="No activity for a while">
              Stale
            </Badge>
          )}
        </div>
        <p className="truncate text-muted-foreground">{deal.customerName}</p>
        <p className="flex flex-wrap items-baseline justify-between gap-x-2">
          <span className="font-semibold tabular-nums text-slate-900">{formatMoney(deal.amount)}</span>
          <span className="text-xs text-muted-foreground">{percent(deal.probability)} probability</span>
        </p>
        <p className="text-xs text-muted-foreground">{closeText(deal.expectedCloseDate)}</p>
        {showOwner && <p className="truncate text-xs text-muted-foreground">Owner: {deal.ownerName}</p>}
      </div>
    </article>
  );
}
