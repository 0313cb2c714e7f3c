import { and, asc, desc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { contracts, invoices, users } from '../db/schema';
import { createMailer } from '../lib/mailer';
import { issueCreditNote } from '../modules/credit-notes/credit-notes.service';

/**
 * Credit notes as finance issues them (product.md section 14), through the same service as the Issue Credit
 * Note dialog: a goodwill credit that lowers what a running contract's open invoice asks for, and a
 * make-good on the demo client's most recent paid invoice, which becomes the client's credit balance (shown
 * on the customer page and in the portal; the next billing run applies it to the next invoice).
 */
export async function seedCreditNotes(db: Db, options: { baseUrl?: string } = {}): Promise<void> {
  const mailer = createMailer({ SMTP_URL: undefined, MAIL_FROM: 'AdCRM <billing@adcrm.local>' });
  const deps = { db, mailer, baseUrl: options.baseUrl ?? 'http://localhost:3000' };
  const [finance] = await db.select().from(users).where(eq(users.email, 'finance@demo.test'));
  const [client] = await db.select().from(users).where(eq(users.email, 'client@demo.test'));
  if (!finance) return;

  const [open] = await db
    .select({ id: invoices.id, totalCents: invoices.totalCents })
    .from(invoices)
    .innerJoin(contracts, eq(contracts.id, invoices.contractId))
    .where(and(eq(invoices.status, 'pending'), eq(contracts.status, 'active')))
    .orderBy(asc(invoices.number))
    .limit(1);
  if (open) {
    await issueCreditNote(deps, finance, open.id, {
      amount: wholeDollarsOf(open.totalCents, 10),
      reason: 'Goodwill: the banner rotation started two days late this month.',
    });
  }

  if (!client?.customerId) return;
  const [paid] = await db
    .select({ id: invoices.id, totalCents: invoices.totalCents })
    .from(invoices)
    .where(and(eq(invoices.customerId, client.customerId), eq(invoices.status, 'paid')))
    .orderBy(desc(invoices.periodStart), desc(invoices.number))
    .limit(1);
  if (paid) {
    await issueCreditNote(deps, finance, paid.id, {
      amount: wholeDollarsOf(paid.totalCents, 4),
      reason: 'Make-good: the pre-roll missed its Saturday evening slots.',
    });
  }
}

/** About 1/parts of an amount, in whole dollars (at least $1.00), in cents: a demo credit's round figure. */
function wholeDollarsOf(cents: number, parts: number): number {
  return Math.max(100, Math.floor(cents / (100 * parts)) * 100);
}
