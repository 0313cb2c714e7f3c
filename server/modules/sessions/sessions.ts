import { createHash, randomBytes } from 'node:crypto';
import { and, eq, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { sessions, users } from '../../db/schema';

/** The httpOnly cookie that carries a browser's session token (the same token a bearer header may carry). */
export const SESSION_COOKIE = 'sid';

export type SessionPolicy = { idleMinutes: number; maxDays: number };

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Creates a session and returns its opaque token (256 random bits); only the token's hash is stored. */
export async function createSession(
  db: Db,
  userId: string,
  policy: SessionPolicy,
  meta: { ip?: string; userAgent?: string },
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + policy.maxDays * 24 * 60 * 60 * 1000);
  await db.insert(sessions).values({
    tokenHash: hashToken(token),
    userId,
    expiresAt,
    ip: meta.ip ?? null,
    userAgent: meta.userAgent?.slice(0, 300) ?? null,
  });
  return { token, expiresAt };
}

export type SessionUser = typeof users.$inferSelect;

/**
 * The session lookup of every authenticated request, as a statement built once per database and prepared
 * by name (docs/decisions/017-performance.md): its SQL text is not rebuilt per request, and PostgreSQL
 * plans it once per connection.
 */
const lookups = new WeakMap<Db, ReturnType<typeof prepareLookup>>();

function prepareLookup(db: Db) {
  return db
    .select({
      session: { id: sessions.id, lastUsedAt: sessions.lastUsedAt, expiresAt: sessions.expiresAt },
      user: users,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.tokenHash, sql.placeholder('tokenHash')))
    .limit(1)
    .prepare('session_lookup');
}

/**
 * The user a token names, or null when the token is unknown, past its absolute or idle limit,
 * or its user has been deactivated. Touches lastUsedAt at most once a minute.
 */
export async function resolveSession(
  db: Db,
  token: string,
  policy: SessionPolicy,
): Promise<{ sessionId: string; user: SessionUser } | null> {
  let lookup = lookups.get(db);
  if (!lookup) {
    lookup = prepareLookup(db);
    lookups.set(db, lookup);
  }
  const [row] = await lookup.execute({ tokenHash: hashToken(token) });
  if (!row) return null;
  const now = Date.now();
  const idleLimit = row.session.lastUsedAt.getTime() + policy.idleMinutes * 60 * 1000;
  if (row.session.expiresAt.getTime() <= now || idleLimit <= now || !row.user.isActive) {
    await db.delete(sessions).where(eq(sessions.id, row.session.id));
    return null;
  }
  if (now - row.session.lastUsedAt.getTime() > 60_000) {
    await db
      .update(sessions)
      .set({ lastUsedAt: new Date(now) })
      .where(eq(sessions.id, row.session.id));
  }
  return { sessionId: row.session.id, user: row.user };
}

export async function deleteSession(db: Db, sessionId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}

/** Signs a user out everywhere (deactivation, password change keeps `exceptSessionId`). */
export async function deleteUserSessions(db: Db, userId: string, exceptSessionId?: string): Promise<void> {
  await db
    .delete(sessions)
    .where(
      exceptSessionId
        ? and(eq(sessions.userId, userId), sql`${sessions.id} <> ${exceptSessionId}`)
        : eq(sessions.userId, userId),
    );
}

export async function purgeExpiredSessions(db: Db, policy: SessionPolicy): Promise<void> {
  const idleCutoff = new Date(Date.now() - policy.idleMinutes * 60 * 1000);
  await db.delete(sessions).where(or(lt(sessions.expiresAt, new Date()), lt(sessions.lastUsedAt, idleCutoff)));
}
