import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { autopayAttempts, customers, invoices, paymentMethods } from '../../db/schema';
import { rowsOf } from '../../lib/db-rows';
import type { AttemptRow, DueCharge, PaymentMethodRow } from './autopay.repo';

/**
 * The SQL of what a provider tells autopay after the fact (Stripe's webhooks, decision 057): the customer's
 * Stripe customer, a method the provider saved, a charge it settles later, and the card updater's changes.
 */

/** The customer's Stripe customer id, if one was made. */
export async function selectStripeCustomerId(db: Db, customerId: string): Promise<string | null | undefined> {
  const [row] = await db
    .select({ stripeCustomerId: customers.stripeCustomerId })
    .from(customers)
    .where(eq(customers.id, customerId));
  return row ? row.stripeCustomerId : undefined;
}

/** Our customer whose Stripe customer this is: undefined when none is, or when more than one claims it. */
export async function selectCustomerIdByStripeCustomerId(
  db: Db,
  stripeCustomerId: string,
): Promise<string | undefined> {
  const rows = await db
    .select({ id: customers.id })
    .from(customers)
    .where(eq(customers.stripeCustomerId, stripeCustomerId))
    .limit(2);
  return rows.length === 1 ? rows[0]!.id : undefined;
}

/** Keeps the first Stripe customer made for the customer: answers the one kept (another's, if it was first). */
export async function keepStripeCustomerId(db: Db, customerId: string, stripeCustomerId: string): Promise<string> {
  const [row] = rowsOf<{ stripe_customer_id: string }>(
    await db.execute(sql`
      update customers set stripe_customer_id = coalesce(stripe_customer_id, ${stripeCustomerId})
      where id = ${customerId}
      returning stripe_customer_id`),
  );
  return row?.stripe_customer_id ?? stripeCustomerId;
}

/** Spends a set-up link unused so far, expired or not (the provider's page took the method while it was live). */
export async function spendSetupLinkOnce(tx: Db, id: string): Promise<boolean> {
  const rows = rowsOf<{ id: string }>(
    await tx.execute(sql`
      update payment_setup_links set used_at = now()
      where id = ${id} and used_at is null
      returning id`),
  );
  return rows.length > 0;
}

/** A method by its provider's id (removed ones too: the key is unique per provider). */
export async function selectMethodByProviderId(
  db: Db,
  provider: string,
  providerMethodId: string,
): Promise<PaymentMethodRow | undefined> {
  const [row] = await db
    .select()
    .from(paymentMethods)
    .where(and(eq(paymentMethods.provider, provider), eq(paymentMethods.providerMethodId, providerMethodId)));
  return row;
}

/**
 * The card updater's new brand, last 4 and expiry of a method not removed; an expired one is active again.
 * Answers the method as it is now, or undefined when there is none.
 */
export async function refreshMethod(
  tx: Db,
  id: string,
  card: { brand: string; last4: string; expMonth: number | null; expYear: number | null },
): Promise<PaymentMethodRow | undefined> {
  const [row] = await tx
    .update(paymentMethods)
    .set({
      brand: card.brand,
      last4: card.last4,
      expMonth: card.expMonth,
      expYear: card.expYear,
      status: sql`case when ${paymentMethods.status} = 'expired' then 'active' else ${paymentMethods.status} end`,
      updatedAt: new Date(),
    })
    .where(and(eq(paymentMethods.id, id), isNull(paymentMethods.removedAt)))
    .returning();
  return row;
}

/** A charge the provider answers later (an ACH debit processing): the attempt stays pending with its payment id. */
export async function markAttemptProcessing(tx: Db, id: string, providerPaymentId: string): Promise<void> {
  await tx
    .update(autopayAttempts)
    .set({ providerPaymentId })
    .where(and(eq(autopayAttempts.id, id), eq(autopayAttempts.status, 'pending')));
}

/**
 * Locks attempts' rows under their contracts' money locks (one statement, id order) and answers each one's
 * status: only one settlement of an attempt is recorded (the charge's own answer, or a webhook, or its replay),
 * by whoever finds it still `pending`.
 */
export async function lockAttempts(tx: Db, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = rowsOf<{ id: string; status: string }>(
    await tx.execute(sql`
      select id, status from autopay_attempts where id = any(${sql.param([...ids])}::uuid[]) order by id for update`),
  );
  return new Map(rows.map(({ id, status }) => [id, status]));
}

/** A pending attempt with what its settlement needs (its invoice and the method it charged). */
export async function selectPendingAttemptCharge(
  db: Db,
  id: string,
): Promise<{ attempt: AttemptRow; due: DueCharge } | undefined> {
  const [row] = await db
    .select({ attempt: autopayAttempts, invoice: invoices, method: paymentMethods })
    .from(autopayAttempts)
    .innerJoin(invoices, eq(invoices.id, autopayAttempts.invoiceId))
    .innerJoin(paymentMethods, eq(paymentMethods.id, autopayAttempts.paymentMethodId))
    .where(and(eq(autopayAttempts.id, id), eq(autopayAttempts.status, 'pending')));
  if (!row) return undefined;
  const { attempt, invoice, method } = row;
  return {
    attempt,
    due: {
      invoiceId: invoice.id,
      number: invoice.number,
      contractId: invoice.contractId,
      customerId: attempt.customerId,
      dueDate: invoice.dueDate,
      dueCents: attempt.amountCents,
      attemptNumber: attempt.attemptNumber,
      seriesStartedOn: attempt.seriesStartedOn,
      previousAttemptId: null,
      method: {
        id: method.id,
        provider: method.provider,
        providerMethodId: method.providerMethodId,
        providerCustomerId: method.providerCustomerId,
        kind: method.kind,
        brand: method.brand,
        last4: method.last4,
      },
    },
  };
}
