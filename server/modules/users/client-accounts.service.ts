import type { Db } from '../../db/client';
import type { customers } from '../../db/schema';
import { recordAudit } from '../../lib/audit';
import { conflict } from '../../lib/errors';
import { unusablePasswordHash } from '../../lib/password';
import { toUser } from './users.dto';
import { insertUserUnlessTaken, selectLinkedClient, selectUserByEmail, type UserRow } from './users.repo';

export type { UserRow };
export { selectLinkedClient };
export type AccountCustomer = Pick<typeof customers.$inferSelect, 'id' | 'name' | 'email' | 'contactPerson'>;

/**
 * The customer's client-portal account, created when it has none: linked to the customer, named after its
 * contact person (or its name), signed in with the customer's e-mail, and without a usable password until
 * its owner sets one from a set-password link (passwordSetAt stays null until then).
 *
 * Safe under concurrency: the insert is INSERT ... ON CONFLICT DO NOTHING on the unique e-mail index, so
 * two requests that send to the same customer at once create one account; the loser reads the winner's.
 * Refused (409) when the account is deactivated, or when the e-mail belongs to another account.
 */
export async function ensureClientAccount(
  tx: Db,
  input: { customer: AccountCustomer; actorId: string; reason: string },
): Promise<{ user: UserRow; created: boolean }> {
  const { customer } = input;
  const linked = await selectLinkedClient(tx, customer.id);
  if (linked) return { user: assertUsable(linked), created: false };

  const email = customer.email.trim().toLowerCase();
  const [firstName, ...rest] = (customer.contactPerson?.trim() || customer.name).split(/\s+/);
  const inserted = await insertUserUnlessTaken(tx, {
    email,
    passwordHash: unusablePasswordHash(),
    passwordSetAt: null,
    firstName,
    lastName: rest.join(' '),
    role: 'client',
    commissionRateBp: 0,
    customerId: customer.id,
  });
  if (inserted) {
    await recordAudit(tx, {
      actorId: input.actorId,
      action: 'user.created',
      entity: 'user',
      entityId: inserted.id,
      after: { ...toUser(inserted), reason: input.reason },
    });
    return { user: inserted, created: true };
  }

  // Someone holds the e-mail: the same customer's account created a moment ago by a concurrent request,
  // or another account altogether.
  const holder = await selectUserByEmail(tx, email);
  if (holder && holder.role === 'client' && holder.customerId === customer.id) {
    return { user: assertUsable(holder), created: false };
  }
  throw emailTaken(customer);
}

function emailTaken(customer: AccountCustomer) {
  return conflict(
    `The customer's e-mail (${customer.email}) already belongs to another account, so no client portal account can be created for it. Link that account to the customer or change the customer's e-mail first.`,
  );
}

/**
 * The refusals of ensureClientAccount, checked ahead of a transaction (a cheap early 409 before any lock is
 * taken); ensureClientAccount checks them again inside it.
 */
export async function assertClientAccountPossible(db: Db, customer: AccountCustomer): Promise<void> {
  const linked = await selectLinkedClient(db, customer.id);
  if (linked) {
    assertUsable(linked);
    return;
  }
  const holder = await selectUserByEmail(db, customer.email.trim().toLowerCase());
  if (!holder) return;
  // The customer's own account, created by a concurrent request between the two reads above.
  if (holder.role === 'client' && holder.customerId === customer.id) {
    assertUsable(holder);
    return;
  }
  throw emailTaken(customer);
}

function assertUsable(user: UserRow): UserRow {
  if (!user.isActive) {
    throw conflict("The customer's client portal account is deactivated. Reactivate it on the Users screen first.");
  }
  return user;
}
