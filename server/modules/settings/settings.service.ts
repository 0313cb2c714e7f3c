import {
  type AccountingSettings,
  accountingSettingsSchema,
  DEFAULT_ACCOUNTING_SETTINGS,
} from '@shared/contracts/accounting';
import type { User } from '@shared/contracts/auth';
import {
  type ContractSettings,
  contractSettingsSchema,
  DEFAULT_CONTRACT_SETTINGS,
  DEFAULT_TAX_SETTINGS,
  type NotificationSettings,
  type PasswordChangeInput,
  type ProfileInput,
  type TaxSettings,
  taxSettingsSchema,
} from '@shared/contracts/settings';
import type { Db } from '../../db/client';
import { recordAudit } from '../../lib/audit';
import { AppError } from '../../lib/errors';
import { hashPassword, verifyPassword } from '../../lib/password';
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
} as const;
type Group = keyof typeof GROUPS;
type GroupValue<G extends Group> = G extends 'tax'
  ? TaxSettings
  : G extends 'contracts'
    ? ContractSettings
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
    const fieldErrors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path.join('.');
      fieldErrors[field] = [...(fieldErrors[field] ?? []), issue.message];
    }
    throw new AppError('VALIDATION', parsed.error.issues[0]?.message ?? 'Invalid contract settings', { fieldErrors });
  }
  return saveSettings(db, actor, 'contracts', parsed.data);
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
