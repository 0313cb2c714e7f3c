import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { Mailer } from '../../lib/mailer';

/** A queued e-mail this long past its due time means delivery is not running (with SMTP configured). */
export const OUTBOX_STUCK_MINUTES = 30;

/**
 * The e-mail outbox: 'stuck' when a message has waited more than 30 minutes past its due time, 'failing'
 * when a message was given up on in the last day; 'ok' otherwise, and always without SMTP (messages then
 * stay queued on purpose and show on the Outbox screen). Two EXISTS probes on outbox_due_idx
 * (status, next_attempt_at): no scan, whatever the outbox's size. A failed message's next_attempt_at is
 * its last attempt plus the backoff, so "next_attempt_at within the last day" covers the last day's failures.
 */
export async function outboxHealth({ db, mailer }: { db: Db; mailer: Pick<Mailer, 'smtpEnabled'> }): Promise<string> {
  if (!mailer.smtpEnabled) return 'ok';
  const result = await db.execute(sql`
    select exists (select 1 from outbox_emails
                   where status = 'queued'
                     and next_attempt_at < now() - make_interval(mins => ${OUTBOX_STUCK_MINUTES}::int)) as stuck,
           exists (select 1 from outbox_emails
                   where status = 'failed' and next_attempt_at > now() - interval '1 day') as failing`);
  const row = (result as unknown as { rows: { stuck: boolean; failing: boolean }[] }).rows[0];
  return row.stuck ? 'stuck' : row.failing ? 'failing' : 'ok';
}

/**
 * The billing run: 'ok' when a run succeeded today or yesterday (UTC) and the latest run did not fail;
 * 'failing' when the latest run failed; 'stale' when no run succeeded since yesterday (the hourly run is
 * not running). Two index probes on billing_runs_started_idx.
 */
export async function billingHealth({ db }: { db: Db }): Promise<string> {
  const result = await db.execute(sql`
    select (select status from billing_runs order by started_at desc limit 1) as latest,
           exists (select 1 from billing_runs
                   where status = 'succeeded'
                     and started_at >= (date_trunc('day', now() at time zone 'UTC') - interval '1 day')
                                         at time zone 'UTC') as current`);
  const row = (result as unknown as { rows: { latest: string | null; current: boolean }[] }).rows[0];
  if (row.latest === 'failed') return 'failing';
  return row.current ? 'ok' : 'stale';
}
