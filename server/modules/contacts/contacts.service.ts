import type { ListQuery } from '@shared/contracts/common';
import {
  CONTACT_MESSAGES,
  type Contact,
  type ContactPatchValues,
  type ContactValues,
} from '@shared/contracts/contacts';
import type { Db } from '../../db/client';
import { type AuditEntry, recordAudits } from '../../lib/audit';
import { sqlState } from '../../lib/db-errors';
import { conflict, invalidFields, notFound } from '../../lib/errors';
import type { SessionUser } from '../sessions/sessions';
import {
  type ContactFields,
  type ContactFlag,
  type ContactRow,
  clearFlagOfOthers,
  customerExists,
  deleteContactRow,
  insertContact,
  lockContact,
  selectContactPage,
  updateContactRow,
} from './contacts.repo';

/**
 * A customer's contacts (product.md section 19): at most one primary and one billing contact. Giving a contact
 * either flag takes it from the customer's previous one in the same transaction (one UPDATE of the others, then
 * the contact's own); two such changes at once meet at the partial unique index, and the later one answers 409.
 * Where invoices and receipts go is decided in SQL from these rows (db/billing-recipient.ts).
 */

type Actor = SessionUser;
const FLAGS: readonly ContactFlag[] = ['isPrimary', 'isBilling'];

export function toContact(row: ContactRow): Contact {
  return {
    id: row.id,
    customerId: row.customerId,
    name: row.name,
    role: row.role,
    email: row.email,
    phone: row.phone,
    notes: row.notes,
    isPrimary: row.isPrimary,
    isBilling: row.isBilling,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** A page of the customer's contacts: the primary first, then the billing contact, then by name. 404: no customer. */
export async function listContacts(
  db: Db,
  customerId: string,
  query: ListQuery,
): Promise<{ rows: Contact[]; total: number }> {
  if (!(await customerExists(db, customerId))) throw notFound('Customer');
  const q = query.q?.replaceAll('\u0000', '').trim() || undefined;
  const page = await selectContactPage(db, { customerId, q, limit: query.limit, offset: query.offset });
  return { rows: page.rows.map(toContact), total: page.total };
}

/**
 * The flags the contact takes from the customer's other contacts (each in one UPDATE), with an audit entry for
 * every contact that lost one.
 */
async function takeFlags(
  tx: Db,
  actor: Actor,
  customerId: string,
  contactId: string | null,
  taking: readonly ContactFlag[],
): Promise<AuditEntry[]> {
  const entries: AuditEntry[] = [];
  for (const flag of taking) {
    for (const row of await clearFlagOfOthers(tx, customerId, flag, contactId)) {
      const after = toContact(row);
      entries.push({
        actorId: actor.id,
        action: 'contact.updated',
        entity: 'contact',
        entityId: row.id,
        before: { ...after, [flag]: true },
        after,
      });
    }
  }
  return entries;
}

/** A unique violation here is the partial index refusing a second primary or billing contact: a race. */
async function refusingRaces<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (sqlState(error) === '23505') throw conflict(CONTACT_MESSAGES.raced);
    throw error;
  }
}

export async function createContact(db: Db, actor: Actor, customerId: string, input: ContactValues): Promise<Contact> {
  return refusingRaces(
    db.transaction(async (tx) => {
      if (!(await customerExists(tx, customerId))) throw notFound('Customer');
      const taken = await takeFlags(
        tx,
        actor,
        customerId,
        null,
        FLAGS.filter((flag) => input[flag]),
      );
      const values: ContactFields = {
        name: input.name,
        role: input.role,
        email: input.email,
        phone: input.phone,
        notes: input.notes,
        isPrimary: input.isPrimary,
        isBilling: input.isBilling,
      };
      const contact = toContact(await insertContact(tx, customerId, values));
      await recordAudits(tx, [
        ...taken,
        { actorId: actor.id, action: 'contact.created', entity: 'contact', entityId: contact.id, after: contact },
      ]);
      return contact;
    }),
  );
}

/** PATCH: the fields given; a contact of another customer is 404; a billing contact keeps an e-mail address. */
export async function updateContact(
  db: Db,
  actor: Actor,
  customerId: string,
  contactId: string,
  changes: ContactPatchValues,
): Promise<Contact> {
  return refusingRaces(
    db.transaction(async (tx) => {
      const row = await lockContact(tx, customerId, contactId);
      if (!row) throw notFound('Contact');
      const before = toContact(row);
      const given = Object.fromEntries(
        Object.entries(changes).filter(([, value]) => value !== undefined),
      ) as Partial<ContactFields>;
      if (Object.keys(given).length === 0) return before;
      const saved = { ...row, ...given };
      if (saved.isBilling && !saved.email) {
        throw invalidFields({ email: [CONTACT_MESSAGES.billingNeedsEmail] });
      }
      const taken = await takeFlags(
        tx,
        actor,
        customerId,
        contactId,
        FLAGS.filter((flag) => given[flag] === true && !row[flag]),
      );
      const after = toContact(await updateContactRow(tx, contactId, given));
      await recordAudits(tx, [
        ...taken,
        { actorId: actor.id, action: 'contact.updated', entity: 'contact', entityId: contactId, before, after },
      ]);
      return after;
    }),
  );
}

export async function deleteContact(db: Db, actor: Actor, customerId: string, contactId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await lockContact(tx, customerId, contactId);
    if (!row) throw notFound('Contact');
    await deleteContactRow(tx, contactId);
    await recordAudits(tx, [
      { actorId: actor.id, action: 'contact.deleted', entity: 'contact', entityId: contactId, before: toContact(row) },
    ]);
  });
}
