import type { TimelineEntry, TimelineKind } from '@shared/contracts/customer-timeline-vocabulary';
import {
  ChartColumn,
  FileSignature,
  FileText,
  HandCoins,
  Handshake,
  History,
  type LucideIcon,
  MessageSquareText,
  ReceiptText,
} from 'lucide-react';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ErrorState, Skeleton } from '@/components/ui/feedback';
import { formatDate, formatTimeAgo } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useCustomerTimeline } from '../api/get-customer-timeline';

const ICONS: Record<TimelineKind, LucideIcon> = {
  activity: MessageSquareText,
  deal: Handshake,
  contract: FileSignature,
  invoice: FileText,
  payment: HandCoins,
  credit_note: ReceiptText,
  delivery: ChartColumn,
};

const TONES: Partial<Record<TimelineKind, string>> = {
  deal: 'bg-indigo-50 text-indigo-700 ring-indigo-200',
  contract: 'bg-blue-50 text-blue-700 ring-blue-200',
  payment: 'bg-green-50 text-green-700 ring-green-200',
  credit_note: 'bg-amber-50 text-amber-700 ring-amber-200',
};

/** An overdue invoice or a failed payment reads as a warning. */
const warns = (entry: TimelineEntry) => / overdue: |^Payment of .* failed/.test(entry.title);

const WEEK_MS = 7 * 86_400_000;

/** "3 hours ago", "yesterday" within a week; the day after that ("Nov 21, 2026"). */
export function timelineWhen(at: string, now = Date.now()): string {
  return Math.abs(now - new Date(at).getTime()) < WEEK_MS ? formatTimeAgo(at, now) : formatDate(at);
}

/** The moment in full, for the time's tooltip: "Nov 21, 2026, 3:04 PM". */
const fullTime = (at: string) =>
  new Date(at).toLocaleString('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });

function EntryItem({ entry, last, now }: { entry: TimelineEntry; last: boolean; now: number }) {
  const Icon = ICONS[entry.kind];
  const tone = warns(entry) ? 'bg-red-50 text-red-700 ring-red-200' : TONES[entry.kind];
  const detail = [entry.detail, entry.actorName ? `by ${entry.actorName}` : null].filter(Boolean).join(' · ');
  return (
    <li
      className="relative grid grid-cols-[1.75rem_1fr] gap-x-3 pb-4 last:pb-0"
      data-testid="timeline-entry"
      data-kind={entry.kind}
    >
      {!last && <span aria-hidden className="absolute left-[0.8125rem] top-7 bottom-0 w-px bg-border" />}
      <span
        aria-hidden
        className={cn(
          'flex size-7 items-center justify-center rounded-full ring-1',
          tone ?? 'bg-muted text-muted-foreground ring-border',
        )}
      >
        <Icon className="size-3.5" />
      </span>
      <div className="grid min-w-0 gap-0.5 pt-0.5 text-sm">
        <div className="flex flex-wrap items-baseline justify-between gap-x-3">
          {entry.link ? (
            <Link href={entry.link} className="min-w-0 break-words font-medium text-slate-900 hover:underline">
              {entry.title}
            </Link>
          ) : (
            <span className="min-w-0 break-words font-medium text-slate-900">{entry.title}</span>
          )}
          <time
            dateTime={entry.at}
            title={fullTime(entry.at)}
            className="whitespace-nowrap text-xs text-muted-foreground"
          >
            {timelineWhen(entry.at, now)}
          </time>
        </div>
        {detail && <span className="break-words text-xs text-muted-foreground">{detail}</span>}
      </div>
    </li>
  );
}

/**
 * The customer page's "Timeline" (product.md section 19): the customer's story newest first, from the records the
 * product keeps (activities, deals, contracts, invoices, payments, credit notes, delivery settled), each with its
 * icon, when it happened and who did it, and "Show more" for the older ones.
 */
export function CustomerTimeline({ customerId, customerName }: { customerId: string; customerName: string }) {
  const { data, isLoading, error, hasNextPage, fetchNextPage, isFetchingNextPage } = useCustomerTimeline(customerId);
  const entries = data?.pages.flatMap((page) => page.entries) ?? [];
  const now = Date.now();
  return (
    <Card data-testid="customer-timeline">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <History className="size-4 text-muted-foreground" aria-hidden /> Timeline
        </CardTitle>
        <CardDescription>What has happened with this customer, newest first.</CardDescription>
      </CardHeader>
      <CardContent>
        {isLoading && (
          <div className="grid gap-3" aria-busy="true">
            <span className="sr-only">Loading the timeline of {customerName}</span>
            <Skeleton className="h-10" />
            <Skeleton className="h-10" />
            <Skeleton className="h-10" />
          </div>
        )}
        {error && !data && <ErrorState title="Could not load the timeline">Reload the page to try again.</ErrorState>}
        {data && entries.length === 0 && (
          <p className="py-3 text-sm text-muted-foreground">Nothing has happened with this customer yet.</p>
        )}
        {entries.length > 0 && (
          <ol className="grid" aria-label={`Timeline of ${customerName}`}>
            {entries.map((entry, index) => (
              <EntryItem key={entry.id} entry={entry} last={index === entries.length - 1} now={now} />
            ))}
          </ol>
        )}
        {error && data && (
          <p role="alert" className="pt-3 text-sm text-destructive">
            Could not load more. Try again.
          </p>
        )}
        {hasNextPage && (
          <div className="pt-4">
            <Button variant="outline" size="sm" disabled={isFetchingNextPage} onClick={() => fetchNextPage()}>
              {isFetchingNextPage ? 'Loading...' : 'Show more'}
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
