import type { AccessLinkResponse, SetPasswordInput, SetPasswordResponse } from '@shared/contracts/invitations';
import { PASSWORD_LINK_MESSAGES } from '@shared/contracts/invitations';
import { can } from '@shared/permissions';
import type { Db } from '../../db/client';
import { recordAudit } from '../../lib/audit';
import { portalLink, setPasswordLink } from '../../lib/capability-links';
import { readCompanyProfile } from '../../lib/company-profile';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import type { Mailer } from '../../lib/mailer';
import { hashPassword } from '../../lib/password';
import { deleteUserSessions, type SessionUser } from '../sessions/sessions';
import { type AccountCustomer, ensureClientAccount, type UserRow } from '../users/client-accounts.service';
import { portalSignInEmail, setPasswordEmail } from './invitations.emails';
import { selectInvitedCustomer, selectUser, setActiveUserPassword } from './invitations.repo';
import { insertPasswordToken, selectPasswordToken, spendOtherTokens, spendPasswordToken } from './password-tokens.repo';

/** What sending a link needs: the database, the outbox, and the public origin links are built from. */
export type AccessDeps = { db: Db; mailer: Mailer; baseUrl: string };

export const portalUrl = portalLink;

export type PortalAccess = {
  user: UserRow;
  created: boolean;
  /** A fresh set-password link while the account has no password; null once it has one (a sign-in link is enough). */
  setPasswordUrl: string | null;
};

/**
 * The customer's portal account (created when missing, inside the caller's transaction) and, while its
 * owner has never set a password, a new single-use set-password link. Used by Send to Customer and the invite.
 */
export async function preparePortalAccess(
  tx: Db,
  input: { customer: AccountCustomer; actorId: string; baseUrl: string; reason: string },
): Promise<PortalAccess> {
  const { user, created } = await ensureClientAccount(tx, input);
  if (user.passwordSetAt) return { user, created, setPasswordUrl: null };
  const { token } = await insertPasswordToken(tx, { userId: user.id, purpose: 'invite', createdBy: input.actorId });
  return { user, created, setPasswordUrl: setPasswordLink(input.baseUrl, token) };
}

/** POST /api/customers/{id}/invite: creates the customer's account when it has none and e-mails the link. */
export async function inviteCustomer(
  deps: AccessDeps,
  actor: SessionUser,
  customerId: string,
): Promise<AccessLinkResponse> {
  if (!can(actor, 'customer:read:any')) throw notFound('Customer');
  const customer = await selectInvitedCustomer(deps.db, customerId);
  if (!customer) throw notFound('Customer');

  const result = await deps.db.transaction(async (tx) => {
    const access = await preparePortalAccess(tx, {
      customer,
      actorId: actor.id,
      baseUrl: deps.baseUrl,
      reason: 'client portal invitation',
    });
    const recipient = { name: customer.name, contactPerson: customer.contactPerson, email: access.user.email };
    const mail = { recipient, entity: 'customer', entityId: customer.id, sender: await readCompanyProfile(tx) };
    await deps.mailer.enqueue(
      tx,
      access.setPasswordUrl
        ? setPasswordEmail({ ...mail, purpose: 'invite', url: access.setPasswordUrl })
        : portalSignInEmail({ ...mail, portalUrl: portalUrl(deps.baseUrl) }),
    );
    const link = access.setPasswordUrl ? 'set-password' : 'sign-in';
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'customer.portal_invited',
      entity: 'customer',
      entityId: customer.id,
      after: { userId: access.user.id, email: access.user.email, accountCreated: access.created, link },
    });
    return { access, link } as const;
  });
  deps.mailer.kick(deps.db);
  const { access, link } = result;
  return {
    message:
      link === 'set-password'
        ? `A set-password link was sent to ${access.user.email}`
        : `A link to the client portal was sent to ${access.user.email}`,
    userId: access.user.id,
    email: access.user.email,
    accountCreated: access.created,
    link,
  };
}

/** POST /api/users/{id}/send-password-reset (admin-level; only a super admin for a super admin account). */
export async function sendPasswordReset(
  deps: AccessDeps,
  actor: SessionUser,
  userId: string,
): Promise<AccessLinkResponse> {
  const user = await selectUser(deps.db, userId);
  if (!user) throw notFound('User');
  if (user.role === 'super_admin' && !can(actor, 'user:manage-super-admin')) {
    throw forbidden('Only a super admin can send a password reset to a super admin account');
  }
  if (!user.isActive) throw conflict('This account is deactivated. Reactivate it before sending a password reset.');

  await deps.db.transaction(async (tx) => {
    const { token } = await insertPasswordToken(tx, { userId: user.id, purpose: 'reset', createdBy: actor.id });
    await deps.mailer.enqueue(
      tx,
      setPasswordEmail({
        // Greeted by first name, like a customer's contact person.
        recipient: { name: user.firstName.trim() || `${user.firstName} ${user.lastName}`.trim(), email: user.email },
        purpose: 'reset',
        url: setPasswordLink(deps.baseUrl, token),
        entity: 'user',
        entityId: user.id,
        // A client's account is a customer's: its e-mail comes from the company; staff's needs no footer.
        sender: user.role === 'client' ? await readCompanyProfile(tx) : null,
      }),
    );
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'user.password_reset_sent',
      entity: 'user',
      entityId: user.id,
      after: { email: user.email },
    });
  });
  deps.mailer.kick(deps.db);
  return {
    message: `A password reset link was sent to ${user.email}`,
    userId: user.id,
    email: user.email,
    accountCreated: false,
    link: 'set-password',
  };
}

/**
 * POST /api/auth/set-password: sets the password of the link's account, spends the link (and the user's
 * other outstanding links) and ends every session of the user. It signs nobody in.
 */
export async function setPasswordWithToken(db: Db, input: SetPasswordInput): Promise<SetPasswordResponse> {
  // Cheap checks first: an unknown, used or expired link costs no password hashing.
  const found = await selectPasswordToken(db, input.token);
  if (!found) throw badRequest(PASSWORD_LINK_MESSAGES.invalid);
  if (found.token.usedAt) throw badRequest(PASSWORD_LINK_MESSAGES.used);
  if (found.token.expiresAt.getTime() <= Date.now()) throw badRequest(PASSWORD_LINK_MESSAGES.expired);
  if (!found.user.isActive) throw new AppError('FORBIDDEN', PASSWORD_LINK_MESSAGES.deactivated);

  const passwordHash = await hashPassword(input.password);
  await db.transaction(async (tx) => {
    // The conditional update decides: of two uses at once, one spends the link and the other is refused.
    const spent = await spendPasswordToken(tx, input.token);
    if (!spent) throw badRequest(PASSWORD_LINK_MESSAGES.used);
    const updated = await setActiveUserPassword(tx, spent.userId, passwordHash);
    if (!updated) throw new AppError('FORBIDDEN', PASSWORD_LINK_MESSAGES.deactivated);
    await spendOtherTokens(tx, spent.userId);
    await deleteUserSessions(tx, spent.userId);
    await recordAudit(tx, {
      actorId: spent.userId,
      action: 'user.password_set',
      entity: 'user',
      entityId: spent.userId,
      after: { via: spent.purpose === 'invite' ? 'invitation link' : 'password reset link' },
    });
  });
  return { message: PASSWORD_LINK_MESSAGES.done, email: found.user.email };
}
