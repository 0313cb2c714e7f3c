import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Multipart } from '@fastify/multipart';
import {
  type AccountingSettings,
  accountingSettingsSchema,
  DEFAULT_ACCOUNTING_SETTINGS,
} from '@shared/contracts/accounting';
import type { User } from '@shared/contracts/auth';
import {
  COMPANY_MESSAGES,
  type CompanyLogoInfo,
  type CompanyProfile,
  LOGO_CONTENT_TYPES,
  type LogoContentType,
  MAX_LOGO_BYTES,
  MAX_LOGO_PIXELS,
} from '@shared/contracts/company-vocabulary';
import { DEFAULT_PIPELINE_RULES, type PipelineRules, pipelineRulesSchema } from '@shared/contracts/deals';
import {
  type AgencySettings,
  agencySettingsSchema,
  type ContractSettings,
  contractSettingsSchema,
  DEFAULT_AGENCY_SETTINGS,
  DEFAULT_CONTRACT_SETTINGS,
  DEFAULT_TAX_SETTINGS,
  type NotificationSettings,
  type PasswordChangeInput,
  type ProfileInput,
  type TaxSettings,
  taxSettingsSchema,
} from '@shared/contracts/settings';
import { fileTypeFromBuffer } from 'file-type';
import type { Db } from '../../db/client';
import { recordAudit } from '../../lib/audit';
import {
  COMPANY_LOGO_SETTINGS_KEY,
  COMPANY_SETTINGS_KEY,
  type CompanyLogo,
  readCompanyLogo,
  readCompanyProfile,
  readLogoBytes,
} from '../../lib/company-profile';
import { AppError, addFieldError, badRequest, type FieldErrors, invalidFields } from '../../lib/errors';
import { hashPassword, verifyPassword } from '../../lib/password';
import { printableImageSize } from '../../lib/pdf';
import type { Storage } from '../../lib/storage';
import { LOGIN_THROTTLE, markGuessRight, reservePasswordGuess } from '../auth/auth.service';
import { deleteUserSessions } from '../sessions/sessions';
import { toUser } from '../users/users.dto';
import { assertEmailFree } from '../users/users.service';
import {
  selectNotificationPreferences,
  selectSettingsValue,
  type UserRow,
  updatePasswordHash,
  updateProfileRow,
  upsertNotificationPreferences,
  upsertSettings,
} from './settings.repo';

type Actor = UserRow;

const GROUPS = {
  tax: { schema: taxSettingsSchema, defaults: DEFAULT_TAX_SETTINGS },
  contracts: { schema: contractSettingsSchema, defaults: DEFAULT_CONTRACT_SETTINGS },
  /** The accounting export's account codes (modules/accounting: its own routes and the Settings tab). */
  accounting: { schema: accountingSettingsSchema, defaults: DEFAULT_ACCOUNTING_SETTINGS },
  /** The pipeline's lost reasons and rottenDays (modules/deals keeps the stages; the Settings tab "Pipeline"). */
  pipeline: { schema: pipelineRulesSchema, defaults: DEFAULT_PIPELINE_RULES },
  /** The monthly agency statements on or off (the job 'agency-statements'; product.md section 20). */
  agencies: { schema: agencySettingsSchema, defaults: DEFAULT_AGENCY_SETTINGS },
} as const;
type Group = keyof typeof GROUPS;
type GroupValue<G extends Group> = G extends 'tax'
  ? TaxSettings
  : G extends 'contracts'
    ? ContractSettings
    : G extends 'pipeline'
      ? PipelineRules
      : G extends 'agencies'
        ? AgencySettings
        : AccountingSettings;

/** A settings group, its stored value merged over the defaults (a group never saved reads as its defaults). */
export async function getSettings<G extends Group>(db: Db, group: G): Promise<GroupValue<G>> {
  const stored = await selectSettingsValue(db, group);
  const merged = { ...GROUPS[group].defaults, ...((stored as object) ?? {}) };
  const parsed = GROUPS[group].schema.safeParse(merged);
  return (parsed.success ? parsed.data : GROUPS[group].defaults) as GroupValue<G>;
}

export async function saveSettings<G extends Group>(db: Db, actor: Actor, group: G, value: GroupValue<G>) {
  const before = await getSettings(db, group);
  await db.transaction(async (tx) => {
    await upsertSettings(tx, group, value, actor.id);
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'settings.updated',
      entity: 'settings',
      entityId: group,
      before,
      after: value,
    });
  });
  return value;
}

/**
 * PUT /api/settings/contracts: the fields sent over the saved ones (the dunning days may be left out), then
 * the rule between them (the second reminder after the first): 400 with the field's message otherwise.
 */
export async function saveContractSettings(db: Db, actor: Actor, input: Partial<ContractSettings>) {
  const merged = { ...(await getSettings(db, 'contracts')), ...input };
  const parsed = contractSettingsSchema.safeParse(merged);
  if (!parsed.success) {
    const fieldErrors: FieldErrors = {};
    for (const issue of parsed.error.issues) addFieldError(fieldErrors, issue.path.join('.'), issue.message);
    throw invalidFields(fieldErrors, parsed.error.issues[0]?.message ?? 'Invalid contract settings');
  }
  return saveSettings(db, actor, 'contracts', parsed.data);
}

// ---------------------------------------------------------------------------------------------------------
// The company profile (Settings, "Company"; product.md section 17, decision 051)
// ---------------------------------------------------------------------------------------------------------

/** The profile documents and customer e-mails print: the saved one, or the legal name alone before that. */
export const getCompanyProfile = readCompanyProfile;

/** Saves the profile (already valid by companyProfileSchema) with an audit event of what changed. */
export async function saveCompanyProfile(db: Db, actor: Actor, value: CompanyProfile): Promise<CompanyProfile> {
  const before = await readCompanyProfile(db);
  await db.transaction(async (tx) => {
    await upsertSettings(tx, COMPANY_SETTINGS_KEY, value, actor.id);
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'settings.updated',
      entity: 'settings',
      entityId: COMPANY_SETTINGS_KEY,
      before,
      after: value,
    });
  });
  return value;
}

export type LogoDeps = { db: Db; storage: Storage };

const logoFileError = (message: string) => badRequest(message, { file: [message] });

/**
 * The file of a logo upload (a multipart form with one `file`), read into memory up to MAX_LOGO_BYTES: a
 * larger one is refused as soon as the limit is passed, without reading the rest.
 */
export async function readLogoUpload(parts: AsyncIterable<Multipart>): Promise<Buffer> {
  let bytes: Buffer | null = null;
  try {
    for await (const part of parts) {
      if (part.type === 'field') continue;
      if (part.fieldname !== 'file' || bytes) {
        part.file.resume();
        continue;
      }
      const file = part.file;
      file.once('limit', () => file.destroy(logoFileError(COMPANY_MESSAGES.logoTooLarge)));
      const chunks: Buffer[] = [];
      for await (const chunk of file) chunks.push(chunk as Buffer);
      if (file.truncated) throw logoFileError(COMPANY_MESSAGES.logoTooLarge);
      bytes = Buffer.concat(chunks);
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw logoFileError(COMPANY_MESSAGES.logoTooLarge);
    if (
      code?.startsWith('FST_') ||
      (error instanceof Error && /multipart|boundary|Unexpected end/i.test(error.message))
    )
      throw logoFileError(COMPANY_MESSAGES.logoMissing);
    throw error;
  }
  if (!bytes || bytes.length === 0) throw logoFileError(COMPANY_MESSAGES.logoMissing);
  return bytes;
}

/**
 * A new logo: a PNG or JPEG by its content (file-type reads the signature; the file's name and the type the
 * browser sent play no part), at most MAX_LOGO_BYTES and MAX_LOGO_PIXELS a side, and one the documents can
 * print; anything else is 400 and nothing is kept. It is stored as an object of its own and recorded with an
 * audit event; the previous logo's object stays, since insertion orders sent with it still print it.
 */
export async function saveCompanyLogo(deps: LogoDeps, actor: Actor, bytes: Buffer): Promise<CompanyLogoInfo> {
  if (bytes.length > MAX_LOGO_BYTES) throw logoFileError(COMPANY_MESSAGES.logoTooLarge);
  const detected = await fileTypeFromBuffer(bytes);
  const contentType = detected?.mime as LogoContentType | undefined;
  if (!contentType || !LOGO_CONTENT_TYPES.includes(contentType)) throw logoFileError(COMPANY_MESSAGES.logoType);
  const size = printableImageSize(bytes, MAX_LOGO_PIXELS);
  if (!size) {
    const fits = printableImageSize(bytes, Number.MAX_SAFE_INTEGER);
    throw logoFileError(fits ? COMPANY_MESSAGES.logoDimensions : COMPANY_MESSAGES.logoUnreadable);
  }
  const before = await readCompanyLogo(deps.db);
  const storageKey = await deps.storage.put(Readable.from([bytes]));
  const logo: CompanyLogo = {
    storageKey,
    contentType,
    bytes: bytes.length,
    width: size.width,
    height: size.height,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    uploadedAt: new Date().toISOString(),
  };
  try {
    await deps.db.transaction(async (tx) => {
      await upsertSettings(tx, COMPANY_LOGO_SETTINGS_KEY, logo, actor.id);
      await recordAudit(tx, {
        actorId: actor.id,
        action: 'settings.logo_updated',
        entity: 'settings',
        entityId: COMPANY_SETTINGS_KEY,
        before: before && logoInfo(before),
        after: logoInfo(logo),
      });
    });
  } catch (error) {
    await deps.storage.delete(storageKey).catch(() => {});
    throw error;
  }
  return logoInfo(logo);
}

/** The current logo's record and bytes; 404 before one is uploaded. */
export async function openCompanyLogo(deps: LogoDeps): Promise<{ logo: CompanyLogoInfo; bytes: Buffer }> {
  const logo = await readCompanyLogo(deps.db);
  const bytes = logo && (await readLogoBytes(deps.storage, logo));
  if (!logo || !bytes) throw new AppError('NOT_FOUND', COMPANY_MESSAGES.noLogo);
  return { logo: logoInfo(logo), bytes };
}

/** A logo as the API shows it: everything but its storage key. */
function logoInfo(logo: CompanyLogo): CompanyLogoInfo {
  return {
    contentType: logo.contentType,
    bytes: logo.bytes,
    width: logo.width,
    height: logo.height,
    sha256: logo.sha256,
    uploadedAt: logo.uploadedAt,
  };
}

export async function getNotificationSettings(db: Db, userId: string): Promise<NotificationSettings> {
  const row = await selectNotificationPreferences(db, userId);
  return pickFlags(row ?? DEFAULT_NOTIFICATIONS);
}

export async function saveNotificationSettings(db: Db, userId: string, value: NotificationSettings) {
  await upsertNotificationPreferences(db, userId, value);
  return value;
}

export async function updateProfile(db: Db, actor: Actor, input: ProfileInput): Promise<User> {
  if (input.email.toLowerCase() !== actor.email.toLowerCase()) await assertEmailFree(db, input.email, actor.id);
  return db.transaction(async (tx) => {
    const row = await updateProfileRow(tx, actor.id, {
      firstName: input.firstName,
      lastName: input.lastName,
      email: input.email.toLowerCase(),
    });
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'profile.updated',
      entity: 'user',
      entityId: actor.id,
      before: toUser(actor),
      after: toUser(row),
    });
    return toUser(row);
  });
}

/**
 * Changes the caller's password after checking the current one; other sessions are signed out. Guesses of
 * the current password count against the account and the address like failed sign-ins (a stolen session
 * cannot try passwords any faster than the login form can).
 */
export async function changePassword(
  db: Db,
  actor: Actor,
  sessionId: string,
  input: PasswordChangeInput,
  meta: { ip: string },
) {
  const guess = await reservePasswordGuess(
    db,
    { email: actor.email.toLowerCase(), ip: meta.ip },
    `Too many wrong passwords. Please wait ${LOGIN_THROTTLE.windowMinutes} minutes and try again.`,
  );
  if (!(await verifyPassword(input.currentPassword, actor.passwordHash))) {
    throw new AppError('VALIDATION', 'Current password is incorrect', {
      fieldErrors: { currentPassword: ['Current password is incorrect'] },
    });
  }
  await markGuessRight(db, guess);
  const passwordHash = await hashPassword(input.newPassword);
  await db.transaction(async (tx) => {
    await updatePasswordHash(tx, actor.id, passwordHash);
    await deleteUserSessions(tx, actor.id, sessionId);
    await recordAudit(tx, { actorId: actor.id, action: 'password.changed', entity: 'user', entityId: actor.id });
  });
}

const DEFAULT_NOTIFICATIONS: NotificationSettings = {
  emailContractUpdates: true,
  emailPaymentNotifications: true,
  emailCommissionAlerts: true,
  emailSystemMaintenance: false,
  emailAccountSecurity: true,
};

function pickFlags(row: NotificationSettings): NotificationSettings {
  return {
    emailContractUpdates: row.emailContractUpdates,
    emailPaymentNotifications: row.emailPaymentNotifications,
    emailCommissionAlerts: row.emailCommissionAlerts,
    emailSystemMaintenance: row.emailSystemMaintenance,
    emailAccountSecurity: row.emailAccountSecurity,
  };
}
