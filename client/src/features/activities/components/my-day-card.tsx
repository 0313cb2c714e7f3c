import type { Activity } from '@shared/contracts/activities';
import { ACTIVITY_DUE_LABELS, type ActivityDueFilter } from '@shared/contracts/activity-vocabulary';
import type { User } from '@shared/contracts/auth';
import { can } from '@shared/permissions';
import { CalendarCheck, Plus } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { ErrorState, Skeleton } from '@/components/ui/feedback';
import { useActivities } from '../api/get-activities';
import type { CustomerPicker } from './activity-dialog';
import { ActivityList } from './activity-list';
import { type Editing, LazyActivityDialog } from './log-activity';

const GROUPS: readonly ActivityDueFilter[] = ['overdue', 'today', 'upcoming'];
const EMPTY: Record<ActivityDueFilter, string> = {
  overdue: 'Nothing overdue.',
  today: 'Nothing due today.',
  upcoming: 'Nothing due in the next 7 days.',
};

/**
 * "My day" on the Sales Dashboard (product.md section 19): the caller's open activities overdue, due today and in
 * the next 7 days (a task due earlier today is both overdue and today's), each done in one click, and "Log
 * activity". `customerPicker` chooses the customer of a new one (the page passes the pipeline's).
 */
export function MyDayCard({ user, customerPicker }: { user: User; customerPicker?: CustomerPicker }) {
  const [editing, setEditing] = useState<Editing>(null);
  const queries = {
    overdue: useActivities({ due: 'overdue', done: false, ownerId: user.id }),
    today: useActivities({ due: 'today', done: false, ownerId: user.id }),
    upcoming: useActivities({ due: 'upcoming', done: false, ownerId: user.id }),
  };
  const loading = GROUPS.some((group) => queries[group].isLoading);
  const failed = GROUPS.some((group) => queries[group].error && !queries[group].data);
  const rows = (group: ActivityDueFilter): Activity[] => queries[group].data?.rows ?? [];
  const nothing = GROUPS.every((group) => rows(group).length === 0);

  return (
    <Card role="region" aria-labelledby="my-day-title">
      <CardHeader className="flex-row items-center justify-between gap-4">
        <CardTitle id="my-day-title">My Day</CardTitle>
        <Button size="sm" onClick={() => setEditing({ activity: null })}>
          <Plus aria-hidden /> Log activity
        </Button>
      </CardHeader>
      <CardContent>
        {loading ? (
          <div className="grid gap-3" aria-busy="true">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} className="h-12" />
            ))}
          </div>
        ) : failed ? (
          <ErrorState title="Could not load your activities">Reload the page to try again.</ErrorState>
        ) : nothing ? (
          <p className="flex items-center justify-center gap-2 py-6 text-sm text-muted-foreground">
            <CalendarCheck className="size-4" aria-hidden /> Nothing due. Enjoy your day.
          </p>
        ) : (
          <div className="grid gap-5">
            {GROUPS.map((group) => {
              const total = queries[group].data?.total ?? 0;
              return (
                <section key={group} aria-labelledby={`my-day-${group}`} className="min-w-0">
                  <h4 id={`my-day-${group}`} className="text-sm font-semibold text-slate-900">
                    {ACTIVITY_DUE_LABELS[group]} <span className="font-normal text-muted-foreground">({total})</span>
                  </h4>
                  {rows(group).length === 0 ? (
                    <p className="py-3 text-sm text-muted-foreground">{EMPTY[group]}</p>
                  ) : (
                    <ActivityList
                      activities={rows(group)}
                      label={ACTIVITY_DUE_LABELS[group]}
                      onEdit={(activity) => setEditing({ activity })}
                      showCustomer
                    />
                  )}
                </section>
              );
            })}
          </div>
        )}
      </CardContent>
      <LazyActivityDialog
        open={editing !== null}
        onOpenChange={(open) => !open && setEditing(null)}
        activity={editing?.activity ?? null}
        canChooseOwner={can(user, 'deal:any')}
        customerPicker={customerPicker}
      />
    </Card>
  );
}
