import { and, count, eq, gt, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { loginAttempts } from '../../db/schema';

type Guesser = { email: string; ip: string };

/**
 * Transaction-scoped advisory locks on the account and on the address, always in that order (so two
 * guesses cannot deadlock); held until the transaction ends.
 */
export async function lockGuesser(tx: Db, who: Guesser): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`login-account:${who.email}`}, 0))`);
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`login-address:${who.ip}`}, 0))`);
}

/** The failed guesses since `since`, by the account and by the address. */
export async function countFailedGuesses(
  tx: Db,
  who: Guesser,
  since: Date,
): Promise<{ byAccount: number; byAddress: number }> {
  const failures = (where: SQL) =>
    tx
      .select({ n: count() })
      .from(loginAttempts)
      .where(and(where, eq(loginAttempts.succeeded, false), gt(loginAttempts.createdAt, since)));
  const [[byAccount], [byAddress]] = await Promise.all([
    failures(eq(loginAttempts.email, who.email)),
    failures(eq(loginAttempts.ip, who.ip)),
  ]);
  return { byAccount: byAccount.n, byAddress: byAddress.n };
}

/** Records a guess as failed; its id. */
export async function insertFailedGuess(tx: Db, who: Guesser): Promise<number> {
  const [row] = await tx
    .insert(loginAttempts)
    .values({ email: who.email, ip: who.ip, succeeded: false })
    .returning({ id: loginAttempts.id });
  return row.id;
}

export async function markAttemptSucceeded(db: Db, attemptId: number): Promise<void> {
  await db.update(loginAttempts).set({ succeeded: true }).where(eq(loginAttempts.id, attemptId));
}
