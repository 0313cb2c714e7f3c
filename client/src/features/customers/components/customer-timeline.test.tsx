import type { CustomerTimeline as Timeline, TimelineEntry } from '@shared/contracts/customer-timeline-vocabulary';
import { type InfiniteData, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { customerTimelineQueryKey } from '../api/get-customer-timeline';
import { CustomerTimeline, timelineWhen } from './customer-timeline';

const CUSTOMER = 'cu-1';

const entry = (fields: Partial<TimelineEntry>): TimelineEntry => ({
  id: 'audit:1',
  at: new Date(Date.now() - 2 * 3_600_000).toISOString(),
  kind: 'contract',
  title: 'Contract "Spring Menu" sent to the customer',
  detail: null,
  link: '/contracts/k-1',
  actorName: 'Jordan Rep',
  ...fields,
});

function render(pages: Timeline[] | undefined) {
  const client = new QueryClient();
  if (pages) {
    client.setQueryData<InfiniteData<Timeline, string | null>>(customerTimelineQueryKey(CUSTOMER), {
      pages,
      pageParams: pages.map((_, index) => (index === 0 ? null : pages[index - 1].nextBefore)),
    });
  }
  return renderToStaticMarkup(
    <Router ssrPath="/customers/cu-1">
      <QueryClientProvider client={client}>
        <CustomerTimeline customerId={CUSTOMER} customerName="Bella Notte Trattoria" />
      </QueryClientProvider>
    </Router>,
  );
}

describe('the Timeline card', () => {
  it('lists the story newest first with each kind, its link, detail and who did it; Show more while there is more', () => {
    const html = render([
      {
        entries: [
          entry({}),
          entry({
            id: 'overdue:i-1',
            kind: 'invoice',
            at: '2025-03-09T00:00:00.000Z',
            title: 'Invoice INV-2025-000002 overdue: $250.00 was due Mar 8, 2025',
            detail: 'Winter Catalog',
            actorName: null,
          }),
          entry({ id: 'activity:a-1', kind: 'activity', title: 'Call: Intro call', link: null, detail: 'Done' }),
        ],
        nextBefore: '2025-03-08T23:59:59.999Z',
      },
    ]);
    expect(html.match(/data-testid="timeline-entry"/g)).toHaveLength(3);
    expect(html.match(/data-kind="(\w+)"/g)).toEqual([
      'data-kind="contract"',
      'data-kind="invoice"',
      'data-kind="activity"',
    ]);
    expect(html).toContain('href="/contracts/k-1"');
    expect(html).toContain('by Jordan Rep');
    expect(html).toContain('2 hours ago');
    expect(html).toContain('Mar 8, 2025');
    expect(html).toContain('Done · by Jordan Rep');
    // The overdue invoice reads as a warning.
    expect(html).toMatch(/bg-red-50[^"]*"><svg/);
    expect(html).toContain('Show more');
  });

  it('has no Show more on the last page, an empty state, and a loading state', () => {
    expect(render([{ entries: [entry({})], nextBefore: null }])).not.toContain('Show more');
    expect(render([{ entries: [], nextBefore: null }])).toContain('Nothing has happened with this customer yet.');
    expect(render(undefined)).toContain('Loading the timeline of Bella Notte Trattoria');
  });

  it('says how long ago within a week, and the day before that', () => {
    const now = Date.parse('2026-11-21T12:00:00Z');
    expect(timelineWhen('2026-11-21T09:00:00Z', now)).toBe('3 hours ago');
    expect(timelineWhen('2026-11-18T12:00:00Z', now)).toBe('3 days ago');
    expect(timelineWhen('2026-11-01T12:00:00Z', now)).toBe('Nov 1, 2026');
  });
});
