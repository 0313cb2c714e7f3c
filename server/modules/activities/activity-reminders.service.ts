import { ACTIVITY_TYPE_LABELS, type ActivityType, reminderTitle } from '@shared/contracts/activity-vocabulary';
import type { Db } from '../../db/client';
import { getBusinessTimeZone } from '../../lib/business-day';
import { notifyEach } from '../../lib/notify';
import { claimDueReminders } from './activities.repo';

const formats = new Map<string, Intl.DateTimeFormat>();
/** "Mar 10, 2027, 3:00 PM EST": a due time as the business's clocks show it. */
function dueText(at: Date, timeZone: string): string {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZoneName: 'short',
    });
    formats.set(timeZone, format);
  }
  // Some ICU versions put a narrow no-break space before AM/PM: plain spaces read the same in every mail client.
  return format.format(at).replace(/\s/g, ' ');
}

/**
 * The reminders of activities due (product.md section 19): every minute, each activity whose remind_at has come
 * (its due time; 15 minutes before a meeting), not done and not yet reminded, tells its owner in-app and by
 * e-mail per their preferences (`activity_due`), with a link to the customer's page. Once across instances: ONE
 * conditional UPDATE claims the reminders (claimDueReminders) and only the rows it answers are sent, in the same
 * transaction. A due time moved later is reminded again (its dedupe key names the reminder's time). `now` is the
 * cut-off (a test pins it). Answers how many reminders were sent.
 */
export async function sendActivityReminders(db: Db, options: { baseUrl: string; now?: Date }): Promise<number> {
  const now = options.now ?? new Date();
  const timeZone = getBusinessTimeZone();
  return db.transaction(async (tx) => {
    const due = await claimDueReminders(tx, now);
    await notifyEach(
      tx,
      due.map((reminder) => {
        const type = reminder.type as ActivityType;
        const title = reminderTitle(type, reminder.subject);
        const when = reminder.dueAt ? dueText(reminder.dueAt, timeZone) : 'now';
        const body = `${ACTIVITY_TYPE_LABELS[type]} for ${reminder.customerName}: ${type === 'meeting' ? 'starts' : 'due'} ${when}.`;
        const link = `/customers/${reminder.customerId}`;
        return {
          to: { userIds: [reminder.ownerId] },
          type: 'activity_due' as const,
          title,
          body,
          link,
          entity: 'activity',
          entityId: reminder.id,
          dedupeKey: `activity-due:${reminder.id}:${reminder.dueAt?.toISOString() ?? ''}`,
          email: { subject: title, text: `${body}\n\n${options.baseUrl}${link}` },
        };
      }),
    );
    return due.length;
  });
}
