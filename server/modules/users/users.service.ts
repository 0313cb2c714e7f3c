import type { User } from '@shared/contracts/auth';
import type { ListQuery } from '@shared/contracts/common';
import type { CreateUserInput, UpdateUserInput } from '@shared/contracts/users';
import { can } from '@shared/permissions';
import type { Role } from '@shared/roles';
import { and, asc, count, eq, ilike, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { contracts, customers, users } from '../../db/schema';
import { recordAudit } from '../../lib/audit';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import { likePattern } from '../../lib/http';
import { hashPassword } from '../../lib/password';
import { deleteUserSessions } from '../auth/sessions';
import { rateToBasisPoints, toUser } from './users.dto';

type Actor = typeof users.$inferSelect;

/**
 * Who an actor may list and view: user managers everyone; a sales manager (user:read) the team, that is
 * every staff account but no client accounts (product.md section 3).
 */
function visibleTo(actor: Pick<Actor, 'role'>) {
  return can(actor, 'user:manage') ? undefined : ne(users.role, 'client');
}

export async function listUsers(
  db: Db,
  actor: Pick<Actor, 'role'>,
  query: ListQuery & { role?: Role },
): Promise<{ rows: User[]; total: number }> {
  const conditions = [visibleTo(actor)];
  if (query.q) {
    const pattern = likePattern(query.q);
    conditions.push(
      or(
        ilike(users.firstName, pattern),
        ilike(users.lastName, pattern),
        ilike(users.email, pattern),
        sql`lower(${users.firstName} || ' ' || ${users.lastName}) like ${pattern}`,
      ),
    );
  }
  if (query.role) conditions.push(eq(users.role, query.role));
  const where = and(...conditions);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(users)
      .where(where)
      .orderBy(asc(users.firstName), asc(users.lastName))
      .limit(query.limit)
      .offset(query.offset),
    db.select({ total: count() }).from(users).where(where),
  ]);
  return { rows: rows.map(toUser), total };
}

export async function getUser(db: Db, actor: Pick<Actor, 'role'>, id: string): Promise<User> {
  const row = await findOrThrow(db, id);
  if (!can(actor, 'user:manage') && row.role === 'client') throw notFound('User not found');
  return toUser(row);
}

export async function createUser(db: Db, actor: Actor, input: CreateUserInput & { password: string }): Promise<User> {
  if (input.role === 'super_admin' && !can(actor, 'user:manage-super-admin')) {
    throw forbidden('Only a super admin can create super admin accounts');
  }
  await assertEmailFree(db, input.email);
  if (input.customerId) await assertCustomerExists(db, input.customerId);
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(users)
      .values({
        firstName: input.firstName,
        lastName: input.lastName,
        email: input.email.toLowerCase(),
        passwordHash,
        role: input.role ?? 'sales',
        commissionRateBp: rateToBasisPoints(input.commissionRate ?? 0.05),
        isActive: input.isActive ?? true,
        customerId: input.customerId ?? null,
      })
      .returning();
    const user = toUser(row);
    await recordAudit(tx, { actorId: actor.id, action: 'user.created', entity: 'user', entityId: row.id, after: user });
    return user;
  });
}

export async function updateUser(
  db: Db,
  actor: Actor,
  id: string,
  input: UpdateUserInput,
  actorSessionId?: string,
): Promise<User> {
  const existing = await findOrThrow(db, id);
  guardSuperAdmin(actor, existing.role, input.role);
  if (existing.id === actor.id) {
    if (input.isActive === false) throw conflict('You cannot deactivate your own account');
    if (input.role && input.role !== existing.role) throw conflict('You cannot change your own role');
  }
  if (input.email && input.email.toLowerCase() !== existing.email.toLowerCase()) await assertEmailFree(db, input.email);
  if (input.customerId) await assertCustomerExists(db, input.customerId);
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;

  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(users)
      .set({
        firstName: input.firstName,
        lastName: input.lastName,
        email: input.email?.toLowerCase(),
        role: input.role,
        commissionRateBp: input.commissionRate === undefined ? undefined : rateToBasisPoints(input.commissionRate),
        isActive: input.isActive,
        customerId: input.customerId,
        passwordHash,
        passwordSetAt: passwordHash ? new Date() : undefined,
        updatedAt: new Date(),
      })
      .where(eq(users.id, id))
      .returning();
    // Deactivation or a new password signs the user out everywhere, except the admin's own current session.
    if (input.isActive === false || passwordHash)
      await deleteUserSessions(tx, id, id === actor.id ? actorSessionId : undefined);
    const user = toUser(row);
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'user.updated',
      entity: 'user',
      entityId: id,
      before: toUser(existing),
      after: { ...user, ...(passwordHash ? { passwordChanged: true } : {}) },
    });
    return user;
  });
}

export async function deleteUser(db: Db, actor: Actor, id: string): Promise<void> {
  const existing = await findOrThrow(db, id);
  if (existing.id === actor.id) throw forbidden('You cannot delete your own account');
  guardSuperAdmin(actor, existing.role);
  const [{ n }] = await db.select({ n: count() }).from(contracts).where(eq(contracts.salesRepId, id));
  if (n > 0) {
    throw conflict(`This user is the sales rep of ${n} contract${n === 1 ? '' : 's'}. Deactivate the account instead.`);
  }
  await db.transaction(async (tx) => {
    await tx.delete(users).where(eq(users.id, id));
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'user.deleted',
      entity: 'user',
      entityId: id,
      before: toUser(existing),
    });
  });
}

async function findOrThrow(db: Db, id: string) {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  if (!row) throw notFound('User');
  return row;
}

function guardSuperAdmin(actor: Actor, targetRole: string, newRole?: string) {
  if ((targetRole === 'super_admin' || newRole === 'super_admin') && !can(actor, 'user:manage-super-admin')) {
    throw forbidden('Only a super admin can change super admin accounts');
  }
}

async function assertCustomerExists(db: Db, customerId: string): Promise<void> {
  const [row] = await db.select({ id: customers.id }).from(customers).where(eq(customers.id, customerId)).limit(1);
  if (!row)
    throw badRequest('The chosen customer does not exist', { customerId: ['The chosen customer does not exist'] });
}

export async function assertEmailFree(db: Db, email: string, exceptUserId?: string): Promise<void> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .limit(1);
  if (row && row.id !== exceptUserId) throw new AppError('CONFLICT', 'A user with this email already exists');
}
