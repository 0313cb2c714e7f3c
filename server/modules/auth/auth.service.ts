import type { LoginInput, LoginResponse } from '@shared/contracts/auth';
import { and, count, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { loginAttempts, users } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { DUMMY_PASSWORD_HASH, verifyPassword } from '../../lib/password';
import { toUser } from '../users/users.dto';
import { createSession, type SessionPolicy } from './sessions';

export const LOGIN_THROTTLE = { windowMinutes: 15, perAccount: 5, perAddress: 20 };

const INVALID = 'Invalid email or password';

export async function login(
  db: Db,
  input: LoginInput,
  meta: { ip: string; userAgent?: string },
  policy: SessionPolicy,
): Promise<LoginResponse & { expiresAt: Date }> {
  const email = input.email.toLowerCase();
  await assertNotThrottled(db, email, meta.ip);

  const [user] = await db.select().from(users).where(sql`lower(${users.email}) = ${email}`).limit(1);
  const ok = await verifyPassword(input.password, user?.passwordHash ?? DUMMY_PASSWORD_HASH);
  await db.insert(loginAttempts).values({ email, ip: meta.ip, succeeded: Boolean(user && ok) });
  if (!user || !ok) throw new AppError('UNAUTHENTICATED', INVALID);
  if (!user.isActive) {
    throw new AppError('FORBIDDEN', 'Your account has been deactivated. Contact your administrator.');
  }
  const session = await createSession(db, user.id, policy, meta);
  return { token: session.token, user: toUser(user), expiresAt: session.expiresAt };
}

async function assertNotThrottled(db: Db, email: string, ip: string): Promise<void> {
  const since = new Date(Date.now() - LOGIN_THROTTLE.windowMinutes * 60 * 1000);
  const failures = (where: ReturnType<typeof eq>) =>
    db
      .select({ n: count() })
      .from(loginAttempts)
      .where(and(where, eq(loginAttempts.succeeded, false), gt(loginAttempts.createdAt, since)));
  const [[byAccount], [byAddress]] = await Promise.all([
    failures(eq(loginAttempts.email, email)),
    failures(eq(loginAttempts.ip, ip)),
  ]);
  if (byAccount.n >= LOGIN_THROTTLE.perAccount || byAddress.n >= LOGIN_THROTTLE.perAddress) {
    throw new AppError(
      'RATE_LIMITED',
      `Too many failed sign-in attempts. Please wait ${LOGIN_THROTTLE.windowMinutes} minutes and try again.`,
      { headers: { 'Retry-After': String(LOGIN_THROTTLE.windowMinutes * 60) } },
    );
  }
}
