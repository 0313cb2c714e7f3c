import {
  ACTIVITY_MESSAGES,
  type Activity,
  type ActivityCreateValues,
  type ActivityListQuery,
  type ActivityPatchValues,
  type ActivityType,
  activityRuleIssues,
  type CallOutcome,
  remindAtOf,
  UPCOMING_DAYS,
} from '@shared/contracts/activities';
import { can, rolesWith } from '@shared/permissions';
import type { Db } from '../../db/client';
import { recordAudit } from '../../lib/audit';
import { businessToday, getBusinessTimeZone } from '../../lib/business-day';
import {
  AppError,
  addFieldError,
  assertNoFieldErrors,
  badRequest,
  type FieldErrors,
  forbidden,
  notFound,
} from '../../lib/errors';
import { getDeal, touchDeals } from '../deals/deals.service';
import type { SessionUser } from '../sessions/sessions';
import {
  type ActivityFilter,
  type ActivityListRow,
  type ActivityRow,
  completeActivityRow,
  deleteActivityRow,
  insertActivity,
  isActiveUserWithRole,
  selectActivity,
  selectActivityPage,
  selectContactCustomerId,
  selectCustomerName,
  updateActivityRow,
} from './activities.repo';

type Actor = SessionUser;

/** Who may own an activity: the people who work the pipeline. */
const OWNER_ROLES = rolesWith(['deal:any', 'deal:own']);

// ---------------------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------------------

function toActivity(row: ActivityListRow, now: Date): Activity {
  const { activity } = row;
  return {
    id: activity.id,
    type: activity.type as ActivityType,
    subject: activity.subject,
    body: activity.body,
    dueAt: activity.dueAt?.toISOString() ?? null,
    durationMinutes: activity.durationMinutes,
    outcome: (activity.outcome as CallOutcome | null) ?? null,
    done: activity.done,
    doneAt: activity.doneAt?.toISOString() ?? null,
    overdue: !activity.done && activity.dueAt !== null && activity.dueAt < now,
    remindAt: activity.remindAt?.toISOString() ?? null,
    customerId: activity.customerId,
    customerName: row.customerName,
    dealId: activity.dealId,
    dealTitle: row.dealTitle,
    contactId: activity.contactId,
    contactName: row.contactName,
    ownerId: activity.ownerId,
    ownerName: `${row.ownerFirstName} ${row.ownerLastName}`.trim(),
    createdAt: activity.createdAt.toISOString(),
    updatedAt: activity.updatedAt.toISOString(),
  };
}

/** The activities a caller sees: every one with `deal:any`, else their own. */
const scopeOf = (actor: Actor): Pick<ActivityFilter, 'ownerId'> =>
  can(actor, 'deal:any') ? {} : { ownerId: actor.id };

/**
 * A page of the activities the caller sees. `due`: overdue (not done, due before now), today (due on the
 * business's calendar day, BUSINESS_TIMEZONE) or upcoming (the 7 days after today).
 */
export async function listActivities(
  db: Db,
  actor: Actor,
  query: ActivityListQuery,
): Promise<{ rows: Activity[]; total: number }> {
  const now = new Date();
  const filter: ActivityFilter = {
    customerId: query.customerId,
    dealId: query.dealId,
    ownerId: scopeOf(actor).ownerId ?? query.ownerId,
    done: query.done,
    due: query.due && {
      kind: query.due,
      now,
      today: businessToday(now),
      timeZone: getBusinessTimeZone(),
      upcomingDays: UPCOMING_DAYS,
    },
  };
  // A rep asking for someone else's sees nothing of theirs (their scope and the filter cannot both hold).
  if (query.ownerId && filter.ownerId !== query.ownerId) return { rows: [], total: 0 };
  const page = await selectActivityPage(db, filter, query);
  return { rows: page.rows.map((row) => toActivity(row, now)), total: page.total };
}

/** The activity, when the caller may see it (404 otherwise: one outside one's scope does not exist for one). */
async function readActivity(db: Db, actor: Actor, id: string): Promise<ActivityListRow> {
  const row = await selectActivity(db, id);
  const scope = scopeOf(actor);
  if (!row || (scope.ownerId && row.activity.ownerId !== scope.ownerId)) throw notFound('Activity');
  return row;
}

async function answer(db: Db, id: string): Promise<Activity> {
  const row = await selectActivity(db, id);
  if (!row) throw notFound('Activity');
  return toActivity(row, new Date());
}

// ---------------------------------------------------------------------------------------------------------
// Changes
// ---------------------------------------------------------------------------------------------------------

/** An activity as it would be saved: the fields its rules and links are checked on. */
type Draft = {
  type: ActivityType;
  dueAt: Date | null;
  durationMinutes: number | null;
  outcome: string | null;
  customerId: string;
  dealId: string | null;
  contactId: string | null;
};

/**
 * The checks of an activity to be saved, each failure under its field (400, nothing saved): the fields its type
 * takes, a customer that exists, a deal the caller sees of that customer, a contact of that customer.
 */
async function checkDraft(db: Db, actor: Actor, draft: Draft, changed: (field: keyof Draft) => boolean) {
  const errors: FieldErrors = {};
  for (const issue of activityRuleIssues({ ...draft, hasDue: draft.dueAt !== null })) {
    addFieldError(errors, issue.path, issue.message);
  }
  if (changed('customerId') && !(await selectCustomerName(db, draft.customerId))) {
    addFieldError(errors, 'customerId', ACTIVITY_MESSAGES.customerNotFound);
  }
  if (draft.dealId && (changed('dealId') || changed('customerId'))) {
    const deal = await getDeal(db, actor, draft.dealId).catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'NOT_FOUND') return null;
      throw error;
    });
    if (!deal) addFieldError(errors, 'dealId', ACTIVITY_MESSAGES.dealNotFound);
    else if (deal.customerId !== draft.customerId) addFieldError(errors, 'dealId', ACTIVITY_MESSAGES.dealOtherCustomer);
  }
  if (draft.contactId && (changed('contactId') || changed('customerId'))) {
    const customerId = await selectContactCustomerId(db, draft.contactId);
    if (!customerId) addFieldError(errors, 'contactId', ACTIVITY_MESSAGES.contactNotFound);
    else if (customerId !== draft.customerId) {
      addFieldError(errors, 'contactId', ACTIVITY_MESSAGES.contactOtherCustomer);
    }
  }
  assertNoFieldErrors(errors);
}

/** The owner an activity gets: the caller, or whom a manager names (an active user who works the pipeline). */
async function resolveOwner(db: Db, actor: Actor, ownerId: string | null | undefined, current: string | null) {
  const wanted = ownerId ?? current ?? actor.id;
  if (wanted === current) return current;
  if (wanted !== actor.id && !can(actor, 'deal:any')) throw forbidden(ACTIVITY_MESSAGES.ownerOthers);
  if (!(await isActiveUserWithRole(db, wanted, OWNER_ROLES))) {
    throw badRequest(ACTIVITY_MESSAGES.ownerNotStaff, { ownerId: [ACTIVITY_MESSAGES.ownerNotStaff] });
  }
  return wanted;
}

/** When the reminder of a due time comes (remindAtOf), and not yet sent: a due time moved is reminded again. */
const reminderOf = (type: ActivityType, dueAt: Date | null) => ({
  remindAt: remindAtOf(type, dueAt),
  remindedAt: null,
});

/** A note records what happened: it is always done. */
const doneOf = (type: ActivityType, done: boolean | undefined, current = false) =>
  type === 'note' ? true : (done ?? current);

/** The audit snapshot of an activity. */
const snapshotOf = (row: ActivityRow) => ({
  type: row.type,
  subject: row.subject,
  dueAt: row.dueAt?.toISOString() ?? null,
  customerId: row.customerId,
  dealId: row.dealId,
  ownerId: row.ownerId,
});

export async function createActivity(db: Db, actor: Actor, input: ActivityCreateValues): Promise<Activity> {
  const now = new Date();
  const dueAt = input.dueAt ? new Date(input.dueAt) : null;
  const draft: Draft = { ...input, dueAt };
  await checkDraft(db, actor, draft, () => true);
  const ownerId = await resolveOwner(db, actor, input.ownerId, null);
  const done = doneOf(input.type, input.done);
  const id = await db.transaction(async (tx) => {
    const row = await insertActivity(tx, {
      type: input.type,
      subject: input.subject,
      body: input.body,
      dueAt,
      durationMinutes: input.durationMinutes,
      outcome: input.outcome,
      done,
      doneAt: done ? now : null,
      customerId: input.customerId,
      dealId: input.dealId,
      contactId: input.contactId,
      ownerId,
      ...reminderOf(input.type, dueAt),
      createdBy: actor.id,
    });
    await touchDeals(tx, [row.dealId]);
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'activity.created',
      entity: 'activity',
      entityId: row.id,
      after: { ...snapshotOf(row), done: row.done },
    });
    return row.id;
  });
  return answer(db, id);
}

const same = (a: unknown, b: unknown) =>
  a instanceof Date || b instanceof Date ? (a as Date | null)?.getTime() === (b as Date | null)?.getTime() : a === b;

export async function updateActivity(db: Db, actor: Actor, id: string, input: ActivityPatchValues): Promise<Activity> {
  const { activity } = await readActivity(db, actor, id);
  const now = new Date();
  const type = input.type ?? (activity.type as ActivityType);
  const draft: Draft = {
    type,
    dueAt: input.dueAt === undefined ? activity.dueAt : input.dueAt ? new Date(input.dueAt) : null,
    durationMinutes: input.durationMinutes === undefined ? activity.durationMinutes : input.durationMinutes,
    outcome: input.outcome === undefined ? activity.outcome : input.outcome,
    customerId: input.customerId ?? activity.customerId,
    dealId: input.dealId === undefined ? activity.dealId : input.dealId,
    contactId: input.contactId === undefined ? activity.contactId : input.contactId,
  };
  await checkDraft(db, actor, draft, (field) => !same(draft[field], activity[field]));
  const ownerId = await resolveOwner(db, actor, input.ownerId, activity.ownerId);

  const set: Partial<ActivityRow> = {
    ...draft,
    ...(input.subject !== undefined ? { subject: input.subject } : {}),
    ...(input.body !== undefined ? { body: input.body } : {}),
    ownerId,
  };
  const done = doneOf(type, input.done, activity.done);
  if (done !== activity.done) Object.assign(set, { done, doneAt: done ? now : null });
  // A reminder follows its due time: moved (or its type changed), it is due again at the new time.
  const reminder = reminderOf(type, draft.dueAt);
  if (!same(reminder.remindAt, activity.remindAt)) Object.assign(set, reminder);

  const changed = (Object.keys(set) as (keyof ActivityRow)[]).filter((key) => !same(set[key], activity[key]));
  if (changed.length === 0) return answer(db, id);
  await db.transaction(async (tx) => {
    const row = await updateActivityRow(tx, id, set);
    if (!row) throw notFound('Activity');
    await touchDeals(tx, [activity.dealId, row.dealId]);
    const shown = changed.filter((key) => key !== 'remindAt' && key !== 'remindedAt' && key !== 'doneAt');
    const value = (record: ActivityRow, key: keyof ActivityRow) => {
      const v = record[key];
      return v instanceof Date ? v.toISOString() : v;
    };
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'activity.updated',
      entity: 'activity',
      entityId: id,
      before: Object.fromEntries(shown.map((key) => [key, value(activity, key)])),
      after: Object.fromEntries(shown.map((key) => [key, value(row, key)])),
    });
  });
  return answer(db, id);
}

/** Marks the activity done; one already done is answered as it is (nothing written). */
export async function completeActivity(db: Db, actor: Actor, id: string): Promise<Activity> {
  const { activity } = await readActivity(db, actor, id);
  if (activity.done) return answer(db, id);
  await db.transaction(async (tx) => {
    const row = await completeActivityRow(tx, id, new Date());
    // Done meanwhile by someone else: the same answer as for one done before.
    if (!row) return;
    await touchDeals(tx, [row.dealId]);
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'activity.completed',
      entity: 'activity',
      entityId: id,
      before: { done: false },
      after: { type: row.type, subject: row.subject, done: true, doneAt: row.doneAt?.toISOString() ?? null },
    });
  });
  return answer(db, id);
}

export async function deleteActivity(db: Db, actor: Actor, id: string): Promise<void> {
  const { activity } = await readActivity(db, actor, id);
  await db.transaction(async (tx) => {
    if (!(await deleteActivityRow(tx, id))) throw notFound('Activity');
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'activity.deleted',
      entity: 'activity',
      entityId: id,
      before: { ...snapshotOf(activity), done: activity.done },
    });
  });
}
