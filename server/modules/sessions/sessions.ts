import { createHash, randomBytes } from 'node:crypto';
import { and, eq, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { sessions, type users } from '../../db/schema';

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
 * The session lookup of every authenticated request: one statement, prepared by name on PostgreSQL (planned
 * once per connection; docs/decisions/017-performance.md), its row read as an array and the user built from
 * it here (no mapping layer on the hottest path: docs/performance.md, "The request path").
 */
const LOOKUP_TEXT = `select s.id, s.last_used_at, s.expires_at,
    u.id, u.email, u.password_hash, u.first_name, u.last_name, u.role, u.commission_rate_bp, u.is_active,
    u.customer_id, u.password_set_at, u.created_at, u.updated_at
  from sessions s join users u on u.id = s.user_id
  where s.token_hash = $1 limit 1`;

type LookupRow = [
  string,
  Date,
  Date,
  string,
  string,
  string,
  string,
  string,
  string,
  number,
  boolean,
  string | null,
  Date | null,
  Date,
  Date,
];
type LookupRows = (tokenHash: string) => Promise<LookupRow[]>;
type ArrayClient = {
  query(
    config: string | { name: string; text: string; values: unknown[]; rowMode: 'array' },
    values?: unknown[],
    options?: { rowMode: 'array' },
  ): Promise<{ rows: unknown[] }>;
};

const lookups = new WeakMap<Db, LookupRows>();

/** node-postgres (a Pool: a named statement) or PGlite (text and parameters), both answering rows as arrays. */
function lookupRows(db: Db): LookupRows {
  const client = (db as unknown as { $client: ArrayClient & { exec?: unknown } }).$client;
  if (typeof client.exec === 'function') {
    return async (tokenHash) =>
      (await client.query(LOOKUP_TEXT, [tokenHash], { rowMode: 'array' })).rows as LookupRow[];
  }
  return async (tokenHash) =>
    (await client.query({ name: 'session_lookup', text: LOOKUP_TEXT, values: [tokenHash], rowMode: 'array' }))
      .rows as LookupRow[];
}

const timestamp = (value: Date | string) => (value instanceof Date ? value : new Date(value));

function userOf(row: LookupRow): SessionUser {
  return {
    id: row[3],
    email: row[4],
    passwordHash: row[5],
    firstName: row[6],
    lastName: row[7],
    role: row[8] as SessionUser['role'],
    commissionRateBp: row[9],
    isActive: row[10],
    customerId: row[11],
    passwordSetAt: row[12] === null ? null : timestamp(row[12]),
    createdAt: timestamp(row[13]),
    updatedAt: timestamp(row[14]),
  };
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
    lookup = lookupRows(db);
    lookups.set(db, lookup);
  }
  const [row] = await lookup(hashToken(token));
  if (!row) return null;
  const [sessionId, lastUsed, expires] = row;
  const lastUsedAt = timestamp(lastUsed).getTime();
  const now = Date.now();
  const idleLimit = lastUsedAt + policy.idleMinutes * 60 * 1000;
  if (timestamp(expires).getTime() <= now || idleLimit <= now || !row[10]) {
    await db.delete(sessions).where(eq(sessions.id, sessionId));
    return null;
  }
  if (now - lastUsedAt > 60_000) {
    await db
      .update(sessions)
      .set({ lastUsedAt: new Date(now) })
      .where(eq(sessions.id, sessionId));
  }
  return { sessionId, user: userOf(row) };
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
