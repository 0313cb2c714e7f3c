import type { ApiKeyView, CreatedApiKey } from '@shared/contracts/api-keys';
import { arrayOf, nullable, nullableString, object, string } from '../../lib/response-schema';

const keyProperties = {
  id: string,
  name: string,
  scope: string,
  role: nullableString,
  hint: string,
  createdAt: string,
  createdBy: nullable(object<{ id: string; name: string }>({ id: string, name: string })),
  expiresAt: nullableString,
  expiresOn: nullableString,
  revokedAt: nullableString,
  lastUsedAt: nullableString,
  lastUsedIp: nullableString,
  status: string,
};

export const apiKeyResponse = object<ApiKeyView>(keyProperties);
export const apiKeyListResponse = arrayOf(apiKeyResponse);
export const createdApiKeyResponse = object<CreatedApiKey>({ ...keyProperties, secret: string });
