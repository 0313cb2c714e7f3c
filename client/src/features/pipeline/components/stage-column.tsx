import { useDroppable } from '@dnd-kit/core';
import type { Deal, PipelineSummary } from '@shared/contracts/deals';
import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/feedback';
import { formatMoney } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useStageDeals } from '../api/get-deals';
import type { ColumnData, Refocus } from '../lib/board-a11y';
import type { PipelineFilters } from '../lib/filters';
import { dealCount } from '../lib/format-deal';
import { DealCard } from './deal-card';

export type SummaryStage = PipelineSummary['stages'][number];

/** A stage's column: its figures (from the summary) over its cards, a drop target for the others' cards. */
export function StageColumn({
  stage,
  filters,
  showOwner,
  onOpen,
  refocus = null,
  onRefocused = () => {},
}: {
  stage: SummaryStage;
  filters: PipelineFilters;
  showOwner: boolean;
  onOpen: (deal: Deal) => void;
  /** The card of this column whose handle takes the focus when it shows (it was just moved here). */
  refocus?: Refocus;
  onRefocused?: () => void;
}) {
  const data: ColumnData = { stage };
  const { setNodeRef, isOver } = useDroppable({ id: stage.id, data });
  const deals = useStageDeals(stage.id, filters);
  const rows = deals.data?.pages.flatMap((page) => page.rows) ?? [];
  const headingId = useId();
  return (
    <section
      ref={setNodeRef}
      aria-labelledby={headingId}
      data-testid="stage-column"
      data-stage-kind={stage.kind}
      className={cn(
        'flex w-[17rem] flex-col gap-3 rounded-xl border bg-slate-50 p-3 transition-colors',
        isOver && 'border-primary bg-primary/5',
      )}
    >
      <StageHeader stage={stage} headingId={headingId} />
      {deals.isLoading ? (
        <div className="grid gap-2" aria-busy="true">
          <span className="sr-only">Loading deals</span>
          {[0, 1].map((i) => (
            <Skeleton key={i} className="h-24 rounded-lg" />
          ))}
        </div>
      ) : deals.error && !deals.data ? (
        <p role="alert" className="text-sm text-destructive">
          Could not load these deals. Reload the page to try again.
        </p>
      ) : rows.length === 0 ? (
        <p className="rounded-lg border border-dashed px-3 py-6 text-center text-sm text-muted-foreground">
          No deals in {stage.name}
        </p>
      ) : (
        <ul className="grid gap-2" aria-label={`Deals in ${stage.name}`}>
          {rows.map((deal) => (
            <DealCard
              key={deal.id}
              deal={deal}
              showOwner={showOwner}
              onOpen={onOpen}
              focusHandle={refocus?.dealId === deal.id && refocus.stageId === stage.id}
              onFocused={onRefocused}
            />
          ))}
        </ul>
      )}
      {deals.hasNextPage && (
        <Button
          variant="outline"
          size="sm"
          disabled={deals.isFetchingNextPage}
          onClick={() => void deals.fetchNextPage()}
          aria-label={`Show more deals in ${stage.name}`}
        >
          {deals.isFetchingNextPage
            ? 'Loading...'
            : `Show more (${(deals.data?.pages.at(-1)?.total ?? 0) - rows.length} left)`}
        </Button>
      )}
    </section>
  );
}

/** The stage's name, its number of deals, their total and weighted total. */
export function StageHeader({ stage, headingId }: { stage: SummaryStage; headingId: string }) {
  return (
    <header className="grid gap-1 border-b pb-2">
      <div className="flex items-baseline justify-between gap-2">
        <h2 id={headingId} className="truncate text-sm font-semibold text-slate-900">
          {stage.name}
        </h2>
        <span className="shrink-0 text-xs text-muted-foreground" data-testid="stage-count">
          {dealCount(stage.count)}
        </span>
      </div>
      <dl className="flex flex-wrap items-baseline justify-between gap-x-3 text-xs">
        <div className="flex gap-1">
          <dt className="sr-only">Total</dt>
          <dd className="font-semibold tabular-nums text-slate-900" data-testid="stage-total">
            {formatMoney(stage.total)}
          </dd>
        </div>
        <div className="flex gap-1 text-muted-foreground">
          <dt>Weighted</dt>
          <dd className="tabular-nums" data-testid="stage-weighted">
            {formatMoney(stage.weighted)}
          </dd>
        </div>
      </dl>
    </header>
  );
}
