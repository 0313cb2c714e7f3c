import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { contracts, invoices } from '../db/schema';
import { applyPayment } from '../modules/payments/payments.service';
import type { TestContext } from './app';
import { createTestCustomer } from './catalog-factories';
import { createTestUser, type TestUser } from './factories';

/** Test data for commission tests: reps, their contracts and invoices, and the billing events on them. */

export type Rep = TestUser & { token: string };

export async function createRep(ctx: TestContext, commissionRateBp = 500): Promise<Rep> {
  return ctx.signIn(await createTestUser(ctx.db, { role: 'sales', commissionRateBp }));
}

export async function createContractFor(db: Db, salesRepId: string | null) {
  const customer = await createTestCustomer(db);
  const [row] = await db
    .insert(contracts)
    .values({
      customerId: customer.id,
      salesRepId,
      title: `Campaign ${randomUUID().slice(0, 6)}`,
      status: 'active',
      startDate: '2026-01-01',
      paymentMode: 'portal',
      monthlyAmountCents: 1000_00,
      totalCents: 1000_00,
    })
    .returning();
  return { contract: row, customer };
}

let period = 0;

/**
 * An issued (pending) invoice with the given figures: tax added on top (total = subtotal + tax), or with
 * `taxIncludedBp` tax included in the subtotal at that rate (total = subtotal, tax = its part of it).
 */
export async function createInvoice(
  db: Db,
  contractId: string,
  figures: { subtotalCents: number; setupFeeCents?: number; taxCents?: number; taxIncludedBp?: number },
) {
  const [contract] = await db.select().from(contracts).where(eq(contracts.id, contractId));
  period += 1;
  const month = String((period % 12) + 1).padStart(2, '0');
  const year = 2000 + Math.floor(period / 12);
  const included = figures.taxIncludedBp !== undefined;
  const tax = included
    ? Math.round((figures.subtotalCents * figures.taxIncludedBp!) / (10_000 + figures.taxIncludedBp!))
    : (figures.taxCents ?? 0);
  const [row] = await db
    .insert(invoices)
    .values({
      number: `INV-T-${randomUUID().slice(0, 12)}`,
      contractId,
      customerId: contract.customerId,
      periodIndex: period,
      periodStart: `${year}-${month}-01`,
      periodEnd: `${year}-${month}-28`,
      dueDate: `${year}-${month}-08`,
      subtotalCents: figures.subtotalCents,
      setupFeeCents: figures.setupFeeCents ?? 0,
      taxCents: tax,
      taxLabel: 'Tax',
      taxRateBp: figures.taxIncludedBp ?? 0,
      taxIncluded: included,
      totalCents: included ? figures.subtotalCents : figures.subtotalCents + tax,
    })
    .returning();
  return row;
}

/**
 * Finance records a manual payment of everything due (POST /api/invoices/{id}/payments): the invoice
 * becomes paid and billing's payments core earns the commission in the same transaction.
 */
export async function payInvoice(ctx: TestContext, invoiceId: string) {
  const [invoice] = await ctx.db.select().from(invoices).where(eq(invoices.id, invoiceId));
  return ctx.injectAs('finance', {
    method: 'POST',
    url: `/api/invoices/${invoiceId}/payments`,
    headers: { 'content-type': 'application/json' },
    payload: { amount: Math.max(1, invoice.totalCents - invoice.amountPaidCents) / 100, method: 'check' },
  });
}

/** A card payment confirmed by the checkout (applyPayment, as the built-in and Stripe providers call it). */
export async function confirmCardPayment(db: Db, invoiceId: string, providerPaymentId: string) {
  return db.transaction(async (tx) => {
    const [invoice] = await tx.select().from(invoices).where(eq(invoices.id, invoiceId));
    return applyPayment(tx, {
      invoiceId,
      amountCents: invoice.totalCents,
      method: 'card',
      provider: 'builtin',
      providerPaymentId,
      cardBrand: 'visa',
      cardLast4: '4242',
    });
  });
}

/** Finance voids the invoice (POST /api/invoices/{id}/void): a paid one is refunded. */
export async function voidInvoice(ctx: TestContext, invoiceId: string) {
  return ctx.injectAs('finance', {
    method: 'POST',
    url: `/api/invoices/${invoiceId}/void`,
    headers: { 'content-type': 'application/json' },
    payload: { reason: "Refunded at the customer's request" },
  });
}

/** A paid invoice of `subtotalCents` on a new contract of the rep: the rep earns on it. */
export async function earn(ctx: TestContext, repId: string, subtotalCents: number) {
  const { contract } = await createContractFor(ctx.db, repId);
  const invoice = await createInvoice(ctx.db, contract.id, { subtotalCents });
  const paid = await payInvoice(ctx, invoice.id);
  if (paid.statusCode !== 200 && paid.statusCode !== 201) throw new Error(`payment refused: ${paid.body}`);
  return invoice;
}
