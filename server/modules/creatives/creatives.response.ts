import type { Creative } from '@shared/contracts/creatives';
import { arrayOf, boolean, nullableString, number, object, string } from '../../lib/response-schema';

/** A creative as the API answers it (lib/response-schema.ts): only these fields are ever sent. */
export const creativeResponse = object<Creative>({
  id: string,
  contractId: string,
  contractTitle: nullableString,
  originalName: string,
  kind: string,
  mimeType: string,
  extension: string,
  size: number,
  sha256: string,
  uploadedAt: string,
  uploadedBy: nullableString,
  uploadedByName: nullableString,
  canDelete: boolean,
});
export const creativeListResponse = arrayOf(creativeResponse);
