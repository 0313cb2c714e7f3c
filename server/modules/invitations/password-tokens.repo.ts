import { randomBytes } from 'node:crypto';
import { PASSWORD_LINK_HOURS } from '@shared/contracts/invitations';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { passwordTokens, users } from '../../db/schema';
import { hashToken } from '../sessions/sessions';

export type PasswordTokenPurpose = 'invite' | 'reset';
export type PasswordTokenRow = typeof passwordTokens.$inferSelect;

/**
 * A new single-use token for the user: 256 random bits (base64url), returned once to be put in the link;
 * only its SHA-256 is stored. It expires after PASSWORD_LINK_HOURS.
 */
export async function insertPasswordToken(
  tx: Db,
  input: { userId: string; purpose: PasswordTokenPurpose; createdBy: string | null },
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + PASSWORD_LINK_HOURS * 60 * 60 * 1000);
  await tx.insert(passwordTokens).values({
    tokenHash: hashToken(token),
    userId: input.userId,
    purpose: input.purpose,
    createdBy: input.createdBy,
    expiresAt,
  });
  return { token, expiresAt };
}

/** The stored token a link names (by its hash) with its user, whatever its state. */
export async function selectPasswordToken(db: Db, token: string) {
  const [row] = await db
    .select({ token: passwordTokens, user: users })
    .from(passwordTokens)
    .innerJoin(users, eq(users.id, passwordTokens.userId))
    .where(eq(passwordTokens.tokenHash, hashToken(token)))
    .limit(1);
  return row;
}

/**
 * Spends the token: one conditional UPDATE (unused and not expired); the row count decides, so of two
 * concurrent uses exactly one succeeds. Returns the spent row, or undefined when it could not be spent.
 */
export async function spendPasswordToken(tx: Db, token: string): Promise<PasswordTokenRow | undefined> {
  const [row] = await tx
    .update(passwordTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(passwordTokens.tokenHash, hashToken(token)),
        isNull(passwordTokens.usedAt),
        gt(passwordTokens.expiresAt, sql`now()`),
      ),
    )
    .returning();
  return row;
}

/** Once a password is set, the user's other outstanding links stop working too. */
export async function spendOtherTokens(tx: Db, userId: string): Promise<void> {
  await tx
    .update(passwordTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(passwordTokens.userId, userId), isNull(passwordTokens.usedAt)));
}
