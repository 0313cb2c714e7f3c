import { Plus } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { ErrorState, Skeleton } from '@/components/ui/feedback';
import { useActivities } from '../api/get-activities';
import { ActivityList } from './activity-list';
import { type Editing, LazyActivityDialog } from './log-activity';

/**
 * The activities of a customer (its page's card) or of a deal (the pipeline's deal details): open ones first, the
 * soonest due first, then the done ones, and "Log activity" with the customer (and deal) filled in.
 */
export function ActivitiesCard({
  customer,
  deal,
  canChooseOwner,
  onChanged,
  variant = 'card',
}: {
  customer: { id: string; name: string };
  deal?: { id: string; title: string };
  canChooseOwner: boolean;
  /** After a change (a page refreshes what depends on it: the deal's last activity, the customer's story). */
  onChanged?: () => void;
  /** A card of its own, or a section inside another panel (the deal details). */
  variant?: 'card' | 'section';
}) {
  const [editing, setEditing] = useState<Editing>(null);
  const query = useActivities(deal ? { dealId: deal.id } : { customerId: customer.id });
  const rows = query.data?.rows ?? [];
  const total = query.data?.total ?? 0;
  const title = 'Activities';

  const logButton = (
    <Button
      size="sm"
      variant={variant === 'card' ? 'default' : 'outline'}
      onClick={() => setEditing({ activity: null })}
    >
      <Plus aria-hidden /> Log activity
    </Button>
  );
  const body = query.isLoading ? (
    <div className="grid gap-3" aria-busy="true">
      {[0, 1].map((i) => (
        <Skeleton key={i} className="h-12" />
      ))}
    </div>
  ) : query.error && !query.data ? (
    <ErrorState title="Could not load the activities">Reload the page to try again.</ErrorState>
  ) : rows.length === 0 ? (
    <p className="py-3 text-sm text-muted-foreground">
      No activities yet. Log a call, meeting, e-mail, task or note{deal ? ' for this deal' : ''}.
    </p>
  ) : (
    <>
      <ActivityList
        activities={rows}
        label={deal ? `Activities of ${deal.title}` : `Activities of ${customer.name}`}
        onEdit={(activity) => setEditing({ activity })}
        onChanged={onChanged}
        showDeal={!deal}
        showOwner={canChooseOwner}
      />
      {total > rows.length && (
        <p className="pt-2 text-xs text-muted-foreground">
          Showing {rows.length} of {total}: the open ones and the most recently done.
        </p>
      )}
    </>
  );
  const dialog = (
    <LazyActivityDialog
      open={editing !== null}
      onOpenChange={(open) => !open && setEditing(null)}
      activity={editing?.activity ?? null}
      defaults={{
        customerId: customer.id,
        customerName: customer.name,
        dealId: deal?.id ?? null,
        dealTitle: deal?.title ?? null,
      }}
      canChooseOwner={canChooseOwner}
      onSaved={() => onChanged?.()}
    />
  );

  if (variant === 'section') {
    return (
      <section aria-labelledby={`activities-${deal?.id ?? customer.id}`} className="grid gap-2">
        <div className="flex items-center justify-between gap-3">
          <h3 id={`activities-${deal?.id ?? customer.id}`} className="text-sm font-semibold text-slate-900">
            {title}
          </h3>
          {logButton}
        </div>
        {body}
        {dialog}
      </section>
    );
  }
  return (
    <Card>
      <CardHeader className="flex-row items-center justify-between gap-4">
        <CardTitle>{title}</CardTitle>
        {logButton}
      </CardHeader>
      <CardContent>{body}</CardContent>
      {dialog}
    </Card>
  );
}
