import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';

function firstRow<T>(result: unknown): T {
  return (result as { rows: T[] }).rows[0];
}

/** `select 1`: resolves when the database answers. */
export async function selectOne(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}

/**
 * Whether a queued e-mail is more than `stuckMinutes` past its due time, and whether one was given up on
 * in the last day: two EXISTS probes on outbox_due_idx (status, next_attempt_at).
 */
export async function selectOutboxState(db: Db, stuckMinutes: number): Promise<{ stuck: boolean; failing: boolean }> {
  const result = await db.execute(sql`
    select exists (select 1 from outbox_emails
                   where status = 'queued'
                     and next_attempt_at < now() - make_interval(mins => ${stuckMinutes}::int)) as stuck,
           exists (select 1 from outbox_emails
                   where status = 'failed' and next_attempt_at > now() - interval '1 day') as failing`);
  return firstRow(result);
}

/**
 * The latest billing run's status, and whether a run succeeded since the start of yesterday in the
 * business's time zone: two index probes on billing_runs_started_idx.
 */
export async function selectBillingRunState(
  db: Db,
  timeZone: string,
): Promise<{ latest: string | null; current: boolean }> {
  const result = await db.execute(sql`
    select (select status from billing_runs order by started_at desc limit 1) as latest,
           exists (select 1 from billing_runs
                   where status = 'succeeded'
                     and started_at >= (date_trunc('day', now() at time zone ${timeZone}) - interval '1 day')
                                         at time zone ${timeZone}) as current`);
  return firstRow(result);
}

/**
 * The job queue's state: runs that exhausted their retries in the last day (in pgboss.job or, once moved,
 * pgboss.archive) and runs waiting for a retry now. Before the queue's first start its tables do not exist:
 * nothing has failed then.
 */
export async function selectJobState(db: Db): Promise<{ failed: boolean; retrying: boolean }> {
  const present = firstRow<{ present: boolean }>(
    await db.execute(sql`select to_regclass('pgboss.archive') is not null as present`),
  );
  if (!present.present) return { failed: false, retrying: false };
  return firstRow(
    await db.execute(sql`
      select exists (select 1 from pgboss.job
                     where state = 'failed' and completed_on > now() - interval '1 day')
             or exists (select 1 from pgboss.archive
                        where state = 'failed' and completed_on > now() - interval '1 day') as failed,
             exists (select 1 from pgboss.job where state = 'retry') as retrying`),
  );
}
