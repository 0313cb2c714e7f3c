import { type SQL, sql } from 'drizzle-orm';

/**
 * Whom a customer's invoices, receipts and payment e-mails reach (product.md section 19), decided here once for
 * every statement that loads a recipient: its billing contact (contacts.is_billing, at most one per customer by
 * contacts_billing_key, which each expression probes once), else the customer itself. Over a customers row named
 * by its alias (`'cu'`, or `'customers'` in a Drizzle select of the table unaliased). The e-mails greet the name
 * by its first word (lib/email.ts greetingName), and the customer's name when this is null.
 */

/** The address: the billing contact's e-mail (a billing contact always has one), else the customer's. */
export function sqlBillingEmail(customer: string): SQL<string> {
  const c = sql.raw(customer);
  return sql<string>`coalesce((select billing_contact.email from contacts billing_contact
    where billing_contact.customer_id = ${c}.id and billing_contact.is_billing), ${c}.email)`;
}

/** The name the greeting uses: the billing contact's, else the customer's contact person (null: neither). */
export function sqlBillingContactName(customer: string): SQL<string | null> {
  const c = sql.raw(customer);
  return sql<string | null>`coalesce((select billing_contact.name from contacts billing_contact
    where billing_contact.customer_id = ${c}.id and billing_contact.is_billing), ${c}.contact_person)`;
}
