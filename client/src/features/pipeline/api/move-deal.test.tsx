// @vitest-environment happy-dom
import type { Deal, PipelineSummary } from '@shared/contracts/deals';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useToast } from '@/components/ui/use-toast';
import { LEAD, LOST, makeDeal, QUALIFIED, summaryOf, testQueryClient } from '../lib/test-data';
import { type StageDeals, stageDealsQueryKey } from './get-deals';
import { pipelineSummaryQueryOptions } from './get-pipeline-summary';
import { useMoveDeal } from './move-deal';

const deal = makeDeal();
const other = makeDeal({
  id: '10000000-0000-4000-8000-000000000002',
  title: 'Spring radio',
  amount: 4000,
  weightedAmount: 400,
});
const filters = {};
const column = (rows: Deal[]): StageDeals => ({
  pages: [{ rows, total: rows.length, totalIsLowerBound: false }],
  pageParams: [0],
});

/** The board of two Lead deals, as the move hook finds it in the cache; the server answers `respond`. */
function setUp(respond: (body: unknown) => Promise<Response>) {
  const client = testQueryClient();
  client.setQueryData(stageDealsQueryKey(LEAD.id, filters), column([deal, other]));
  client.setQueryData(stageDealsQueryKey(QUALIFIED.id, filters), column([]));
  client.setQueryData(stageDealsQueryKey(LOST.id, filters), column([]));
  client.setQueryData(pipelineSummaryQueryOptions(filters).queryKey, summaryOf([deal, other]));
  const calls: { url: string; method: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const body = init.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ url, method: init.method ?? 'GET', body });
      return respond(body);
    }),
  );
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  const { result } = renderHook(() => ({ move: useMoveDeal(), toasts: useToast().toasts }), { wrapper });
  const titles = (stageId: string) =>
    client
      .getQueryData<StageDeals>(stageDealsQueryKey(stageId, filters))
      ?.pages.flatMap((p) => p.rows.map((r) => r.title));
  const figures = (stageId: string) => {
    const stage = client
      .getQueryData<PipelineSummary>(pipelineSummaryQueryOptions(filters).queryKey)
      ?.stages.find((s) => s.id === stageId);
    return stage && { count: stage.count, total: stage.total, weighted: stage.weighted };
  };
  return { result, calls, titles, figures };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('useMoveDeal', () => {
  it('sends the lost reason with the stage and the version, and moves the card and the figures at once', async () => {
    let answer: (response: Response) => void = () => {};
    const { result, calls, titles, figures } = setUp(
      () =>
        new Promise((resolve) => {
          answer = resolve;
        }),
    );
    act(() => result.current.move.mutate({ deal, to: LOST, reason: 'Budget', filters }));

    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toEqual({
      url: `/api/deals/${deal.id}/move`,
      method: 'POST',
      body: { stageId: LOST.id, reason: 'Budget', version: 3 },
    });
    // Before the server answers, the card is in Lost and the headers count it there.
    expect(titles(LEAD.id)).toEqual(['Spring radio']);
    expect(titles(LOST.id)).toEqual(['Holiday banners']);
    expect(figures(LEAD.id)).toEqual({ count: 1, total: 4000, weighted: 400 });
    expect(figures(LOST.id)).toEqual({ count: 1, total: 12500, weighted: 0 });

    await act(async () => answer(json(200, { ...deal, stageId: LOST.id, stageKind: 'lost', lostReason: 'Budget' })));
    await waitFor(() => expect(result.current.move.isSuccess).toBe(true));
  });

  it('puts the card back and shows the server’s reason when the deal changed meanwhile', async () => {
    const message = 'This deal was changed by someone else meanwhile. Reload it and try again.';
    const { result, titles, figures } = setUp(async () => json(409, { message, code: 'CONFLICT' }));
    act(() => result.current.move.mutate({ deal, to: QUALIFIED, filters }));

    await waitFor(() => expect(result.current.move.isError).toBe(true));
    expect(titles(LEAD.id)).toEqual(['Holiday banners', 'Spring radio']);
    expect(titles(QUALIFIED.id)).toEqual([]);
    expect(figures(LEAD.id)).toEqual({ count: 2, total: 16500, weighted: 1650 });
    expect(figures(QUALIFIED.id)).toEqual({ count: 0, total: 0, weighted: 0 });
    expect(result.current.toasts[0]).toMatchObject({
      variant: 'destructive',
      title: 'Could not move the deal',
      description: message,
    });
  });
});
