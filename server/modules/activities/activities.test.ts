import type { Activity } from '@shared/contracts/activities';
import type { Deal } from '@shared/contracts/deals';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { activities, auditEvents, contacts, deals, notifications, outboxEmails } from '../../db/schema';
import { setBusinessTimeZone } from '../../lib/business-day';
import { buildTestApp, type TestContext } from '../../test/app';
import { createTestCustomer } from '../../test/catalog-factories';
import { createTestUser } from '../../test/factories';
import { sendActivityReminders } from './activity-reminders.service';

/**
 * Activities over the API (product.md section 19): what each type takes and the messages of what it does not,
 * a rep's scope, the due buckets of "My day" on a pinned clock in the business's time zone (a hand-written
 * table), done in one call, reminders once across two claims at once, and a deal's last activity.
 *
 * The clock is pinned to Wednesday 2026-03-04 15:00 UTC, 10:00 in New York (EST, UTC-5); the clocks there move
 * to EDT (UTC-4) on Sunday Mar 8, inside the "next 7 days" window, which ends at midnight of Mar 12 EDT. (A past
 * moment: on PostgreSQL the database's own clock, which stamps a new session's last use, stays the real one.)
 */
const NOW = new Date('2026-03-04T15:00:00Z');
const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000).toISOString();
const BASE_URL = 'https://crm.example.test';

let ctx: TestContext;
let customerId: string;
let otherCustomerId: string;

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  ctx = await buildTestApp({ config: { PUBLIC_URL: BASE_URL, BUSINESS_TIMEZONE: 'America/New_York' } });
  customerId = (await createTestCustomer(ctx.db, { name: 'Bella Notte Trattoria', email: 'giulia@bellanotte.test' }))
    .id;
  otherCustomerId = (await createTestCustomer(ctx.db, { name: 'Harbor Lights Marina' })).id;
});
afterAll(async () => {
  await ctx.close();
  setBusinessTimeZone('UTC');
  vi.useRealTimers();
});

type Who = Parameters<TestContext['injectAs']>[0];
const post = (who: Who, url: string, payload: object = {}) => ctx.injectAs(who, { method: 'POST', url, payload });
const patch = (who: Who, url: string, payload: object) => ctx.injectAs(who, { method: 'PATCH', url, payload });
const get = (who: Who, url: string) => ctx.injectAs(who, { method: 'GET', url });

const TASK = { type: 'task', subject: 'Call Bella Notte about Q1', dueAt: at(60) };

async function newActivity(who: Who, fields: Record<string, unknown> = {}): Promise<Activity> {
  const response = await post(who, '/api/activities', { customerId, ...TASK, ...fields });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

async function newDeal(who: Who, fields: Record<string, unknown> = {}): Promise<Deal> {
  const response = await post(who, '/api/deals', { customerId, title: 'Spring banners', amount: 1000, ...fields });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

const activityCount = async () => (await ctx.db.select({ n: count() }).from(activities))[0].n;
const auditActions = async (id: string) =>
  (
    await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entity, 'activity'), eq(auditEvents.entityId, id)))
  )
    .sort((a, b) => a.id - b.id)
    .map((event) => event.action);

describe('POST /api/activities', () => {
  it('logs a task for the caller, audited, with its reminder at the due time', async () => {
    const rep = await ctx.as('sales');
    const task = await newActivity(rep, { body: 'Ask about the spring menu launch' });
    expect(task).toMatchObject({
      type: 'task',
      subject: 'Call Bella Notte about Q1',
      body: 'Ask about the spring menu launch',
      dueAt: '2026-03-04T16:00:00.000Z',
      remindAt: '2026-03-04T16:00:00.000Z',
      done: false,
      doneAt: null,
      overdue: false,
      customerId,
      customerName: 'Bella Notte Trattoria',
      dealId: null,
      dealTitle: null,
      contactId: null,
      contactName: null,
      ownerId: rep.id,
      ownerName: `${rep.firstName} ${rep.lastName}`,
    });
    expect(await auditActions(task.id)).toEqual(['activity.created']);
  });

  it('reminds of a meeting 15 minutes before it, of a call at its time, of a note never (a note is done)', async () => {
    const meeting = await newActivity('sales', {
      type: 'meeting',
      subject: 'Q1 planning at the restaurant',
      dueAt: '2026-03-06T18:00:00Z',
      durationMinutes: 45,
    });
    expect([meeting.dueAt, meeting.remindAt, meeting.durationMinutes]).toEqual([
      '2026-03-06T18:00:00.000Z',
      '2026-03-06T17:45:00.000Z',
      45,
    ]);
    const call = await newActivity('sales', {
      type: 'call',
      subject: 'Follow up',
      dueAt: '2026-03-06T14:30:00-05:00',
      durationMinutes: 10,
      outcome: 'left_voicemail',
    });
    expect([call.dueAt, call.remindAt, call.outcome]).toEqual([
      '2026-03-06T19:30:00.000Z',
      '2026-03-06T19:30:00.000Z',
      'left_voicemail',
    ]);
    const note = await newActivity('sales', { type: 'note', subject: 'Prefers e-mail', dueAt: null });
    expect([note.remindAt, note.done, note.doneAt]).toEqual([null, true, NOW.toISOString()]);
  });

  it('refuses what a type does not take, and bad links, with their messages, and saves nothing', async () => {
    const otherRep = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales' }));
    const othersDeal = await newDeal(otherRep, { title: 'Not yours' });
    const otherCustomersDeal = await newDeal('sales', { customerId: otherCustomerId, title: 'Marina banners' });
    const [otherContact] = await ctx.db
      .insert(contacts)
      .values({ customerId: otherCustomerId, name: 'Sam Harbor' })
      .returning();
    const unknown = '00000000-0000-4000-8000-000000000000';
    const before = await activityCount();
    const cases: [Record<string, unknown>, string][] = [
      [{ type: 'visit' }, 'Choose a type: call, meeting, e-mail, task or note'],
      [{ subject: '  ' }, 'Subject is required'],
      [{ subject: 'x'.repeat(201) }, 'Subject cannot be longer than 200 characters'],
      [{ dueAt: undefined }, 'A task needs a due date and time'],
      [{ type: 'meeting', dueAt: '' }, 'A meeting needs a date and time'],
      [{ dueAt: 'tomorrow' }, 'Due must be a date and time, like 2027-03-10T15:00:00Z'],
      [{ dueAt: '2027-02-30T10:00:00Z' }, 'Due must be a date and time, like 2027-03-10T15:00:00Z'],
      [{ dueAt: '2026-03-04T10:00:00' }, 'Due must be a date and time, like 2027-03-10T15:00:00Z'],
      [{ type: 'call', durationMinutes: 0 }, 'Duration must be a whole number of minutes from 1 to 1440'],
      [{ type: 'meeting', durationMinutes: 1441 }, 'Duration must be a whole number of minutes from 1 to 1440'],
      [{ durationMinutes: 30 }, 'Only meetings and calls have a duration'],
      [{ type: 'call', outcome: 'maybe' }, 'Choose an outcome: connected, left a voicemail, no answer or wrong number'],
      [{ type: 'email', outcome: 'connected' }, 'Only a call has an outcome'],
      [{ customerId: undefined }, 'Choose a customer'],
      [{ customerId: unknown }, 'Customer not found'],
      [{ dealId: unknown }, 'Deal not found'],
      [{ dealId: othersDeal.id }, 'Deal not found'],
      [{ dealId: otherCustomersDeal.id }, 'This deal belongs to another customer'],
      [{ contactId: unknown }, 'Contact not found'],
      [{ contactId: otherContact.id }, 'This contact belongs to another customer'],
    ];
    for (const [fields, message] of cases) {
      const response = await post('sales', '/api/activities', { customerId, ...TASK, ...fields });
      expect(response.statusCode, JSON.stringify(fields)).toBe(400);
      expect(response.json().message, JSON.stringify(fields)).toBe(message);
    }
    const finance = await ctx.as('finance');
    const notStaff = await post('sales_manager', '/api/activities', { customerId, ...TASK, ownerId: finance.id });
    expect(notStaff.statusCode).toBe(400);
    expect(notStaff.json()).toMatchObject({
      message: 'Choose an active sales rep, sales manager or admin as the owner',
      fieldErrors: { ownerId: ['Choose an active sales rep, sales manager or admin as the owner'] },
    });
    expect(await activityCount()).toBe(before);
  });
});

describe('who sees an activity', () => {
  it('a rep sees and changes only their own (404), may not give one away (403); managers see and assign all', async () => {
    const rep = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales' }));
    const other = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales' }));
    const mine = await newActivity(rep, { subject: 'Mine only' });
    for (const [method, url] of [
      ['PATCH', `/api/activities/${mine.id}`],
      ['DELETE', `/api/activities/${mine.id}`],
      ['POST', `/api/activities/${mine.id}/complete`],
    ] as const) {
      const response = await ctx.injectAs(other, { method, url, payload: method === 'PATCH' ? { subject: 'x' } : {} });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json().message).toBe('Activity not found');
    }
    expect((await get(other, '/api/activities?limit=500')).json()).toEqual([]);
    expect((await get(other, `/api/activities?ownerId=${rep.id}`)).json()).toEqual([]);
    const listed = await get(rep, '/api/activities');
    expect((listed.json() as Activity[]).map((a) => a.subject)).toEqual(['Mine only']);
    expect(listed.headers['x-total-count']).toBe('1');

    const givenAway = await post(rep, '/api/activities', { customerId, ...TASK, ownerId: other.id });
    expect(givenAway.statusCode).toBe(403);
    expect(givenAway.json().message).toBe('Only managers can give an activity to someone else');
    const moved = await patch(rep, `/api/activities/${mine.id}`, { ownerId: other.id });
    expect(moved.statusCode).toBe(403);

    const assigned = await newActivity('sales_manager', { subject: 'For the other rep', ownerId: other.id });
    expect(assigned.ownerId).toBe(other.id);
    const managerSees = await get('sales_manager', `/api/activities?ownerId=${other.id}`);
    expect((managerSees.json() as Activity[]).map((a) => a.subject)).toEqual(['For the other rep']);
    const reassigned = await patch('admin', `/api/activities/${mine.id}`, { ownerId: other.id });
    expect(reassigned.statusCode, reassigned.body).toBe(200);
    expect((await get(rep, '/api/activities')).json()).toEqual([]);
    expect((await get('finance', '/api/activities')).statusCode).toBe(403);
    expect((await get('client', '/api/activities')).statusCode).toBe(403);
  });
});

describe('GET /api/activities?due=', () => {
  it('buckets by the business day in New York on the pinned clock: overdue, today, the next 7 days', async () => {
    const rep = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales' }));
    // due (UTC), as New York's clocks read it, done?, and the buckets it is expected in.
    const TABLE: [subject: string, dueAt: string | null, done: boolean, buckets: string[]][] = [
      ['yesterday 23:30', '2026-03-04T04:30:00Z', false, ['overdue']],
      ['today 00:00', '2026-03-04T05:00:00Z', false, ['overdue', 'today']],
      ['today 08:00', '2026-03-04T13:00:00Z', false, ['overdue', 'today']],
      ['today 08:00, done', '2026-03-04T13:00:00Z', true, ['today']],
      ['today 10:00, now', '2026-03-04T15:00:00Z', false, ['today']],
      ['today 15:00', '2026-03-04T20:00:00Z', false, ['today']],
      ['today 23:59', '2026-03-05T04:59:00Z', false, ['today']],
      ['tomorrow 00:00', '2026-03-05T05:00:00Z', false, ['upcoming']],
      ['Sunday 12:00 EDT', '2026-03-08T16:00:00Z', false, ['upcoming']],
      ['Mar 11 23:30 EDT', '2026-03-12T03:30:00Z', false, ['upcoming']],
      ['Mar 12 00:30 EDT', '2026-03-12T04:30:00Z', false, []],
      ['last week', '2026-02-25T15:00:00Z', false, ['overdue']],
      ['no due time', null, false, []],
    ];
    for (const [subject, dueAt, done] of TABLE) {
      await newActivity(rep, { type: dueAt ? 'task' : 'email', subject, dueAt, done });
    }
    for (const due of ['overdue', 'today', 'upcoming']) {
      const response = await get(rep, `/api/activities?due=${due}&ownerId=${rep.id}`);
      expect(response.statusCode, response.body).toBe(200);
      const expected = TABLE.filter(([, , , buckets]) => buckets.includes(due)).map(([subject]) => subject);
      expect((response.json() as Activity[]).map((a) => a.subject).sort(), due).toEqual([...expected].sort());
    }
    // "My day" asks for the open ones; they come soonest first.
    const today = (await get(rep, '/api/activities?due=today&done=false')).json() as Activity[];
    expect(today.map((a) => [a.subject, a.overdue])).toEqual([
      ['today 00:00', true],
      ['today 08:00', true],
      ['today 10:00, now', false],
      ['today 15:00', false],
      ['today 23:59', false],
    ]);
    const bad = await get(rep, '/api/activities?due=someday');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('due must be overdue, today or upcoming');
  });
});

describe('changing an activity', () => {
  it('is done in one call, and done again is answered unchanged', async () => {
    const task = await newActivity('sales', { subject: 'Send the media kit', dueAt: at(-30) });
    expect(task.overdue).toBe(true);
    const done = await post('sales', `/api/activities/${task.id}/complete`);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ done: true, doneAt: NOW.toISOString(), overdue: false });
    const again = await post('sales', `/api/activities/${task.id}/complete`);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(done.json());
    expect(await auditActions(task.id)).toEqual(['activity.created', 'activity.completed']);
  });

  it('edits check the type’s rules on the activity as saved; a delete is audited', async () => {
    const call = await newActivity('sales', { type: 'call', subject: 'Pitch', outcome: 'no_answer' });
    const asEmail = await patch('sales', `/api/activities/${call.id}`, { type: 'email' });
    expect(asEmail.statusCode).toBe(400);
    expect(asEmail.json().message).toBe('Only a call has an outcome');
    const edited = await patch('sales', `/api/activities/${call.id}`, {
      type: 'email',
      outcome: null,
      subject: 'Pitch by e-mail',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ type: 'email', outcome: null, subject: 'Pitch by e-mail' });
    const unchanged = await patch('sales', `/api/activities/${call.id}`, { subject: 'Pitch by e-mail' });
    expect(unchanged.statusCode).toBe(200);
    const gone = await ctx.injectAs('sales', { method: 'DELETE', url: `/api/activities/${call.id}` });
    expect(gone.statusCode, gone.body).toBe(200);
    expect(gone.json()).toEqual({ message: 'Activity deleted' });
    expect(await auditActions(call.id)).toEqual(['activity.created', 'activity.updated', 'activity.deleted']);
    const [audit] = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, call.id), eq(auditEvents.action, 'activity.updated')));
    expect([audit.before, audit.after]).toEqual([
      { type: 'call', outcome: 'no_answer', subject: 'Pitch' },
      { type: 'email', outcome: null, subject: 'Pitch by e-mail' },
    ]);
  });

  it('moving a due time moves its reminder, to be sent again', async () => {
    const meeting = await newActivity('sales', { type: 'meeting', subject: 'Tasting', dueAt: at(120) });
    await ctx.db.update(activities).set({ remindedAt: NOW }).where(eq(activities.id, meeting.id));
    const moved = await patch('sales', `/api/activities/${meeting.id}`, { dueAt: at(240) });
    expect(moved.json().remindAt).toBe(at(225));
    const [row] = await ctx.db.select().from(activities).where(eq(activities.id, meeting.id));
    expect(row.remindedAt).toBeNull();
    const asTask = await patch('sales', `/api/activities/${meeting.id}`, { type: 'task' });
    expect(asTask.json().remindAt).toBe(at(240));
  });
});

describe('a deal’s last activity', () => {
  it('is now when an activity of the deal is logged or done, so the deal is no longer stale', async () => {
    const deal = await newDeal('sales');
    const staleAgain = () =>
      ctx.db
        .update(deals)
        .set({ lastActivityAt: new Date('2026-01-01T12:00:00Z') })
        .where(eq(deals.id, deal.id));
    const read = async () => (await get('sales', `/api/deals/${deal.id}`)).json() as Deal;
    await staleAgain();
    expect((await read()).stale).toBe(true);

    const task = await newActivity('sales', { dealId: deal.id, subject: 'Send the proposal' });
    expect(task.dealTitle).toBe('Spring banners');
    expect(await read()).toMatchObject({ stale: false, lastActivityAt: NOW.toISOString(), version: deal.version });

    await staleAgain();
    expect((await post('sales', `/api/activities/${task.id}/complete`)).statusCode).toBe(200);
    expect(await read()).toMatchObject({ stale: false, lastActivityAt: NOW.toISOString() });

    const listed = (await get('sales', `/api/activities?dealId=${deal.id}`)).json() as Activity[];
    expect(listed.map((a) => a.id)).toEqual([task.id]);
  });
});

describe('reminders', () => {
  const remindersOf = async (id: string) =>
    ctx.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.entity, 'activity'), eq(notifications.entityId, id)));

  it('are sent once to the owner, in-app and by e-mail, even when two instances claim at once', async () => {
    const rep = await ctx.signIn(await createTestUser(ctx.db, { role: 'sales', email: 'jordan.rep@example.test' }));
    // Everything due so far in this file is claimed first, so what follows counts only these.
    await sendActivityReminders(ctx.db, { baseUrl: BASE_URL, now: new Date(at(0)) });
    const call = await newActivity(rep, {
      type: 'call',
      subject: 'Call Bella Notte about Q1',
      dueAt: '2026-03-04T15:30:00Z',
    });
    const meeting = await newActivity(rep, {
      type: 'meeting',
      subject: 'Q1 planning',
      dueAt: '2026-03-04T16:00:00Z',
    });
    const done = await newActivity(rep, { subject: 'Done already', dueAt: '2026-03-04T15:10:00Z', done: true });

    // 15:40: the call is due and the meeting's reminder (15:45) not yet. Two claims at once send it once.
    const counts = await Promise.all([
      sendActivityReminders(ctx.db, { baseUrl: BASE_URL, now: new Date('2026-03-04T15:40:00Z') }),
      sendActivityReminders(ctx.db, { baseUrl: BASE_URL, now: new Date('2026-03-04T15:40:00Z') }),
    ]);
    expect([...counts].sort()).toEqual([0, 1]);
    const [sent] = await remindersOf(call.id);
    expect(await remindersOf(call.id)).toHaveLength(1);
    expect(sent).toMatchObject({
      userId: rep.id,
      type: 'activity_due',
      title: 'Call due: Call Bella Notte about Q1',
      body: 'Call for Bella Notte Trattoria: due Mar 4, 2026, 10:30 AM EST.',
      link: `/customers/${customerId}`,
    });
    const mail = await ctx.db
      .select()
      .from(outboxEmails)
      .where(and(eq(outboxEmails.entity, 'activity'), eq(outboxEmails.entityId, call.id)));
    expect(mail.map((m) => [m.to, m.subject])).toEqual([
      ['jordan.rep@example.test', 'Call due: Call Bella Notte about Q1'],
    ]);
    expect(mail[0].text).toContain(`${BASE_URL}/customers/${customerId}`);
    expect(await remindersOf(meeting.id)).toHaveLength(0);

    // 15:45: the meeting's, once, however many claim; the call is not sent again, the done task never.
    const later = await Promise.all(
      [1, 2, 3].map(() => sendActivityReminders(ctx.db, { baseUrl: BASE_URL, now: new Date('2026-03-04T15:45:00Z') })),
    );
    expect(later.reduce((a, b) => a + b, 0)).toBe(1);
    expect((await remindersOf(meeting.id)).map((n) => [n.title, n.body])).toEqual([
      ['Meeting due: Q1 planning', 'Meeting for Bella Notte Trattoria: starts Mar 4, 2026, 11:00 AM EST.'],
    ]);
    expect(await remindersOf(call.id)).toHaveLength(1);
    expect(await remindersOf(done.id)).toHaveLength(0);

    // The call moved to later: reminded again at its new time.
    await patch(rep, `/api/activities/${call.id}`, { dueAt: '2026-03-04T17:00:00Z' });
    await sendActivityReminders(ctx.db, { baseUrl: BASE_URL, now: new Date('2026-03-04T16:59:00Z') });
    expect(await remindersOf(call.id)).toHaveLength(1);
    await sendActivityReminders(ctx.db, { baseUrl: BASE_URL, now: new Date('2026-03-04T17:00:00Z') });
    expect((await remindersOf(call.id)).map((n) => n.body)).toEqual([
      'Call for Bella Notte Trattoria: due Mar 4, 2026, 10:30 AM EST.',
      'Call for Bella Notte Trattoria: due Mar 4, 2026, 12:00 PM EST.',
    ]);
  });
});
