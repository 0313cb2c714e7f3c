import type { Db } from '../../db/client';
import { getBusinessTimeZone } from '../../lib/business-day';
import type { Mailer } from '../../lib/mailer';
import { selectBillingRunState, selectJobState, selectOne, selectOutboxState } from './health.repo';

/** How long the database may take to answer `select 1` before health says it is unreachable. */
export const DATABASE_PROBE_TIMEOUT_MS = 2_000;

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
  const row = await selectOutboxState(db, OUTBOX_STUCK_MINUTES);
  return row.stuck ? 'stuck' : row.failing ? 'failing' : 'ok';
}

/**
 * The billing run: 'ok' when a run succeeded today or yesterday (in BUSINESS_TIMEZONE) and the latest run did not fail;
 * 'failing' when the latest run failed; 'stale' when no run succeeded since yesterday (the hourly run is
 * not running). Two index probes on billing_runs_started_idx.
 */
export async function billingHealth({ db }: { db: Db }): Promise<string> {
  const row = await selectBillingRunState(db, getBusinessTimeZone());
  if (row.latest === 'failed') return 'failing';
  return row.current ? 'ok' : 'stale';
}

/**
 * The background jobs (lib/job-queue.ts): 'failing' when a run gave up after its retries in the last day,
 * 'retrying' when a run failed and waits for its next try; 'ok' otherwise.
 */
export async function jobsHealth({ db }: { db: Db }): Promise<string> {
  const row = await selectJobState(db);
  return row.failed ? 'failing' : row.retrying ? 'retrying' : 'ok';
}

/** `select 1` answered within the probe timeout; a closed, stopped or unreachable database is false. */
export async function databaseAnswers(db: Db, timeoutMs = DATABASE_PROBE_TIMEOUT_MS): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const probe = selectOne(db).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([probe, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
