import type { NotificationSettings } from '@shared/contracts/settings';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { appSettings, notificationPreferences, users } from '../../db/schema';
import { prepared } from '../../lib/prepared';

export type UserRow = typeof users.$inferSelect;

/** The stored value of a settings group; undefined when it was never saved. */
export async function selectSettingsValue(db: Db, key: string): Promise<unknown> {
  const [row] = await prepared(db, 'settings_value', prepareSettingsValue).execute({ key });
  return row?.value;
}

/** Read by every contract list and preview (the tax rule): built once per database. */
const prepareSettingsValue = (db: Db) =>
  db
    .select({ value: appSettings.value })
    .from(appSettings)
    .where(eq(appSettings.key, sql.placeholder('key')))
    .limit(1)
    .prepare('settings_value');

/** Saves a settings group's value, inserting its row the first time. */
export async function upsertSettings(tx: Db, key: string, value: unknown, actorId: string): Promise<void> {
  await tx
    .insert(appSettings)
    .values({ key, value, updatedBy: actorId })
    .onConflictDoUpdate({ target: appSettings.key, set: { value, updatedBy: actorId, updatedAt: new Date() } });
}

export async function selectNotificationPreferences(db: Db, userId: string) {
  const [row] = await db
    .select()
    .from(notificationPreferences)
    .where(eq(notificationPreferences.userId, userId))
    .limit(1);
  return row;
}

/** Saves a user's notification flags, inserting their row the first time. */
export async function upsertNotificationPreferences(
  db: Db,
  userId: string,
  value: NotificationSettings,
): Promise<void> {
  await db
    .insert(notificationPreferences)
    .values({ userId, ...value })
    .onConflictDoUpdate({ target: notificationPreferences.userId, set: { ...value, updatedAt: new Date() } });
}

/** The caller's own name and e-mail (and updatedAt). */
export async function updateProfileRow(
  tx: Db,
  userId: string,
  values: Pick<UserRow, 'firstName' | 'lastName' | 'email'>,
): Promise<UserRow> {
  const [row] = await tx
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(users.id, userId))
    .returning();
  return row;
}

export async function updatePasswordHash(tx: Db, userId: string, passwordHash: string): Promise<void> {
  await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, userId));
}
