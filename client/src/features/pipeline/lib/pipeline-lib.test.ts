import { describe, expect, it } from 'vitest';
import { sortParamOf, sortStateOf } from '../components/deals-list';
import { columnKeyboardCoordinates } from './board-a11y';
import { filterParams, filtersFromParams, monthRange } from './filters';
import { movedDeal, summaryAfterMove, withDealFirst, withoutDeal } from './optimistic-move';
import { LEAD, LOST, makeDeal, QUALIFIED, summaryOf, WON } from './test-data';

describe('the filters in the address', () => {
  it('turns a close month into its first and last day', () => {
    expect(monthRange('2026-02')).toEqual({ closeFrom: '2026-02-01', closeTo: '2026-02-28' });
    expect(monthRange('2028-02')).toEqual({ closeFrom: '2028-02-01', closeTo: '2028-02-29' });
    expect(monthRange('2026-12')).toEqual({ closeFrom: '2026-12-01', closeTo: '2026-12-31' });
    expect(monthRange('2026-13')).toBeNull();
  });

  it('reads the filters the API takes and leaves out what it would refuse', () => {
    const owner = '30000000-0000-4000-8000-000000000001';
    const filters = filtersFromParams(
      new URLSearchParams(`ownerId=${owner}&month=2026-11&source=referral&q=%20banners%20&view=list`),
    );
    expect(filters).toEqual({ ownerId: owner, month: '2026-11', source: 'referral', q: 'banners' });
    expect(filterParams(filters)).toEqual({
      ownerId: owner,
      closeFrom: '2026-11-01',
      closeTo: '2026-11-30',
      source: 'referral',
      q: 'banners',
    });
    expect(filtersFromParams(new URLSearchParams('ownerId=me&month=November&source=cold'))).toEqual({
      ownerId: undefined,
      month: undefined,
      source: undefined,
      q: undefined,
    });
  });

  it('writes the list’s sort as the API’s key, and reads it back', () => {
    expect(sortParamOf({ column: 'close', direction: 'ascending' })).toBe('expectedCloseDate');
    expect(sortParamOf({ column: 'amount', direction: 'descending' })).toBe('-amount');
    expect(sortParamOf(null)).toBeNull();
    expect(sortStateOf('-updatedAt')).toEqual({ column: 'updated', direction: 'descending' });
    expect(sortStateOf('probability')).toEqual({ column: 'probability', direction: 'ascending' });
    expect(sortStateOf('createdAt')).toBeNull();
  });
});

describe('the optimistic move', () => {
  const deal = makeDeal();
  const second = makeDeal({ id: '10000000-0000-4000-8000-000000000002', amount: 0.1, weightedAmount: 0.01 });

  it('gives the deal its new stage and the stage’s probability, unless the deal has its own', () => {
    expect(movedDeal(deal, QUALIFIED)).toMatchObject({
      stageId: QUALIFIED.id,
      stageName: 'Qualified',
      stageKind: 'open',
      probability: 25,
      weightedAmount: 3125,
    });
    const own = makeDeal({ probability: 40, probabilityOverridden: true, weightedAmount: 5000 });
    expect(movedDeal(own, QUALIFIED)).toMatchObject({ probability: 40, weightedAmount: 5000 });
    expect(movedDeal(own, WON)).toMatchObject({ probability: 100, weightedAmount: 12500 });
    expect(movedDeal({ ...deal, stale: true }, LOST, 'Budget')).toMatchObject({
      stageKind: 'lost',
      lostReason: 'Budget',
      weightedAmount: 0,
      stale: false,
    });
  });

  it('takes the card out of one column and puts it first in the other, counting both', () => {
    const lead = { pages: [{ rows: [deal, second], total: 60, totalIsLowerBound: false }], pageParams: [0] };
    expect(withoutDeal(lead, deal.id).pages[0]).toEqual({ rows: [second], total: 59, totalIsLowerBound: false });
    expect(withoutDeal(lead, 'another')).toBe(lead);
    const empty = { pages: [{ rows: [], total: 0, totalIsLowerBound: false }], pageParams: [0] };
    expect(withDealFirst(empty, deal).pages[0]).toEqual({ rows: [deal], total: 1, totalIsLowerBound: false });
  });

  it('moves the deal’s amount and weighted amount between the stages’ figures, in cents', () => {
    const before = summaryOf([deal, second]);
    const after = summaryAfterMove(before, second, movedDeal(second, QUALIFIED));
    const figures = (id: string) => after.stages.find((stage) => stage.id === id);
    expect(figures(LEAD.id)).toMatchObject({ count: 1, total: 12500, weighted: 1250 });
    expect(figures(QUALIFIED.id)).toMatchObject({ count: 1, total: 0.1, weighted: 0.03 });
    expect(after.totals).toEqual({ count: 2, total: 12500.1, weighted: 1250.03 });
  });
});

describe('the keyboard on the board', () => {
  const rect = (left: number) => ({ left, top: 100, width: 272, height: 600, right: left + 272, bottom: 700 });
  const columns = [LEAD.id, QUALIFIED.id, WON.id];
  const context = (overId: string | null) =>
    ({
      collisionRect: { left: 20, top: 150, width: 240, height: 100, right: 260, bottom: 250 },
      droppableRects: new Map(columns.map((id, index) => [id, rect(index * 284)])),
      droppableContainers: { getEnabled: () => [...columns].reverse().map((id) => ({ id })) },
      over: overId ? { id: overId } : null,
      active: { data: { current: { deal: makeDeal() } } },
    }) as never;
  const press = (code: string, overId: string | null) =>
    columnKeyboardCoordinates({ code, preventDefault: () => {} } as KeyboardEvent, {
      active: 'deal',
      context: context(overId),
      currentCoordinates: { x: 20, y: 150 },
    });

  it('carries the card to the middle of the next or previous column, and no further', () => {
    expect(press('ArrowRight', LEAD.id)).toEqual({ x: 284 + 16, y: 150 });
    expect(press('ArrowRight', QUALIFIED.id)).toEqual({ x: 568 + 16, y: 150 });
    expect(press('ArrowLeft', QUALIFIED.id)).toEqual({ x: 16, y: 150 });
    expect(press('ArrowRight', WON.id)).toBeUndefined();
    expect(press('ArrowLeft', LEAD.id)).toBeUndefined();
    // Before it is over any column, it starts from its own.
    expect(press('ArrowRight', null)).toEqual({ x: 284 + 16, y: 150 });
    expect(press('ArrowDown', LEAD.id)).toBeUndefined();
  });
});
