import type { ApiKeyView, CreateApiKey, CreatedApiKey } from '@shared/contracts/api-keys';
import type { ListQuery } from '@shared/contracts/common';
import type { Db } from '../../db/client';
import { recordAudit } from '../../lib/audit';
import { businessToday, getBusinessTimeZone } from '../../lib/business-day';
import { badRequest, conflict, notFound } from '../../lib/errors';
import type { SessionUser } from '../sessions/sessions';
import { apiKeyHint, generateApiKey, hashApiKey } from './api-key-token';
import { findApiKeyView, insertApiKey, listApiKeys, revokeApiKeyRow } from './api-keys.repo';

/** What the audit trail keeps of a key: never its secret or its hash. */
const audited = (key: ApiKeyView) => ({
  name: key.name,
  scope: key.scope,
  role: key.role,
  hint: key.hint,
  expiresAt: key.expiresAt,
});

/** Makes a key; its secret is in this answer only (only its SHA-256 is kept). */
export async function createApiKey(db: Db, actor: SessionUser, input: CreateApiKey): Promise<CreatedApiKey> {
  if (input.expiresOn && input.expiresOn <= businessToday()) {
    throw badRequest('The expiry date must be after today', { expiresOn: ['The expiry date must be after today'] });
  }
  const secret = generateApiKey();
  return db.transaction(async (tx) => {
    const id = await insertApiKey(tx, {
      name: input.name,
      scope: input.scope,
      role: input.scope === 'role' ? (input.role ?? null) : null,
      tokenHash: hashApiKey(secret),
      hint: apiKeyHint(secret),
      createdBy: actor.id,
      expiresOn: input.expiresOn,
      timeZone: getBusinessTimeZone(),
    });
    const key = (await findApiKeyView(tx, id))!;
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'api_key.created',
      entity: 'api_key',
      entityId: id,
      after: audited(key),
    });
    return { ...key, secret };
  });
}

export function listKeys(db: Db, query: ListQuery) {
  return listApiKeys(db, { limit: query.limit, offset: query.offset });
}

/** Revokes a key at once: its next request is refused. Revoking a revoked key is a conflict. */
export async function revokeApiKey(db: Db, actor: SessionUser, id: string): Promise<ApiKeyView> {
  return db.transaction(async (tx) => {
    const revoked = await revokeApiKeyRow(tx, id, actor.id);
    const key = await findApiKeyView(tx, id);
    if (!key) throw notFound('API key');
    if (!revoked) throw conflict('This API key is already revoked');
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'api_key.revoked',
      entity: 'api_key',
      entityId: id,
      before: { status: 'active' },
      after: { ...audited(key), status: 'revoked' },
    });
    return key;
  });
}
