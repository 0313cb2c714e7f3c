// @vitest-environment happy-dom
import type { Activity } from '@shared/contracts/activities';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeActivity, REP, testQueryClient } from '../lib/test-data';
import { MyDayCard } from './my-day-card';

const calls: { url: string; method: string }[] = [];

/** The server: the activities of each due group, and "complete" marking one done (so it leaves the open lists). */
function serve(groups: Record<'overdue' | 'today' | 'upcoming', Activity[]>) {
  const done = new Set<string>();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      calls.push({ url, method: init.method ?? 'GET' });
      const completed = /^\/api\/activities\/([^/]+)\/complete$/.exec(url);
      if (completed) {
        done.add(completed[1]);
        const activity = Object.values(groups)
          .flat()
          .find((a) => a.id === completed[1]);
        return Response.json({ ...activity, done: true, overdue: false });
      }
      const due = new URL(url, 'http://app.test').searchParams.get('due') as keyof typeof groups;
      const rows = groups[due].filter((a) => !done.has(a.id));
      return Response.json(rows, { headers: { 'X-Total-Count': String(rows.length) } });
    }),
  );
}

afterEach(() => {
  cleanup();
  calls.length = 0;
  vi.unstubAllGlobals();
});

const renderCard = () =>
  render(
    <QueryClientProvider client={testQueryClient()}>
      <MyDayCard user={REP} />
    </QueryClientProvider>,
  );

describe('MyDayCard', () => {
  it('asks for the rep’s open activities by group, and marks one done in one click: it leaves the card', async () => {
    const earlier = makeActivity({ id: 'a-earlier', subject: 'Send the media kit', overdue: true });
    const later = makeActivity({ id: 'a-later', subject: 'Call Bella Notte about Q1' });
    serve({ overdue: [earlier], today: [earlier, later], upcoming: [] });
    renderCard();

    const overdue = within(await screen.findByRole('list', { name: 'Overdue' }));
    expect(overdue.getByText('Send the media kit')).toBeTruthy();
    expect(overdue.getByText('Overdue')).toBeTruthy();
    const today = within(screen.getByRole('list', { name: 'Today' }));
    expect(today.getAllByTestId('activity-row')).toHaveLength(2);
    expect(screen.getByText('Nothing due in the next 7 days.')).toBeTruthy();
    expect(calls.map((c) => c.url).sort()).toEqual(
      ['overdue', 'today', 'upcoming'].map((due) => `/api/activities?due=${due}&done=false&ownerId=${REP.id}&limit=50`),
    );

    fireEvent.click(overdue.getByRole('button', { name: 'Mark Send the media kit done' }));
    await waitFor(() => expect(screen.queryByText('Send the media kit')).toBeNull());
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual(['/api/activities/a-earlier/complete']);
    expect(screen.getByText('Call Bella Notte about Q1')).toBeTruthy();
    expect(screen.getByText('Nothing overdue.')).toBeTruthy();
  });

  it('says so when nothing is due', async () => {
    serve({ overdue: [], today: [], upcoming: [] });
    renderCard();
    expect(await screen.findByText('Nothing due. Enjoy your day.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Log activity' })).toBeTruthy();
  });
});
