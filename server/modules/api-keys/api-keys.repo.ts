import type { ApiKeyRole, ApiKeyScope, ApiKeyView } from '@shared/contracts/api-keys';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { apiKeys, users } from '../../db/schema';
import { getBusinessTimeZone } from '../../lib/business-day';
import type { SessionUser } from '../sessions/sessions';

const creators = alias(users, 'creators');

/** Active, expired or revoked, as of the database's clock. */
const status = sql<ApiKeyView['status']>`case
  when ${apiKeys.revokedAt} is not null then 'revoked'
  when ${apiKeys.expiresAt} is not null and ${apiKeys.expiresAt} <= now() then 'expired'
  else 'active' end`;

/** The columns of a key as listed; its expiry also as the last day it works, in the business's calendar. */
const viewColumns = () => ({
  id: apiKeys.id,
  name: apiKeys.name,
  scope: sql<ApiKeyScope>`${apiKeys.scope}`,
  role: sql<ApiKeyRole | null>`${apiKeys.role}`,
  hint: apiKeys.hint,
  createdAt: apiKeys.createdAt,
  creatorId: creators.id,
  creatorFirst: creators.firstName,
  creatorLast: creators.lastName,
  expiresAt: apiKeys.expiresAt,
  expiresOn: sql<
    string | null
  >`to_char((${apiKeys.expiresAt} at time zone ${getBusinessTimeZone()})::date - 1, 'YYYY-MM-DD')`,
  revokedAt: apiKeys.revokedAt,
  lastUsedAt: apiKeys.lastUsedAt,
  lastUsedIp: apiKeys.lastUsedIp,
  status,
});

type ViewRow = {
  id: string;
  name: string;
  scope: ApiKeyScope;
  role: ApiKeyRole | null;
  hint: string;
  createdAt: Date;
  creatorId: string | null;
  creatorFirst: string | null;
  creatorLast: string | null;
  expiresAt: Date | null;
  expiresOn: string | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  lastUsedIp: string | null;
  status: ApiKeyView['status'];
};

const toView = (row: ViewRow): ApiKeyView => ({
  id: row.id,
  name: row.name,
  scope: row.scope,
  role: row.role,
  hint: row.hint,
  createdAt: row.createdAt.toISOString(),
  createdBy: row.creatorId ? { id: row.creatorId, name: `${row.creatorFirst} ${row.creatorLast}`.trim() } : null,
  expiresAt: row.expiresAt?.toISOString() ?? null,
  expiresOn: row.expiresOn,
  revokedAt: row.revokedAt?.toISOString() ?? null,
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  lastUsedIp: row.lastUsedIp,
  status: row.status,
});

/** Keys newest first, a page at a time, with the count in the same statement. */
export async function listApiKeys(db: Db, page: { limit: number; offset: number }) {
  const rows = await db
    .select({ ...viewColumns(), total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(apiKeys)
    .leftJoin(creators, eq(creators.id, apiKeys.createdBy))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
    .limit(page.limit)
    .offset(page.offset);
  return { rows: rows.map(toView), total: rows[0]?.total ?? 0 };
}

export async function findApiKeyView(db: Db, id: string): Promise<ApiKeyView | null> {
  const [row] = await db
    .select(viewColumns())
    .from(apiKeys)
    .leftJoin(creators, eq(creators.id, apiKeys.createdBy))
    .where(eq(apiKeys.id, id));
  return row ? toView(row) : null;
}

export type NewApiKey = {
  name: string;
  scope: ApiKeyScope;
  role: ApiKeyRole | null;
  tokenHash: string;
  hint: string;
  createdBy: string;
  /** The last day it works, in the business's time zone: it expires when the next day starts there. */
  expiresOn: string | null;
  timeZone: string;
};

export async function insertApiKey(db: Db, key: NewApiKey): Promise<string> {
  const [row] = await db
    .insert(apiKeys)
    .values({
      name: key.name,
      scope: key.scope,
      role: key.role,
      tokenHash: key.tokenHash,
      hint: key.hint,
      createdBy: key.createdBy,
      expiresAt: key.expiresOn ? sql`((${key.expiresOn}::date + 1)::timestamp at time zone ${key.timeZone})` : null,
    })
    .returning({ id: apiKeys.id });
  return row!.id;
}

/** Revokes a key that is not revoked yet: the row count says whether this call did it. */
export async function revokeApiKeyRow(db: Db, id: string, by: string): Promise<boolean> {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: sql`now()`, revokedBy: by })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return rows.length === 1;
}

export type ResolvedApiKey = {
  key: {
    id: string;
    name: string;
    scope: ApiKeyScope;
    role: ApiKeyRole | null;
    expired: boolean;
    revoked: boolean;
    lastUsedAt: Date | null;
    lastUsedIp: string | null;
  };
  creator: SessionUser;
};

const lookups = new WeakMap<Db, ReturnType<typeof prepareLookup>>();

function prepareLookup(db: Db) {
  return db
    .select({
      key: {
        id: apiKeys.id,
        name: apiKeys.name,
        scope: sql<ApiKeyScope>`${apiKeys.scope}`,
        role: sql<ApiKeyRole | null>`${apiKeys.role}`,
        expired: sql<boolean>`coalesce(${apiKeys.expiresAt} <= now(), false)`,
        revoked: sql<boolean>`${apiKeys.revokedAt} is not null`,
        lastUsedAt: apiKeys.lastUsedAt,
        lastUsedIp: apiKeys.lastUsedIp,
      },
      creator: users,
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.createdBy))
    .where(eq(apiKeys.tokenHash, sql.placeholder('tokenHash')))
    .limit(1)
    .prepare('api_key_lookup');
}

/** The key with this hash and the admin who made it (one indexed read, prepared once per database). */
export async function findApiKeyByHash(db: Db, tokenHash: string): Promise<ResolvedApiKey | null> {
  let lookup = lookups.get(db);
  if (!lookup) {
    lookup = prepareLookup(db);
    lookups.set(db, lookup);
  }
  const [row] = await lookup.execute({ tokenHash });
  return row ?? null;
}

/** Records the last use: at most once a minute per key, or when the address changes. */
export async function touchApiKey(db: Db, id: string, ip: string): Promise<void> {
  await db
    .update(apiKeys)
    .set({ lastUsedAt: sql`now()`, lastUsedIp: ip })
    .where(
      and(
        eq(apiKeys.id, id),
        sql`(${apiKeys.lastUsedAt} is null or ${apiKeys.lastUsedAt} < now() - interval '1 minute' or ${apiKeys.lastUsedIp} is distinct from ${ip})`,
      ),
    );
}
