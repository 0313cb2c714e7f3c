import { randomUUID } from 'node:crypto';
import type { Role } from '@shared/roles';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { hashPassword } from '../lib/password';

export const TEST_PASSWORD = 'secret123';
let passwordHash: Promise<string> | undefined;

export type TestUser = typeof users.$inferSelect & { password: string };

/** A user with password TEST_PASSWORD; scrypt runs once per test file, not once per user. */
export async function createTestUser(
  db: Db,
  overrides: Partial<typeof users.$inferInsert> & { role?: Role } = {},
): Promise<TestUser> {
  passwordHash ??= hashPassword(TEST_PASSWORD);
  const suffix = randomUUID().slice(0, 8);
  const [row] = await db
    .insert(users)
    .values({
      email: `${overrides.role ?? 'sales'}-${suffix}@example.test`,
      firstName: 'Test',
      lastName: `User ${suffix}`,
      role: 'sales',
      passwordHash: await passwordHash,
      ...overrides,
    })
    .returning();
  return { ...row, password: TEST_PASSWORD };
}
