import type { LoginInput, LoginResponse } from '@shared/contracts/auth';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/errors';
import { DUMMY_PASSWORD_HASH, verifyPassword } from '../../lib/password';
import { createSession, type SessionPolicy } from '../sessions/sessions';
import { toUser } from '../users/users.dto';
import { findUserByEmail } from '../users/users.service';
import { countFailedGuesses, insertFailedGuess, lockGuesser, markAttemptSucceeded } from './auth.repo';

export const LOGIN_THROTTLE = { windowMinutes: 15, perAccount: 5, perAddress: 20 };

const INVALID = 'Invalid email or password';

export async function login(
  db: Db,
  input: LoginInput,
  meta: { ip: string; userAgent?: string },
  policy: SessionPolicy,
): Promise<LoginResponse & { expiresAt: Date }> {
  const email = input.email.toLowerCase();
  const attempt = await reservePasswordGuess(db, { email, ip: meta.ip }, SIGN_IN_THROTTLED);

  const user = await findUserByEmail(db, email);
  const ok = await verifyPassword(input.password, user?.passwordHash ?? DUMMY_PASSWORD_HASH);
  if (!user || !ok) throw new AppError('UNAUTHENTICATED', INVALID);
  await markGuessRight(db, attempt);
  if (!user.isActive) {
    throw new AppError('FORBIDDEN', 'Your account has been deactivated. Contact your administrator.');
  }
  const session = await createSession(db, user.id, policy, meta);
  return { token: session.token, user: toUser(user), expiresAt: session.expiresAt };
}

const SIGN_IN_THROTTLED = `Too many failed sign-in attempts. Please wait ${LOGIN_THROTTLE.windowMinutes} minutes and try again.`;

/**
 * Reserves one password guess (a sign-in, or the current password on a password change) for an account and
 * an address, as one atomic step: inside a transaction holding an advisory lock per account and per address,
 * it counts the failed guesses of the window and records this one, as failed until markGuessRight says
 * otherwise. Concurrent guesses queue on the locks, so a burst of 50 sees the counter grow one by one and
 * only the first `perAccount` are evaluated at all; the rest answer 429 without their password being checked.
 * Locks are always taken account first, then address, so two guesses cannot deadlock.
 */
export async function reservePasswordGuess(
  db: Db,
  who: { email: string; ip: string },
  refusal: string,
): Promise<number> {
  const since = new Date(Date.now() - LOGIN_THROTTLE.windowMinutes * 60 * 1000);
  return db.transaction(async (tx) => {
    await lockGuesser(tx, who);
    const { byAccount, byAddress } = await countFailedGuesses(tx, who, since);
    if (byAccount >= LOGIN_THROTTLE.perAccount || byAddress >= LOGIN_THROTTLE.perAddress) {
      throw new AppError('RATE_LIMITED', refusal, {
        headers: { 'Retry-After': String(LOGIN_THROTTLE.windowMinutes * 60) },
      });
    }
    return insertFailedGuess(tx, who);
  });
}

/** The reserved guess was right: it no longer counts against the account or the address. */
export async function markGuessRight(db: Db, attemptId: number): Promise<void> {
  await markAttemptSucceeded(db, attemptId);
}
