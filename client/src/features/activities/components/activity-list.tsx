import type { Activity } from '@shared/contracts/activities';
import { ACTIVITY_TYPE_LABELS, type ActivityType } from '@shared/contracts/activity-vocabulary';
import { Check, CheckCircle2, FileText, Mail, Pencil, Phone, Trash2, Users } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Link } from 'wouter';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { lazyWhen } from '@/components/ui/lazy-when';
import { paths } from '@/lib/paths';
import { cn } from '@/lib/utils';
import { useCompleteActivity } from '../api/complete-activity';
import { useDeleteActivity } from '../api/delete-activity';
import { activityFacts } from '../lib/format-activity';

// The confirmation loads when it is first asked for: "My day" paints without Radix's dialog.
const ConfirmDialog = lazyWhen(
  () => import('@/components/ui/confirm-dialog').then((module) => module.ConfirmDialog),
  (props) => props.open,
);

const TYPE_ICONS: Record<ActivityType, typeof Phone> = {
  call: Phone,
  meeting: Users,
  email: Mail,
  task: CheckCircle2,
  note: FileText,
};

/**
 * Activities as rows: the type's icon, the subject, when it is due (an overdue one says so in words), the
 * customer and deal where the list is not already theirs, and the actions: "Mark done" in one click, edit, delete.
 */
export function ActivityList({
  activities,
  label,
  onEdit,
  onChanged,
  showCustomer = false,
  showDeal = false,
  showOwner = false,
}: {
  activities: Activity[];
  /** The list's accessible name ("Overdue", "Activities of Bella Notte"). */
  label: string;
  onEdit: (activity: Activity) => void;
  /** Called after an activity was done or deleted (a page refreshes what depends on it: a deal's last activity). */
  onChanged?: () => void;
  showCustomer?: boolean;
  showDeal?: boolean;
  showOwner?: boolean;
}) {
  const complete = useCompleteActivity();
  const remove = useDeleteActivity();
  const [deleting, setDeleting] = useState<Activity | null>(null);

  return (
    <>
      <ul className="divide-y" aria-label={label}>
        {activities.map((activity) => {
          const Icon = TYPE_ICONS[activity.type];
          const links: [key: string, node: ReactNode][] = [];
          if (showCustomer) {
            links.push([
              'customer',
              <Link key="customer" href={paths.customer(activity.customerId)} className="hover:underline">
                {activity.customerName}
              </Link>,
            ]);
          }
          if (showDeal && activity.dealTitle) links.push(['deal', activity.dealTitle]);
          if (showOwner) links.push(['owner', activity.ownerName]);
          return (
            <li key={activity.id} className="flex flex-wrap items-start gap-3 py-3" data-testid="activity-row">
              <div className="flex min-w-[14rem] flex-1 items-start gap-3">
                <span
                  className={cn(
                    'mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-full',
                    activity.done ? 'bg-slate-100 text-slate-500' : 'bg-blue-50 text-blue-700',
                  )}
                >
                  <Icon className="size-4" aria-hidden />
                  <span className="sr-only">{ACTIVITY_TYPE_LABELS[activity.type]}</span>
                </span>
                <div className="min-w-0 flex-1">
                  <p
                    className={cn(
                      'break-words font-medium',
                      // A note is done when written: only a finished to-do is struck through.
                      activity.done && activity.type !== 'note'
                        ? 'text-muted-foreground line-through'
                        : 'text-slate-900',
                    )}
                  >
                    {activity.subject}
                  </p>
                  <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted-foreground">
                    {activity.overdue && <Badge tone="red">Overdue</Badge>}
                    <span>{activityFacts(activity)}</span>
                    {links.map(([key, node]) => (
                      <span key={key} className="flex items-center gap-2">
                        <span aria-hidden>·</span>
                        {node}
                      </span>
                    ))}
                  </p>
                  {activity.body && (
                    <p className="mt-1 whitespace-pre-line break-words text-sm text-slate-700">{activity.body}</p>
                  )}
                </div>
              </div>
              <div className="ml-auto flex shrink-0 items-center gap-1">
                {!activity.done && (
                  <Button
                    variant="outline"
                    size="sm"
                    aria-label={`Mark ${activity.subject} done`}
                    disabled={complete.isPending && complete.variables?.id === activity.id}
                    onClick={() => complete.mutate(activity, { onSuccess: () => onChanged?.() })}
                  >
                    <Check aria-hidden /> Mark done
                  </Button>
                )}
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={`Edit ${activity.subject}`}
                  onClick={() => onEdit(activity)}
                >
                  <Pencil aria-hidden />
                </Button>
                <Button
                  variant="ghost"
                  size="icon"
                  className="text-destructive hover:bg-red-50 hover:text-destructive"
                  aria-label={`Delete ${activity.subject}`}
                  onClick={() => setDeleting(activity)}
                >
                  <Trash2 aria-hidden />
                </Button>
              </div>
            </li>
          );
        })}
      </ul>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete this activity?"
        description={deleting ? `${deleting.subject} will be removed. This cannot be undone.` : ''}
        busy={remove.isPending}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting, {
            onSuccess: () => {
              setDeleting(null);
              onChanged?.();
            },
          })
        }
      />
    </>
  );
}
