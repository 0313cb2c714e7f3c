import type { Activity } from '@shared/contracts/activities';
import { CALL_OUTCOME_LABELS } from '@shared/contracts/activity-vocabulary';

const DAY_TIME = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});
const YEAR_DAY_TIME = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

/** "Mar 4, 10:00 AM" in the viewer's time zone ("Mar 4, 2027, 10:00 AM" in another year). */
export function formatDueAt(iso: string, now = new Date()): string {
  const date = new Date(iso);
  return (date.getFullYear() === now.getFullYear() ? DAY_TIME : YEAR_DAY_TIME).format(date).replace(/\s/g, ' ');
}

/** The line under an activity's subject: when it is due or was done, how long, what came of a call. */
export function activityFacts(activity: Activity, now = new Date()): string {
  const parts: string[] = [];
  const doneWord = activity.type === 'note' ? 'Noted' : 'Done';
  if (activity.done) parts.push(activity.doneAt ? `${doneWord} ${formatDueAt(activity.doneAt, now)}` : doneWord);
  if (activity.dueAt) parts.push(`${activity.type === 'meeting' ? 'At' : 'Due'} ${formatDueAt(activity.dueAt, now)}`);
  else if (!activity.done) parts.push('No due time');
  if (activity.durationMinutes) parts.push(`${activity.durationMinutes} min`);
  if (activity.outcome) parts.push(CALL_OUTCOME_LABELS[activity.outcome]);
  return parts.join(' · ');
}
