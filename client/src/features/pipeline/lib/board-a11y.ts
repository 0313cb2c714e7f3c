import type {
  Announcements,
  KeyboardCoordinateGetter,
  ScreenReaderInstructions,
  UniqueIdentifier,
} from '@dnd-kit/core';
import type { Deal, PipelineStage } from '@shared/contracts/deals';

/**
 * The board's drag and drop in words and keys: what a screen reader hears while a card moves, and how the arrow
 * keys carry a picked-up card from one column to the next.
 */

/** What a card and a column carry for dnd-kit (`data`). */
export type CardData = { deal: Deal };
export type ColumnData = { stage: PipelineStage };

/** The card whose handle takes the focus once it shows in its new column (a move made with the keyboard). */
export type Refocus = { dealId: string; stageId: string } | null;

type Item = { data: { current?: Record<string, unknown> } } | null;
const dealOf = (item: Item) => (item?.data.current as CardData | undefined)?.deal;
const stageOf = (item: Item) => (item?.data.current as ColumnData | undefined)?.stage;

export const boardInstructions: ScreenReaderInstructions = {
  draggable:
    'To move this deal to another stage, press Space or Enter to pick it up, then the left and right arrow keys to ' +
    'move it from stage to stage. Press Space or Enter again to drop it, or Escape to leave it where it was.',
};

/** The stage a deal is in, by name, for "stays in Lead". */
const stayText = (deal: Deal | undefined) => (deal ? `Deal ${deal.title} stays in ${deal.stageName}.` : '');

/**
 * What the board says as a card moves. The column a card is over is said when it changes: not the card's own column
 * right after it is picked up, but again when the card comes back to it.
 */
export function boardAnnouncements(): Announcements {
  let lastOver: UniqueIdentifier | null = null;
  return {
    onDragStart: ({ active }) => {
      lastOver = dealOf(active)?.stageId ?? null;
      return `Picked up deal ${dealOf(active)?.title ?? ''}.`;
    },
    onDragOver: ({ active, over }) => {
      if ((over?.id ?? null) === lastOver) return undefined;
      lastOver = over?.id ?? null;
      const stage = stageOf(over);
      return stage ? `Moved over ${stage.name}.` : `Deal ${dealOf(active)?.title ?? ''} is not over a stage.`;
    },
    onDragEnd: ({ active, over }) => {
      const deal = dealOf(active);
      const stage = stageOf(over);
      if (!stage) return `Dropped outside the stages. ${stayText(deal)}`;
      if (stage.id === deal?.stageId) return `Dropped in ${stage.name}, where it already was.`;
      if (stage.kind === 'lost') return `Dropped in ${stage.name}. Choose why the deal was lost.`;
      return `Dropped in ${stage.name}.`;
    },
    onDragCancel: ({ active }) => `Moving canceled. ${stayText(dealOf(active))}`,
  };
}

/**
 * Left and right arrows carry the picked-up card to the middle of the previous or next column (the columns in the
 * order they stand on screen); up and down do nothing. The board scrolls to a column out of view.
 */
export const columnKeyboardCoordinates: KeyboardCoordinateGetter = (event, { context, currentCoordinates }) => {
  const step = event.code === 'ArrowRight' ? 1 : event.code === 'ArrowLeft' ? -1 : 0;
  const { collisionRect, droppableRects, droppableContainers, over } = context;
  if (step === 0 || !collisionRect) return undefined;
  const columns = droppableContainers
    .getEnabled()
    .map((container) => ({ id: container.id, rect: droppableRects.get(container.id) }))
    .filter((column): column is { id: typeof column.id; rect: NonNullable<typeof column.rect> } => !!column.rect)
    .sort((a, b) => a.rect.left - b.rect.left);
  const currentId = over?.id ?? dealOf(context.active)?.stageId;
  const next = columns[columns.findIndex((column) => column.id === currentId) + step];
  if (!next) return undefined;
  event.preventDefault();
  return { x: next.rect.left + (next.rect.width - collisionRect.width) / 2, y: currentCoordinates.y };
};

/** What dropping a deal on a stage does: nothing (its own stage, or no stage), ask why it was lost, or move it. */
export function dropOutcome(deal: Deal | undefined, stage: PipelineStage | undefined): 'stay' | 'ask-reason' | 'move' {
  if (!deal || !stage || stage.id === deal.stageId) return 'stay';
  return stage.kind === 'lost' ? 'ask-reason' : 'move';
}
