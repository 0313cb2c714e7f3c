import type { Deal } from '@shared/contracts/deals';
import { can } from '@shared/permissions';
import { useQueryClient } from '@tanstack/react-query';
import { Plus, TrendingUp } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Button } from '@/components/ui/button';
import { AccessDenied, EmptyState, ErrorState, Skeleton } from '@/components/ui/feedback';
import { lazyWhen } from '@/components/ui/lazy-when';
import { PageHeader } from '@/components/ui/page-header';
import { useCurrentUser } from '@/features/auth/api/me';
import { usePipelineSummary } from '@/features/pipeline/api/get-pipeline-summary';
import { refreshPipeline } from '@/features/pipeline/api/keys';
import { BoardSkeleton } from '@/features/pipeline/components/board-skeleton';
import { PipelineBoard } from '@/features/pipeline/components/pipeline-board';
import { PipelineFilterBar } from '@/features/pipeline/components/pipeline-filters';
import { ViewToggle } from '@/features/pipeline/components/view-toggle';
import { usePipelineParams } from '@/features/pipeline/hooks/use-pipeline-params';
import { hasFilters } from '@/features/pipeline/lib/filters';
import { dealCount } from '@/features/pipeline/lib/format-deal';
import { formatMoney } from '@/lib/format';

// The list view loads when it is first shown; the dialog and the details the first time they open
// (docs/decisions/017-performance.md). The board, with its drag and drop, is this screen's first paint.
const DealsList = lazy(() =>
  import('@/features/pipeline/components/deals-list').then((module) => ({ default: module.DealsList })),
);
const DealFormDialog = lazyWhen(
  () => import('@/features/pipeline/components/deal-form-dialog').then((module) => module.DealFormDialog),
  (props) => props.open,
);
// A deal's activities, inside its details (the activities feature's card).
const ActivitiesCard = lazy(() =>
  import('@/features/activities/components/activities-card').then((module) => ({ default: module.ActivitiesCard })),
);
const DealDetailsSheet = lazyWhen(
  () => import('@/features/pipeline/components/deal-details-sheet').then((module) => module.DealDetailsSheet),
  (props) => props.opened !== null,
);

/**
 * The sales pipeline (product.md section 19): a board with a column per stage, or a sortable list; reps see their
 * own deals, managers and admins everyone's (and filter by rep). Filters, view, sort and page live in the address.
 */
export default function PipelinePage() {
  const { user } = useCurrentUser();
  const seesAll = can(user, 'deal:any');
  const allowed = seesAll || can(user, 'deal:own');
  const { filters, view, sort, page, update } = usePipelineParams();
  const summary = usePipelineSummary(filters, { enabled: allowed });
  const [editing, setEditing] = useState<{ deal: Deal | null } | null>(null);
  const [opened, setOpened] = useState<Deal | null>(null);
  const queryClient = useQueryClient();

  if (!allowed) return <AccessDenied message="You don't have permission to view the pipeline" />;

  const filtered = hasFilters(filters);
  const newDeal = () => setEditing({ deal: null });
  const empty = (
    <EmptyState icon={<TrendingUp />} title={filtered ? 'No deals match these filters' : 'No deals yet'}>
      {filtered ? (
        'Try another rep, month, source or search.'
      ) : (
        <>
          <p>Deals you are working on show here, by stage.</p>
          <Button className="mt-4" onClick={newDeal}>
            <Plus aria-hidden /> New deal
          </Button>
        </>
      )}
    </EmptyState>
  );
  const totals = summary.data?.totals;

  return (
    <>
      <PageHeader
        title="Pipeline"
        description="Deals by stage: who is buying, for how much, and when they are expected to close."
        actions={
          <Button onClick={newDeal}>
            <Plus aria-hidden /> New deal
          </Button>
        }
      />

      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <ViewToggle view={view} onChange={(next) => update({ view: next === 'list' ? 'list' : null })} />
        {totals && (
          <p className="text-sm text-muted-foreground" data-testid="pipeline-totals">
            {dealCount(totals.count)} · {formatMoney(totals.total)} in all · {formatMoney(totals.weighted)} weighted
          </p>
        )}
      </div>

      <PipelineFilterBar filters={filters} onChange={update} canFilterRep={seesAll} />

      {view === 'list' ? (
        <Suspense fallback={<Skeleton className="h-64 rounded-xl" />}>
          <DealsList
            filters={filters}
            sort={sort}
            page={page}
            onSort={(next) => update({ sort: next })}
            onPage={(next) => update({ page: next > 0 ? String(next + 1) : null })}
            showOwner={seesAll}
            onOpen={setOpened}
            empty={empty}
          />
        </Suspense>
      ) : summary.error && !summary.data ? (
        <ErrorState title="Could not load the pipeline">Reload the page to try again.</ErrorState>
      ) : !summary.data ? (
        <BoardSkeleton />
      ) : summary.data.totals.count === 0 && !filtered ? (
        empty
      ) : (
        <PipelineBoard summary={summary.data} filters={filters} showOwner={seesAll} onOpen={setOpened} />
      )}

      <DealFormDialog
        open={editing !== null}
        onOpenChange={(open) => {
          if (!open) setEditing(null);
        }}
        deal={editing?.deal ?? null}
        canChooseOwner={seesAll}
      />
      <DealDetailsSheet
        opened={opened}
        onClose={() => setOpened(null)}
        onEdit={(deal) => {
          setOpened(null);
          setEditing({ deal });
        }}
        activities={(deal) => (
          <Suspense fallback={<Skeleton className="h-24" />}>
            <ActivitiesCard
              variant="section"
              customer={{ id: deal.customerId, name: deal.customerName }}
              deal={deal}
              canChooseOwner={seesAll}
              // Its last activity is now: no longer stale.
              onChanged={() => refreshPipeline(queryClient)}
            />
          </Suspense>
        )}
      />
    </>
  );
}
