import {
  type CollisionDetection,
  DndContext,
  type DragEndEvent,
  DragOverlay,
  type DragStartEvent,
  KeyboardSensor,
  PointerSensor,
  pointerWithin,
  rectIntersection,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import type { Deal, PipelineStage, PipelineSummary } from '@shared/contracts/deals';
import { useState } from 'react';
import { lazyWhen } from '@/components/ui/lazy-when';
import { useMoveDeal } from '../api/move-deal';
import {
  boardAnnouncements,
  boardInstructions,
  type CardData,
  type ColumnData,
  columnKeyboardCoordinates,
  dropOutcome,
  type Refocus,
} from '../lib/board-a11y';
import type { PipelineFilters } from '../lib/filters';
import { DealCardOverlay } from './deal-card';
import { StageColumn } from './stage-column';

// The reason dialog loads the first time a card is dropped on a lost stage.
const LostReasonDialog = lazyWhen(
  () => import('./lost-reason-dialog').then((module) => module.LostReasonDialog),
  (props) => props.losing !== null,
);

/** The pointer's column when there is a pointer; the keyboard's card the column it overlaps most. */
const collisions: CollisionDetection = (args) => {
  const under = pointerWithin(args);
  return under.length > 0 ? under : rectIntersection(args);
};

/** The deal dropped on a lost stage, while its reason is asked; `keyboard`: it was moved with the keyboard. */
export type Losing = { deal: Deal; stage: PipelineStage; keyboard: boolean };

/**
 * The board: a column per stage of the summary, in order. A card moves to another column by pointer or keyboard
 * (its handle, Space, the arrow keys, Space); it moves at once and goes back if the server refuses. A lost stage asks
 * why first.
 */
export function PipelineBoard({
  summary,
  filters,
  showOwner,
  onOpen,
}: {
  summary: PipelineSummary;
  filters: PipelineFilters;
  showOwner: boolean;
  onOpen: (deal: Deal) => void;
}) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    // The board jumps to a column out of view at once: a smooth scroll could be cut short while the card moves.
    useSensor(KeyboardSensor, { coordinateGetter: columnKeyboardCoordinates, scrollBehavior: 'auto' }),
  );
  const move = useMoveDeal();
  const [dragging, setDragging] = useState<Deal | null>(null);
  const [losing, setLosing] = useState<Losing | null>(null);
  const [announcements] = useState(boardAnnouncements);
  const [refocus, setRefocus] = useState<Refocus>(null);

  const onDragStart = ({ active }: DragStartEvent) => {
    setDragging((active.data.current as CardData | undefined)?.deal ?? null);
  };
  const onDragEnd = ({ active, over, activatorEvent }: DragEndEvent) => {
    setDragging(null);
    const deal = (active.data.current as CardData | undefined)?.deal;
    const stage = (over?.data.current as ColumnData | undefined)?.stage;
    const outcome = dropOutcome(deal, stage);
    // The card moves to another column (another element): the keyboard's focus goes with it.
    const keyboard = activatorEvent instanceof KeyboardEvent;
    if (outcome === 'ask-reason') setLosing({ deal: deal!, stage: stage!, keyboard });
    else if (outcome === 'move') {
      if (keyboard) setRefocus({ dealId: deal!.id, stageId: stage!.id });
      move.mutate({ deal: deal!, to: stage!, filters });
    }
  };

  return (
    <>
      <DndContext
        sensors={sensors}
        collisionDetection={collisions}
        accessibility={{ announcements, screenReaderInstructions: boardInstructions }}
        onDragStart={onDragStart}
        onDragEnd={onDragEnd}
        onDragCancel={() => setDragging(null)}
      >
        <ol
          aria-label="Pipeline stages"
          className="relative -mx-4 flex snap-x snap-mandatory scroll-px-4 items-stretch gap-3 overflow-x-auto px-4 pb-4 sm:mx-0 sm:snap-none sm:px-0"
          data-testid="pipeline-board"
        >
          {summary.stages.map((stage) => (
            <li key={stage.id} className="flex shrink-0 snap-start">
              <StageColumn
                stage={stage}
                filters={filters}
                showOwner={showOwner}
                onOpen={onOpen}
                refocus={refocus}
                onRefocused={() => setRefocus(null)}
              />
            </li>
          ))}
        </ol>
        <DragOverlay dropAnimation={null}>
          {dragging ? <DealCardOverlay deal={dragging} showOwner={showOwner} /> : null}
        </DragOverlay>
      </DndContext>
      <LostReasonDialog
        losing={losing}
        busy={move.isPending}
        onClose={() => setLosing(null)}
        onConfirm={(reason) => {
          if (!losing) return;
          if (losing.keyboard) setRefocus({ dealId: losing.deal.id, stageId: losing.stage.id });
          move.mutate({ deal: losing.deal, to: losing.stage, reason, filters });
          setLosing(null);
        }}
      />
    </>
  );
}
