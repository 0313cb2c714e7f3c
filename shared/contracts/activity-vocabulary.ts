/**
 * Activities (product.md section 19): calls, meetings, e-mails, tasks and notes of a customer, with their words,
 * the rules of which fields each type takes, and when its reminder is due. Zod-free, so the lists and "My day"
 * load without the form schemas.
 */

export const ACTIVITY_TYPES = ['call', 'meeting', 'email', 'task', 'note'] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

export const ACTIVITY_TYPE_LABELS: Record<ActivityType, string> = {
  call: 'Call',
  meeting: 'Meeting',
  email: 'E-mail',
  task: 'Task',
  note: 'Note',
};

/** What came of a call. */
export const CALL_OUTCOMES = ['connected', 'left_voicemail', 'no_answer', 'wrong_number'] as const;
export type CallOutcome = (typeof CALL_OUTCOMES)[number];

export const CALL_OUTCOME_LABELS: Record<CallOutcome, string> = {
  connected: 'Connected',
  left_voicemail: 'Left a voicemail',
  no_answer: 'No answer',
  wrong_number: 'Wrong number',
};

/**
 * The list's due filters: overdue (not done, due before now), today (due on the business's calendar day, so a
 * task due earlier today is both overdue and today's) and upcoming (due after today, within the next 7 days).
 */
export const ACTIVITY_DUE_FILTERS = ['overdue', 'today', 'upcoming'] as const;
export type ActivityDueFilter = (typeof ACTIVITY_DUE_FILTERS)[number];

export const ACTIVITY_DUE_LABELS: Record<ActivityDueFilter, string> = {
  overdue: 'Overdue',
  today: 'Today',
  upcoming: 'Next 7 days',
};

/** "upcoming" reaches this many days past today. */
export const UPCOMING_DAYS = 7;
/** A meeting's reminder comes this long before it starts; the other types' at their due time. */
export const MEETING_REMINDER_MINUTES = 15;
export const MAX_DURATION_MINUTES = 1440;
export const MAX_SUBJECT_LENGTH = 200;
export const MAX_BODY_LENGTH = 5000;

export const ACTIVITY_MESSAGES = {
  typeRequired: 'Choose a type: call, meeting, e-mail, task or note',
  subjectRequired: 'Subject is required',
  subjectTooLong: `Subject cannot be longer than ${MAX_SUBJECT_LENGTH} characters`,
  dueInvalid: 'Due must be a date and time, like 2027-03-10T15:00:00Z',
  taskNeedsDue: 'A task needs a due date and time',
  meetingNeedsDue: 'A meeting needs a date and time',
  dueDateMissing: 'Enter the date as well as the time',
  dueTimeMissing: 'Enter the time as well as the date',
  durationRange: `Duration must be a whole number of minutes from 1 to ${MAX_DURATION_MINUTES}`,
  durationOnly: 'Only meetings and calls have a duration',
  outcomeUnknown: 'Choose an outcome: connected, left a voicemail, no answer or wrong number',
  outcomeOnlyCalls: 'Only a call has an outcome',
  customerRequired: 'Choose a customer',
  customerNotFound: 'Customer not found',
  dealNotFound: 'Deal not found',
  dealOtherCustomer: 'This deal belongs to another customer',
  contactNotFound: 'Contact not found',
  contactOtherCustomer: 'This contact belongs to another customer',
  ownerNotStaff: 'Choose an active sales rep, sales manager or admin as the owner',
  ownerOthers: 'Only managers can give an activity to someone else',
} as const;

/** Tasks and meetings have a due time; the other types may. */
export const needsDueAt = (type: ActivityType): boolean => type === 'task' || type === 'meeting';
export const takesDuration = (type: ActivityType): boolean => type === 'meeting' || type === 'call';
export const takesOutcome = (type: ActivityType): boolean => type === 'call';

export type ActivityRuleIssue = { path: 'dueAt' | 'durationMinutes' | 'outcome'; message: string };

/** Which fields a type takes: the one rule the API, its schema and the dialog apply. */
export function activityRuleIssues(activity: {
  type: ActivityType;
  hasDue: boolean;
  durationMinutes: number | null | undefined;
  outcome: string | null | undefined;
}): ActivityRuleIssue[] {
  const issues: ActivityRuleIssue[] = [];
  if (needsDueAt(activity.type) && !activity.hasDue) {
    const message = activity.type === 'meeting' ? ACTIVITY_MESSAGES.meetingNeedsDue : ACTIVITY_MESSAGES.taskNeedsDue;
    issues.push({ path: 'dueAt', message });
  }
  if (activity.durationMinutes != null && !takesDuration(activity.type)) {
    issues.push({ path: 'durationMinutes', message: ACTIVITY_MESSAGES.durationOnly });
  }
  if (activity.outcome != null && !takesOutcome(activity.type)) {
    issues.push({ path: 'outcome', message: ACTIVITY_MESSAGES.outcomeOnlyCalls });
  }
  return issues;
}

/**
 * When an activity's reminder is due: its due time for a task, call or e-mail, 15 minutes before a meeting,
 * never for a note or without a due time.
 */
export function remindAtOf(type: ActivityType, dueAt: Date | null): Date | null {
  if (!dueAt || type === 'note') return null;
  return type === 'meeting' ? new Date(dueAt.getTime() - MEETING_REMINDER_MINUTES * 60_000) : dueAt;
}

/** A reminder's title: "Call due: Call Bella Notte about Q1". */
export function reminderTitle(type: ActivityType, subject: string): string {
  return `${ACTIVITY_TYPE_LABELS[type]} due: ${subject}`;
}
