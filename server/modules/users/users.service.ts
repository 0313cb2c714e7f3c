import type { User } from '@shared/contracts/auth';
import type { ListQuery } from '@shared/contracts/common';
import type { CreateUserInput, UpdateUserInput } from '@shared/contracts/users';
import { can } from '@shared/permissions';
import { fractionToBasisPoints } from '@shared/rates';
import type { Role } from '@shared/roles';
import type { Db } from '../../db/client';
import { recordAudit } from '../../lib/audit';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import { hashPassword } from '../../lib/password';
import { deleteUserSessions } from '../sessions/sessions';
import { toUser } from './users.dto';
import {
  countContractsOfRep,
  customerExists,
  deleteUserRow,
  insertUser,
  selectUser,
  selectUserByEmail,
  selectUserIdByEmail,
  selectUserPage,
  type UserRow,
  updateUserRow,
} from './users.repo';

type Actor = UserRow;

/**
 * Who an actor may list and view: user managers everyone; a sales manager (user:read) the team, that is
 * every staff account but no client accounts (product.md section 3).
 */
function seesClients(actor: Pick<Actor, 'role'>): boolean {
  return can(actor, 'user:manage');
}

export async function listUsers(
  db: Db,
  actor: Pick<Actor, 'role'>,
  query: ListQuery & { role?: Role },
): Promise<{ rows: User[]; total: number }> {
  const { rows, total } = await selectUserPage(db, {
    includeClients: seesClients(actor),
    q: query.q,
    role: query.role,
    limit: query.limit,
    offset: query.offset,
  });
  return { rows: rows.map(toUser), total };
}

export async function getUser(db: Db, actor: Pick<Actor, 'role'>, id: string): Promise<User> {
  const row = await findOrThrow(db, id);
  if (!seesClients(actor) && row.role === 'client') throw notFound('User not found');
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
    const row = await insertUser(tx, {
      firstName: input.firstName,
      lastName: input.lastName,
      email: input.email.toLowerCase(),
      passwordHash,
      role: input.role ?? 'sales',
      commissionRateBp: fractionToBasisPoints(input.commissionRate ?? 0.05),
      isActive: input.isActive ?? true,
      customerId: input.customerId ?? null,
    });
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
    const row = await updateUserRow(tx, id, {
      firstName: input.firstName,
      lastName: input.lastName,
      email: input.email?.toLowerCase(),
      role: input.role,
      commissionRateBp: input.commissionRate === undefined ? undefined : fractionToBasisPoints(input.commissionRate),
      isActive: input.isActive,
      customerId: input.customerId,
      passwordHash,
      passwordSetAt: passwordHash ? new Date() : undefined,
    });
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
  const n = await countContractsOfRep(db, id);
  if (n > 0) {
    throw conflict(`This user is the sales rep of ${n} contract${n === 1 ? '' : 's'}. Deactivate the account instead.`);
  }
  await db.transaction(async (tx) => {
    await deleteUserRow(tx, id);
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
  const row = await selectUser(db, id);
  if (!row) throw notFound('User');
  return row;
}

function guardSuperAdmin(actor: Actor, targetRole: string, newRole?: string) {
  if ((targetRole === 'super_admin' || newRole === 'super_admin') && !can(actor, 'user:manage-super-admin')) {
    throw forbidden('Only a super admin can change super admin accounts');
  }
}

async function assertCustomerExists(db: Db, customerId: string): Promise<void> {
  if (!(await customerExists(db, customerId)))
    throw badRequest('The chosen customer does not exist', { customerId: ['The chosen customer does not exist'] });
}

export async function assertEmailFree(db: Db, email: string, exceptUserId?: string): Promise<void> {
  const holderId = await selectUserIdByEmail(db, email.toLowerCase());
  if (holderId && holderId !== exceptUserId) throw new AppError('CONFLICT', 'A user with this email already exists');
}

/** The account signing in with this e-mail, compared case-insensitively. */
export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return selectUserByEmail(db, email.toLowerCase());
}
