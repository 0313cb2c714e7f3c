import type { NotificationType } from '@shared/contracts/notifications';
import type { Role } from '@shared/roles';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client';

export type { NotificationType } from '@shared/contracts/notifications';

export type NotifyInput = {
  /** Recipients: these users and/or every active user holding one of these roles (each user once). */
  to: { userIds?: string[]; roles?: Role[] };
  type: NotificationType;
  title: string;
  body: string;
  /** An in-app path to the record, e.g. `/contracts/<id>` (never a token or a query secret). */
  link?: string | null;
  entity?: string;
  entityId?: string;
  /**
   * The e-mail copy, queued in the outbox for recipients whose notification preferences allow this
   * type. Never put a password, token or pay link in it: it goes to every recipient.
   */
  email?: { subject: string; text: string } | null;
  /** Once-only notices: a recipient who already has a notification with this key gets nothing (no e-mail either). */
  dedupeKey?: string;
};

/** The notification preference that governs the e-mail copy of each type. */
const PREFERENCE_COLUMN: Record<NotificationType, string> = {
  payment_received: 'email_payment_notifications',
  payment_failed: 'email_payment_notifications',
  contract_activated: 'email_contract_updates',
  contract_expiring: 'email_contract_updates',
  contract_amended: 'email_contract_updates',
  contract_paused: 'email_payment_notifications',
  contract_resumed: 'email_payment_notifications',
  credit_note_issued: 'email_payment_notifications',
  delivery_under_pace: 'email_contract_updates',
  delivery_remedy: 'email_contract_updates',
  inventory_hold_expired: 'email_contract_updates',
  payout_requested: 'email_commission_alerts',
  payout_approved: 'email_commission_alerts',
  payout_rejected: 'email_commission_alerts',
  payout_disbursed: 'email_commission_alerts',
  webhook_disabled: 'email_system_maintenance',
  io_accepted: 'email_contract_updates',
  io_declined: 'email_contract_updates',
  // A rep's call, meeting or task due (product.md section 19).
  activity_due: 'email_contract_updates',
};

/**
 * Writes one notification per recipient and queues its e-mail copies, in ONE statement inside the
 * caller's transaction (so a rolled-back event notifies nobody). Recipients are resolved in SQL from
 * active users by id or role; a dedupe key already held by a recipient skips them (unique index
 * notifications_user_dedupe_key, ON CONFLICT DO NOTHING), and only inserted rows get an e-mail.
 * E-mail preferences default to on when the user never saved any (the column defaults).
 * Queued e-mails leave with the next outbox round; call mailer.kick(db) after commit to send at once.
 */
export async function notify(tx: Db, n: NotifyInput): Promise<void> {
  const userIds = [...new Set(n.to.userIds ?? [])].filter(Boolean);
  const roles = [...new Set(n.to.roles ?? [])];
  const who: SQL[] = [];
  if (userIds.length) who.push(sql`u.id in ${userIds}`);
  if (roles.length) who.push(sql`u.role in ${roles}`);
  if (!who.length) return;

  const entity = n.entity ?? null;
  const entityId = n.entityId ?? null;
  const preference = sql.raw(`p.${PREFERENCE_COLUMN[n.type]}`);
  const emailInsert = n.email
    ? sql`insert into outbox_emails ("to", subject, text, entity, entity_id)
          select u.email, ${n.email.subject}, ${n.email.text}, ${entity}, ${entityId}
          from inserted i
          join users u on u.id = i.user_id
          left join notification_preferences p on p.user_id = i.user_id
          where coalesce(${preference}, true)`
    : sql`select 1 from inserted where false`;

  await tx.execute(sql`
    with inserted as (
      insert into notifications (user_id, type, title, body, link, entity, entity_id, dedupe_key)
      select u.id, ${n.type}, ${n.title}, ${n.body}, ${n.link ?? null}, ${entity}, ${entityId}, ${n.dedupeKey ?? null}
      from users u
      where u.is_active and (${sql.join(who, sql` or `)})
      on conflict do nothing
      returning user_id
    )
    ${emailInsert}`);
}

/**
 * notify for many events at once (a batch of payments), in ONE statement: each event's recipients, rows and
 * e-mail copies as notify writes them. Each event needs its own dedupe key, by which its e-mail copy finds the
 * notifications written for it.
 */
export async function notifyEach(tx: Db, events: readonly (NotifyInput & { dedupeKey: string })[]): Promise<void> {
  const list = events.filter((n) => (n.to.userIds ?? []).some(Boolean) || (n.to.roles ?? []).length > 0);
  if (list.length === 0) return;
  const column = (value: (n: (typeof list)[number]) => string | null) => sql.param(list.map(value));
  const preferences = [...new Set(Object.values(PREFERENCE_COLUMN))];
  const preference = sql.join(
    preferences.map((name) => sql`when ${name} then ${sql.raw(`p.${name}`)}`),
    sql` `,
  );
  await tx.execute(sql`
    with n as (
      select * from unnest(
        ${column((n) => n.type)}::text[], ${column((n) => n.title)}::text[], ${column((n) => n.body)}::text[],
        ${column((n) => n.link ?? null)}::text[], ${column((n) => n.entity ?? null)}::text[],
        ${column((n) => n.entityId ?? null)}::text[], ${column((n) => n.dedupeKey)}::text[],
        ${column((n) => [...new Set((n.to.userIds ?? []).filter(Boolean))].join(','))}::text[],
        ${column((n) => [...new Set(n.to.roles ?? [])].join(','))}::text[],
        ${column((n) => n.email?.subject ?? null)}::text[], ${column((n) => n.email?.text ?? null)}::text[],
        ${column((n) => PREFERENCE_COLUMN[n.type])}::text[])
        as n(type, title, body, link, entity, entity_id, dedupe_key, user_ids, roles, subject, text, preference)
    ),
    inserted as (
      insert into notifications (user_id, type, title, body, link, entity, entity_id, dedupe_key)
      select u.id, n.type, n.title, n.body, n.link, n.entity, n.entity_id, n.dedupe_key
      from n
      join users u on u.is_active
        and (u.id::text = any(string_to_array(n.user_ids, ',')) or u.role = any(string_to_array(n.roles, ',')))
      on conflict do nothing
      returning user_id, dedupe_key
    )
    insert into outbox_emails ("to", subject, text, entity, entity_id)
    select u.email, n.subject, n.text, n.entity, n.entity_id
    from inserted i
    join n on n.dedupe_key = i.dedupe_key
    join users u on u.id = i.user_id
    left join notification_preferences p on p.user_id = i.user_id
    where n.subject is not null and coalesce(case n.preference ${preference} end, true)`);
}
