import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Multipart } from '@fastify/multipart';
import type { ListQuery } from '@shared/contracts/common';
import { canSeeContract, canWriteContract, clientOwnsContract } from '@shared/contracts/contract-access';
import {
  CREATIVE_MESSAGES,
  type Creative,
  type CreativeKind,
  creativeUploadRefusal,
  storageFullMessage,
  tooManyUploadsMessage,
} from '@shared/contracts/creatives';
import { can } from '@shared/permissions';
import { and, eq, ne } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { contracts, creatives } from '../../db/schema';
import { recordAudit } from '../../lib/audit';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import { type Storage, StoredObjectMissing } from '../../lib/storage';
import type { SessionUser } from '../sessions/sessions';
import { detectCreativeType } from './content-type';
import {
  type CreativeListRow,
  type CreativeRow,
  deleteCreativeRow,
  insertCreative,
  lockCustomerUploads,
  selectContract,
  selectCreative,
  selectCreativePage,
  selectUploadUsage,
} from './creatives.repo';

/** How much one user may upload per hour, and one customer keep (CREATIVE_UPLOADS_PER_HOUR, CREATIVE_STORAGE_MB). */
export type UploadCaps = { perHour: number; storageMegabytes: number };

export type CreativeDeps = { db: Db; storage: Storage; log: FastifyBaseLogger; caps: UploadCaps };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// ---------------------------------------------------------------------------------------------------------
// Upload
// ---------------------------------------------------------------------------------------------------------

type Stored = { key: string; size: number; sha256: string; originalName: string };

/**
 * The upload caps (decision 021): `fileBytes` more would be too many uploads for the user this hour (429,
 * with Retry-After) or more than the customer may keep (413). Called before the body is read (with 1 byte:
 * nothing more fits) and again under the customer's upload lock with the file's size, so parallel uploads
 * cannot pass a cap together.
 */
export async function checkUploadCaps(
  db: Db,
  caps: UploadCaps,
  actor: SessionUser,
  customerId: string,
  fileBytes: number,
): Promise<void> {
  const usage = await selectUploadUsage(db, actor.id, customerId);
  if (usage.lastHour >= caps.perHour) {
    throw new AppError('RATE_LIMITED', tooManyUploadsMessage(caps.perHour, usage.secondsUntilRoom), {
      headers: { 'Retry-After': String(usage.secondsUntilRoom) },
    });
  }
  if (usage.customerBytes + fileBytes > caps.storageMegabytes * 1024 * 1024) {
    throw new AppError('PAYLOAD_TOO_LARGE', storageFullMessage(caps.storageMegabytes));
  }
}

/**
 * POST /api/client/creatives: one file (field `file`) for one of the client's own contracts (field
 * `contractId`; in any order). The caps are checked first, before any of the body is read. The file is
 * streamed to the storage while its size and SHA-256 are counted (never held in memory whole); the multipart
 * limit stops it at 10 MiB (one byte more is a 413, answered at once without reading on). Then the
 * contract is checked (another customer's, or a draft: 404), the type is detected from the stored content
 * (not an accepted kind: 415), and the metadata row and its audit event are written. Whatever is refused
 * leaves no file behind.
 */
export async function uploadCreative(
  deps: CreativeDeps,
  actor: SessionUser,
  parts: AsyncIterable<Multipart>,
): Promise<Creative> {
  let contractId: string | undefined;
  let stored: Stored | undefined;
  const discard = async () => {
    if (stored) await deps.storage.delete(stored.key);
    stored = undefined;
  };
  const customerId = actor.customerId;
  if (customerId) await checkUploadCaps(deps.db, deps.caps, actor, customerId, 1);
  try {
    for await (const part of parts) {
      if (part.type === 'field') {
        if (part.fieldname === 'contractId') contractId = String(part.value).trim();
        continue;
      }
      if (part.fieldname !== 'file' || stored) {
        part.file.resume(); // not ours to keep: read past it
        continue;
      }
      const hash = createHash('sha256');
      let size = 0;
      const file = part.file;
      // At the limit the parser drops the rest of the file but ends the stream only where the part ends, at the
      // end of the body: fail it now instead, so the answer does not wait for bytes nobody keeps.
      file.once('limit', () => file.destroy(new AppError('PAYLOAD_TOO_LARGE', CREATIVE_MESSAGES.tooLarge)));
      const counted = Readable.from(
        (async function* () {
          for await (const chunk of file) {
            hash.update(chunk as Buffer);
            size += (chunk as Buffer).length;
            yield chunk as Buffer;
          }
        })(),
      );
      const key = await deps.storage.put(counted);
      stored = { key, size, sha256: hash.digest('hex'), originalName: safeOriginalName(part.filename) };
      // The limit truncated the file: answer now, without reading the rest (the route closes the connection).
      if (file.truncated) throw new AppError('PAYLOAD_TOO_LARGE', CREATIVE_MESSAGES.tooLarge);
    }
  } catch (error) {
    await discard();
    throw uploadError(error);
  }

  try {
    if (!stored) throw badRequest(CREATIVE_MESSAGES.noFile, { file: [CREATIVE_MESSAGES.noFile] });
    if (!contractId) {
      throw badRequest(CREATIVE_MESSAGES.contractRequired, { contractId: [CREATIVE_MESSAGES.contractRequired] });
    }
    const contract = UUID.test(contractId) ? await selectContract(deps.db, contractId) : undefined;
    if (!contract || !clientOwnsContract(actor, contract)) throw notFound('Contract');
    const refusal = creativeUploadRefusal(contract.status);
    if (refusal) throw conflict(refusal);
    if (stored.size === 0) throw badRequest(CREATIVE_MESSAGES.empty, { file: [CREATIVE_MESSAGES.empty] });

    const { key } = stored;
    const type = await detectCreativeType(() => deps.storage.get(key));
    if (!type) throw new AppError('UNSUPPORTED_MEDIA_TYPE', CREATIVE_MESSAGES.notAccepted);

    const file = stored;
    const row = await deps.db.transaction(async (tx) => {
      await lockCustomerUploads(tx, contract.billToCustomerId);
      await checkUploadCaps(tx, deps.caps, actor, contract.billToCustomerId, file.size);
      const inserted = await insertCreative(tx, {
        contractId: contract.id,
        uploadedBy: actor.id,
        storageKey: file.key,
        originalName: file.originalName,
        kind: type.kind,
        mimeType: type.mimeType,
        extension: type.extension,
        sizeBytes: file.size,
        sha256: file.sha256,
      });
      await recordAudit(tx, {
        actorId: actor.id,
        action: 'creative.uploaded',
        entity: 'creative',
        entityId: inserted.id,
        after: { ...inserted, contractTitle: contract.title },
      });
      return inserted;
    });
    return toCreative(actor, {
      creative: row,
      contractTitle: contract.title,
      contractRef: contract,
      uploaderFirstName: actor.firstName,
      uploaderLastName: actor.lastName,
    });
  } catch (error) {
    await discard();
    throw error;
  }
}

/** The multipart parser's limits and failures, in the API's words. */
function uploadError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  switch ((error as { code?: string }).code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE', CREATIVE_MESSAGES.tooLarge);
    case 'FST_FILES_LIMIT':
      return badRequest(CREATIVE_MESSAGES.oneFile);
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
    case 'FST_PROTO_VIOLATION':
      return badRequest(CREATIVE_MESSAGES.notMultipart);
    case 'FST_REQ_PREMATURE_CLOSE':
      return badRequest(CREATIVE_MESSAGES.interrupted);
    default:
      if (error instanceof Error && /multipart|boundary|Unexpected end/i.test(error.message)) {
        return badRequest(CREATIVE_MESSAGES.notMultipart);
      }
      return error;
  }
}

/** The name as the client's computer called it: no folders, no control characters, at most 200 characters. */
function safeOriginalName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return (clean || 'creative').slice(0, 200);
}

// ---------------------------------------------------------------------------------------------------------
// Lists, download, delete
// ---------------------------------------------------------------------------------------------------------

/** GET /api/contracts/{id}/creatives: staff who may read the contract, or the client who owns it. */
export async function listContractCreatives(
  db: Db,
  actor: SessionUser,
  contractId: string,
  page: ListQuery,
): Promise<{ rows: Creative[]; total: number }> {
  const contract = await selectContract(db, contractId);
  if (!contract || !canSeeContract(actor, contract)) throw notFound('Contract');
  const result = await selectCreativePage(db, eq(creatives.contractId, contractId), page);
  return { total: result.total, rows: result.rows.map((row) => toCreative(actor, row)) };
}

/** GET /api/client/creatives: every creative of the (sent) contracts billed to the client's customer, newest first. */
export async function listClientCreatives(
  db: Db,
  actor: SessionUser,
  page: ListQuery,
): Promise<{ rows: Creative[]; total: number }> {
  if (!actor.customerId) return { rows: [], total: 0 };
  const where = and(eq(contracts.billToCustomerId, actor.customerId), ne(contracts.status, 'draft'))!;
  const result = await selectCreativePage(db, where, page);
  return { total: result.total, rows: result.rows.map((row) => toCreative(actor, row)) };
}

/** The creative and a stream of its bytes, for a caller who may see its contract (others: 404). */
export async function openCreative(
  deps: Pick<CreativeDeps, 'db' | 'storage'>,
  actor: SessionUser,
  id: string,
): Promise<{ creative: CreativeRow; stream: Readable }> {
  const found = await selectCreative(deps.db, id);
  if (!found || !canSeeContract(actor, found.contract)) throw notFound('Creative');
  try {
    return { creative: found.creative, stream: await deps.storage.get(found.creative.storageKey) };
  } catch (error) {
    if (error instanceof StoredObjectMissing) throw new AppError('NOT_FOUND', CREATIVE_MESSAGES.missingFile);
    throw error;
  }
}

/** DELETE /api/creatives/{id}: its uploader, or staff who may change the contract. */
export async function deleteCreative(deps: CreativeDeps, actor: SessionUser, id: string): Promise<void> {
  const found = await selectCreative(deps.db, id);
  if (!found || !canSeeContract(actor, found.contract)) throw notFound('Creative');
  if (!mayDelete(actor, found.contract, found.creative)) throw forbidden(CREATIVE_MESSAGES.deleteRefused);
  const deleted = await deps.db.transaction(async (tx) => {
    const row = await deleteCreativeRow(tx, id);
    if (!row) return undefined;
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'creative.deleted',
      entity: 'creative',
      entityId: id,
      before: row,
    });
    return row;
  });
  if (!deleted) throw notFound('Creative');
  // The bytes go once the row is gone; a failure here leaves an unreferenced file, never a broken row.
  await deps.storage.delete(deleted.storageKey).catch((err) => deps.log.warn({ err }, 'creative file not removed'));
}

type ContractRef = Pick<typeof contracts.$inferSelect, 'billToCustomerId' | 'status' | 'salesRepId'>;

function mayDelete(actor: SessionUser, contract: ContractRef, creative: CreativeRow): boolean {
  if (canWriteContract(actor, contract)) return true;
  return can(actor, 'creative:upload') && clientOwnsContract(actor, contract) && creative.uploadedBy === actor.id;
}

/** The API's view of a creative, with whether the caller may delete it. */
function toCreative(actor: SessionUser, row: CreativeListRow): Creative {
  const c = row.creative;
  return {
    id: c.id,
    contractId: c.contractId,
    contractTitle: row.contractTitle,
    originalName: c.originalName,
    kind: c.kind as CreativeKind,
    mimeType: c.mimeType,
    extension: c.extension,
    size: c.sizeBytes,
    sha256: c.sha256,
    uploadedAt: c.uploadedAt.toISOString(),
    uploadedBy: c.uploadedBy,
    uploadedByName:
      row.uploaderFirstName === null ? null : `${row.uploaderFirstName} ${row.uploaderLastName ?? ''}`.trim(),
    canDelete: mayDelete(actor, row.contractRef, c),
  };
}

/**
 * The download's file name: the original name, with the detected type's extension added when the name does
 * not already end with it (a file detected as a PDF never downloads as .exe).
 */
export function downloadName(creative: Pick<CreativeRow, 'originalName' | 'extension'>): string {
  const name = creative.originalName;
  const lower = name.toLowerCase();
  const extensions = creative.extension === 'jpg' ? ['jpg', 'jpeg'] : [creative.extension];
  return extensions.some((ext) => lower.endsWith(`.${ext}`)) ? name : `${name}.${creative.extension}`;
}

/** Content-Disposition for an attachment: an ASCII fallback name and the exact one (RFC 6266 / 5987). */
export function attachmentHeader(name: string): string {
  const ascii = name.replace(/[^A-Za-z0-9._ -]/g, '_').replace(/^[ .]+/, '') || 'creative';
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
