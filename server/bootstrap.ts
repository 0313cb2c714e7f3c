import { randomBytes } from 'node:crypto';
import { count } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Db } from './db/client';
import { users } from './db/schema';
import { recordAudit } from './lib/audit';
import { hashPassword } from './lib/password';

/**
 * First start on an empty database: one super_admin, from ADMIN_EMAIL / ADMIN_PASSWORD when set,
 * otherwise admin@localhost with a random password printed once.
 */
export async function ensureFirstAdmin(db: Db, config: Config, log: FastifyBaseLogger): Promise<void> {
  const [{ n }] = await db.select({ n: count() }).from(users);
  if (n > 0) return;
  const email = (config.ADMIN_EMAIL ?? 'admin@localhost').toLowerCase();
  const password = config.ADMIN_PASSWORD ?? randomBytes(12).toString('base64url');
  const [row] = await db
    .insert(users)
    .values({
      email,
      passwordHash: await hashPassword(password),
      firstName: 'System',
      lastName: 'Administrator',
      role: 'super_admin',
      commissionRateBp: 0,
    })
    .onConflictDoNothing()
    .returning({ id: users.id });
  if (!row) return;
  await recordAudit(db, {
    actorId: null,
    action: 'user.created',
    entity: 'user',
    entityId: row.id,
    after: { email, role: 'super_admin' },
  });
  if (config.ADMIN_PASSWORD) {
    log.info({ email }, 'Created the first super admin account from ADMIN_EMAIL / ADMIN_PASSWORD');
  } else {
    // Printed once, on purpose: this is the only way to learn the generated password.
    console.log(
      `\n  First super admin created.\n    E-mail:   ${email}\n    Password: ${password}\n  Change it under Settings > Security after signing in.\n`,
    );
  }
}
