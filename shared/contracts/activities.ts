import { z } from 'zod';
import {
  ACTIVITY_DUE_FILTERS,
  ACTIVITY_MESSAGES,
  ACTIVITY_TYPES,
  type ActivityType,
  activityRuleIssues,
  CALL_OUTCOMES,
  type CallOutcome,
  MAX_BODY_LENGTH,
  MAX_DURATION_MINUTES,
  MAX_SUBJECT_LENGTH,
} from './activity-vocabulary';
import { isCalendarDate, listQuerySchema, optionalText, optionalWholeNumber } from './common';

export * from './activity-vocabulary';

/**
 * Activities' requests and answers (product.md section 19): `{ type, subject, body, dueAt, durationMinutes,
 * outcome, done, customerId, dealId, contactId, ownerId }`. A due time is an ISO date-time with its offset; the
 * dialog's date and time fields are read in the browser's zone (activityFormSchema).
 */

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;
const isDateTime = (value: string) => {
  const match = DATE_TIME.exec(value);
  return match !== null && isCalendarDate(match[1]) && !Number.isNaN(Date.parse(value));
};

/** A due time: an ISO date-time with offset, answered in UTC; '' and null are none. */
const dueAtValue = z
  .union([z.string(), z.null()], { message: ACTIVITY_MESSAGES.dueInvalid })
  .transform((v) => (v === null || v.trim() === '' ? null : v.trim()))
  .refine((v) => v === null || isDateTime(v), ACTIVITY_MESSAGES.dueInvalid)
  .transform((v) => (v === null ? null : new Date(v).toISOString()));

const blankAsNull = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? null : value);
const uuidOf = (message: string) => z.string({ message }).trim().uuid(message);
/** An optional id: '', null or absent are none. */
const optionalId = (message: string) => z.preprocess(blankAsNull, uuidOf(message).nullish());

const type = z.enum(ACTIVITY_TYPES, { message: ACTIVITY_MESSAGES.typeRequired });
const subject = z
  .string({ message: ACTIVITY_MESSAGES.subjectRequired })
  .trim()
  .min(1, ACTIVITY_MESSAGES.subjectRequired)
  .max(MAX_SUBJECT_LENGTH, ACTIVITY_MESSAGES.subjectTooLong);
const durationMinutes = optionalWholeNumber(
  z
    .number({ message: ACTIVITY_MESSAGES.durationRange })
    .int(ACTIVITY_MESSAGES.durationRange)
    .min(1, ACTIVITY_MESSAGES.durationRange)
    .max(MAX_DURATION_MINUTES, ACTIVITY_MESSAGES.durationRange),
);
const outcome = z
  .preprocess(blankAsNull, z.enum(CALL_OUTCOMES, { message: ACTIVITY_MESSAGES.outcomeUnknown }).nullish())
  .transform((v) => v ?? null);
const done = z.boolean({ message: 'done must be true or false' });

/** The fields every activity has besides its due time. */
const activityFields = {
  type,
  subject,
  body: optionalText(MAX_BODY_LENGTH, 'Details'),
  durationMinutes,
  outcome,
  /** Left out: open. A note is always done: it records what happened. */
  done: done.optional(),
  customerId: uuidOf(ACTIVITY_MESSAGES.customerRequired),
  dealId: optionalId(ACTIVITY_MESSAGES.dealNotFound).transform((v) => v ?? null),
  contactId: optionalId(ACTIVITY_MESSAGES.contactNotFound).transform((v) => v ?? null),
  /** Left out: the caller. Managers and admins may name another active user who works the pipeline. */
  ownerId: optionalId(ACTIVITY_MESSAGES.ownerNotStaff).transform((v) => v ?? null),
};

type RuleInput = {
  type: ActivityType;
  hasDue: boolean;
  durationMinutes: number | null;
  outcome: string | null;
};

function addRuleIssues(value: RuleInput, ctx: z.RefinementCtx, duePath = 'dueAt') {
  for (const issue of activityRuleIssues(value)) {
    ctx.addIssue({ code: 'custom', path: [issue.path === 'dueAt' ? duePath : issue.path], message: issue.message });
  }
}

/** POST /api/activities. */
export const activityCreateSchema = z
  .object({ ...activityFields, dueAt: dueAtValue.optional().transform((v) => v ?? null) })
  .superRefine((activity, ctx) => addRuleIssues({ ...activity, hasDue: activity.dueAt !== null }, ctx));
export type ActivityCreateInput = z.input<typeof activityCreateSchema>;
export type ActivityCreateValues = z.output<typeof activityCreateSchema>;

/**
 * PATCH /api/activities/:id: any of the fields; null clears an optional one. The rules of a type are checked
 * on the activity as it would be saved.
 */
export const activityPatchSchema = z
  .object({
    type: type.optional(),
    subject: subject.optional(),
    body: optionalText(MAX_BODY_LENGTH, 'Details').optional(),
    dueAt: dueAtValue.optional(),
    durationMinutes: durationMinutes.optional(),
    outcome: outcome.optional(),
    done: done.optional(),
    customerId: uuidOf(ACTIVITY_MESSAGES.customerRequired).optional(),
    dealId: optionalId(ACTIVITY_MESSAGES.dealNotFound).optional(),
    contactId: optionalId(ACTIVITY_MESSAGES.contactNotFound).optional(),
    ownerId: optionalId(ACTIVITY_MESSAGES.ownerNotStaff).optional(),
  })
  .strict();
export type ActivityPatchInput = z.input<typeof activityPatchSchema>;
export type ActivityPatchValues = z.output<typeof activityPatchSchema>;

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/**
 * The activity dialog: the API's rules over a due date and a time read in the browser's time zone; its output is
 * the body of POST /api/activities (and of the PATCH of an edit).
 */
export const activityFormSchema = z
  .object({
    ...activityFields,
    done: done.default(false),
    dueDate: z
      .string()
      .trim()
      .refine((v) => v === '' || isCalendarDate(v), 'Enter a valid date'),
    dueTime: z
      .string()
      .trim()
      .refine((v) => v === '' || TIME.test(v), 'Enter a valid time, like 09:30'),
  })
  .superRefine((activity, ctx) => {
    if (activity.dueTime && !activity.dueDate) {
      ctx.addIssue({ code: 'custom', path: ['dueDate'], message: ACTIVITY_MESSAGES.dueDateMissing });
    } else if (activity.dueDate && !activity.dueTime) {
      ctx.addIssue({ code: 'custom', path: ['dueTime'], message: ACTIVITY_MESSAGES.dueTimeMissing });
    }
    addRuleIssues({ ...activity, hasDue: Boolean(activity.dueDate || activity.dueTime) }, ctx, 'dueDate');
  })
  .transform(({ dueDate, dueTime, ...activity }) => ({
    ...activity,
    dueAt: dueDate && dueTime ? new Date(`${dueDate}T${dueTime}`).toISOString() : null,
  }));
export type ActivityFormValues = z.input<typeof activityFormSchema>;
export type ActivityPayload = z.output<typeof activityFormSchema>;

const booleanText = (name: string) =>
  z
    .enum(['true', 'false'], { message: `${name} must be true or false` })
    .transform((v) => v === 'true')
    .optional();

/** GET /api/activities. */
export const activityListQuerySchema = listQuerySchema.pick({ limit: true, offset: true }).extend({
  customerId: uuidOf(ACTIVITY_MESSAGES.customerNotFound).optional(),
  dealId: uuidOf(ACTIVITY_MESSAGES.dealNotFound).optional(),
  ownerId: uuidOf('Owner not found').optional(),
  due: z.enum(ACTIVITY_DUE_FILTERS, { message: 'due must be overdue, today or upcoming' }).optional(),
  done: booleanText('done'),
});
export type ActivityListQuery = z.output<typeof activityListQuerySchema>;
export type ActivityListParams = z.input<typeof activityListQuerySchema>;

/** An activity as the API answers it. */
export type Activity = {
  id: string;
  type: ActivityType;
  subject: string;
  body: string | null;
  dueAt: string | null;
  durationMinutes: number | null;
  outcome: CallOutcome | null;
  done: boolean;
  doneAt: string | null;
  /** Not done and due before now. */
  overdue: boolean;
  /** When its reminder is due (15 minutes before a meeting); null for a note or without a due time. */
  remindAt: string | null;
  customerId: string;
  customerName: string;
  dealId: string | null;
  dealTitle: string | null;
  contactId: string | null;
  contactName: string | null;
  ownerId: string;
  ownerName: string;
  createdAt: string;
  updatedAt: string;
};
