// @vitest-environment happy-dom
import type { Deal } from '@shared/contracts/deals';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type StageDeals, stageDealsQueryKey } from '../api/get-deals';
import { boardAnnouncements, dropOutcome } from '../lib/board-a11y';
import { LEAD, LOST, makeDeal, PROPOSAL, QUALIFIED, STAGES, summaryOf, testQueryClient, WON } from '../lib/test-data';
import { PipelineBoard } from './pipeline-board';

const banners = makeDeal();
const radio = makeDeal({
  id: '10000000-0000-4000-8000-000000000002',
  title: 'Spring radio',
  customerName: 'Lakeside Motors',
  ownerName: 'Riley Rep',
  stageId: QUALIFIED.id,
  stageName: QUALIFIED.name,
  amount: 4000.5,
  weightedAmount: 1000.13,
  probability: 25,
  expectedCloseDate: null,
  stale: true,
});

/** The board with its summary and each column's first page in the cache; `totals` says how many a column has. */
function renderBoard(deals: Deal[], { showOwner = true, totals = {} as Record<string, number> } = {}) {
  const client = testQueryClient();
  for (const stage of STAGES) {
    const rows = deals.filter((deal) => deal.stageId === stage.id);
    const data: StageDeals = {
      pages: [{ rows, total: totals[stage.id] ?? rows.length, totalIsLowerBound: false }],
      pageParams: [0],
    };
    client.setQueryData(stageDealsQueryKey(stage.id, {}), data);
  }
  return render(
    <QueryClientProvider client={client}>
      <PipelineBoard summary={summaryOf(deals)} filters={{}} showOwner={showOwner} onOpen={() => {}} />
    </QueryClientProvider>,
  );
}

const column = (name: string) => screen.getByRole('region', { name });

// The columns refetch when they mount (their deals are never taken as fresh): the answers never come here.
beforeEach(() => vi.stubGlobal('fetch', () => new Promise(() => {})));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('PipelineBoard', () => {
  it('has a column per stage, in order, each headed by its name, count, total and weighted total', () => {
    renderBoard([banners, radio]);
    expect(screen.getAllByRole('region').map((region) => region.querySelector('h2')?.textContent)).toEqual([
      'Lead',
      'Qualified',
      'Proposal',
      'Won',
      'Lost',
    ]);
    const lead = within(column('Lead'));
    expect(lead.getByTestId('stage-count').textContent).toBe('1 deal');
    expect(lead.getByTestId('stage-total').textContent).toBe('$12,500.00');
    expect(lead.getByTestId('stage-weighted').textContent).toBe('$1,250.00');
    const qualified = within(column('Qualified'));
    expect(qualified.getByTestId('stage-count').textContent).toBe('1 deal');
    expect(qualified.getByTestId('stage-total').textContent).toBe('$4,000.50');
    expect(qualified.getByTestId('stage-weighted').textContent).toBe('$1,000.13');
    const proposal = within(column('Proposal'));
    expect(proposal.getByTestId('stage-count').textContent).toBe('0 deals');
    expect(proposal.getByTestId('stage-total').textContent).toBe('$0.00');
    expect(proposal.getByText('No deals in Proposal')).toBeTruthy();
  });

  it('shows each card’s title, customer, amount, probability, close date, owner and a Stale badge in words', () => {
    renderBoard([banners, radio]);
    const card = within(within(column('Lead')).getByRole('article', { name: 'Holiday banners' }));
    expect(card.getByRole('button', { name: 'Holiday banners' }).getAttribute('aria-haspopup')).toBe('dialog');
    expect(card.getByRole('button', { name: 'Move deal Holiday banners' }).getAttribute('aria-roledescription')).toBe(
      'draggable',
    );
    for (const text of ['Harbor Bakery', '$12,500.00', '10% probability', 'Closes Dec 15, 2026', 'Owner: Sam Seller']) {
      expect(card.getByText(text)).toBeTruthy();
    }
    expect(card.queryByText('Stale')).toBeNull();
    const stale = within(within(column('Qualified')).getByRole('article', { name: 'Spring radio' }));
    expect(stale.getByText('Stale')).toBeTruthy();
    expect(stale.getByText('No close date')).toBeTruthy();
  });

  it('leaves the owner off for a rep, who sees only their own deals', () => {
    renderBoard([banners], { showOwner: false });
    expect(screen.queryByText('Owner: Sam Seller')).toBeNull();
  });

  it('offers "Show more" when a column has more deals than it loaded', () => {
    renderBoard([banners, radio], { totals: { [LEAD.id]: 51 } });
    expect(within(column('Lead')).getByRole('button', { name: 'Show more deals in Lead' }).textContent).toBe(
      'Show more (50 left)',
    );
    expect(within(column('Qualified')).queryByRole('button', { name: /Show more/ })).toBeNull();
  });

  it('gives the keyboard’s instructions to each handle', () => {
    renderBoard([banners]);
    const handle = screen.getByRole('button', { name: 'Move deal Holiday banners' });
    const instructions = document.getElementById(handle.getAttribute('aria-describedby') ?? '');
    expect(instructions?.textContent).toMatch(
      /^To move this deal to another stage, press Space or Enter to pick it up/,
    );
  });
});

describe('the board’s drops and words', () => {
  const item = (id: string, data: object) => ({ id, data: { current: data } }) as never;

  it('asks why before a lost stage, moves to any other, and does nothing on its own stage', () => {
    expect(dropOutcome(banners, LOST)).toBe('ask-reason');
    expect(dropOutcome(banners, QUALIFIED)).toBe('move');
    expect(dropOutcome(banners, WON)).toBe('move');
    expect(dropOutcome(banners, LEAD)).toBe('stay');
    expect(dropOutcome(banners, undefined)).toBe('stay');
  });

  it('says what happens, in words, and the column only when it changes', () => {
    const say = boardAnnouncements();
    const active = item(banners.id, { deal: banners });
    const over = (stage: { id: string }) => ({ active, over: item(stage.id, { stage }) });
    expect(say.onDragStart({ active })).toBe('Picked up deal Holiday banners.');
    // Its own column, right after it was picked up: nothing new to say.
    expect(say.onDragOver(over(LEAD))).toBeUndefined();
    expect(say.onDragOver(over(PROPOSAL))).toBe('Moved over Proposal.');
    expect(say.onDragOver(over(LEAD))).toBe('Moved over Lead.');
    expect(say.onDragEnd(over(QUALIFIED))).toBe('Dropped in Qualified.');
    expect(say.onDragEnd(over(LOST))).toBe('Dropped in Lost. Choose why the deal was lost.');
    expect(say.onDragEnd(over(LEAD))).toBe('Dropped in Lead, where it already was.');
    expect(say.onDragCancel({ active, over: null })).toBe('Moving canceled. Deal Holiday banners stays in Lead.');
  });
});
