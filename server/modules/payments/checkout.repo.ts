import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { sqlAmountDue } from '../../db/invoice-amounts';
import { checkoutSessions, contracts, customers, invoices } from '../../db/schema';

export type CheckoutSessionRow = typeof checkoutSessions.$inferSelect;
export type InvoiceRow = typeof invoices.$inferSelect;

/**
 * The contract behind a pay link, with the customer the page greets: the payer, its bill-to (the agency that is
 * billed for its advertiser, or the customer itself; product.md section 20), whose card a checkout may save.
 */
export type PayLinkContract = {
  contract: typeof contracts.$inferSelect;
  customer: { id: string; name: string; email: string; company: string | null };
};

const customerColumns = {
  id: customers.id,
  name: customers.name,
  email: customers.email,
  company: customers.company,
};

export async function selectContractByPayToken(db: Db, token: string): Promise<PayLinkContract | undefined> {
  const [row] = await db
    .select({ contract: contracts, customer: customerColumns })
    .from(contracts)
    .innerJoin(customers, eq(customers.id, contracts.billToCustomerId))
    .where(eq(contracts.payLinkToken, token))
    .limit(1);
  return row;
}

export async function selectContractWithCustomer(db: Db, id: string): Promise<PayLinkContract | undefined> {
  const [row] = await db
    .select({ contract: contracts, customer: customerColumns })
    .from(contracts)
    .innerJoin(customers, eq(customers.id, contracts.billToCustomerId))
    .where(eq(contracts.id, id))
    .limit(1);
  return row;
}

/** The invoices that can be paid now: pending or failed, with something still due; oldest first. */
export async function selectOpenInvoices(db: Db, contractId: string): Promise<InvoiceRow[]> {
  return db
    .select()
    .from(invoices)
    .where(and(eq(invoices.contractId, contractId), sql`${sqlAmountDue('invoices')} > 0`))
    .orderBy(asc(invoices.periodStart));
}

export async function selectInvoicesByIds(db: Db, ids: readonly string[]): Promise<InvoiceRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(invoices)
    .where(inArray(invoices.id, [...ids]))
    .orderBy(asc(invoices.periodStart));
}

/**
 * "Pay all due" (product.md section 20): the invoices billed to the payer with something due now, oldest first
 * (due date, then number): the order its one payment is applied in.
 */
export async function selectPayableInvoicesOfPayer(db: Db, payerId: string): Promise<InvoiceRow[]> {
  return db
    .select()
    .from(invoices)
    .where(and(eq(invoices.billToCustomerId, payerId), sql`${sqlAmountDue('invoices')} > 0`))
    .orderBy(asc(invoices.dueDate), asc(invoices.number));
}

/** The invoices of a "Pay all due" checkout, oldest first (due date, then number), as they are now. */
export async function selectInvoicesOldestFirst(db: Db, ids: readonly string[]): Promise<InvoiceRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(invoices)
    .where(inArray(invoices.id, [...ids]))
    .orderBy(asc(invoices.dueDate), asc(invoices.number));
}

/** The payer of a "Pay all due" checkout: the customer its checkout greets and whose e-mail it carries. */
export async function selectPayer(db: Db, id: string): Promise<PayLinkContract['customer'] | undefined> {
  const [row] = await db.select(customerColumns).from(customers).where(eq(customers.id, id)).limit(1);
  return row;
}

export async function selectInvoice(db: Db, id: string): Promise<InvoiceRow | undefined> {
  const [row] = await db.select().from(invoices).where(eq(invoices.id, id)).limit(1);
  return row;
}

/** The contract's first invoice (period 0), once the billing run has issued it. */
export async function selectFirstInvoice(db: Db, contractId: string): Promise<InvoiceRow | undefined> {
  const [row] = await db
    .select()
    .from(invoices)
    .where(eq(invoices.contractId, contractId))
    .orderBy(asc(invoices.periodStart))
    .limit(1);
  return row;
}

export async function selectSessionByToken(db: Db, token: string): Promise<CheckoutSessionRow | undefined> {
  const [row] = await db.select().from(checkoutSessions).where(eq(checkoutSessions.token, token)).limit(1);
  return row;
}

export async function selectSessionByProviderId(
  db: Db,
  provider: string,
  providerSessionId: string,
): Promise<CheckoutSessionRow | undefined> {
  const [row] = await db
    .select()
    .from(checkoutSessions)
    .where(and(eq(checkoutSessions.provider, provider), eq(checkoutSessions.providerSessionId, providerSessionId)))
    .limit(1);
  return row;
}

/**
 * Whom a checkout is for: one contract (Pay Now, a pay link), or a payer paying every invoice due that is billed
 * to it ("Pay all due"); exactly one is set on a session (checkout_sessions_subject_check).
 */
export type CheckoutSubject = { contractId: string } | { payerId: string };

function sqlSubject(subject: CheckoutSubject) {
  return 'contractId' in subject
    ? eq(checkoutSessions.contractId, subject.contractId)
    : eq(checkoutSessions.payerId, subject.payerId);
}

/**
 * An open session, with more than ten minutes left, that charges exactly this (same contract or payer, source,
 * provider, invoices and amount): opening Pay twice leads to the same checkout, which can be paid once.
 * The caller holds the contracts' locks, so no other session for them can be made meanwhile.
 */
export async function selectReusableSession(
  db: Db,
  match: CheckoutSubject & { source: string; provider: string; invoiceIds: readonly string[]; amountCents: number },
): Promise<CheckoutSessionRow | undefined> {
  const [row] = await db
    .select()
    .from(checkoutSessions)
    .where(
      and(
        sqlSubject(match),
        eq(checkoutSessions.source, match.source),
        eq(checkoutSessions.provider, match.provider),
        eq(checkoutSessions.status, 'open'),
        eq(checkoutSessions.amountCents, match.amountCents),
        sql`${checkoutSessions.expiresAt} > now() + interval '10 minutes'`,
        sql`${checkoutSessions.invoiceIds} = ${sqlUuidArray(match.invoiceIds)}`,
      ),
    )
    .orderBy(sql`${checkoutSessions.createdAt} desc`)
    .limit(1);
  return row;
}

/**
 * Before a new checkout is made, the contract's (or the payer's) open checkouts it would overlap are closed:
 * those charging any of the same invoices, and those of a first payment (which pays whichever invoice comes
 * first). Returns them, so that the provider's side can be closed too.
 */
export async function expireOpenSessionsOverlapping(
  tx: Db,
  charge: CheckoutSubject & { invoiceIds: readonly string[] },
) {
  const firstPayment = sql`cardinality(${checkoutSessions.invoiceIds}) = 0`;
  return tx
    .update(checkoutSessions)
    .set({ status: 'expired' })
    .where(
      and(
        sqlSubject(charge),
        eq(checkoutSessions.status, 'open'),
        charge.invoiceIds.length > 0
          ? or(sql`${checkoutSessions.invoiceIds} && ${sqlUuidArray(charge.invoiceIds)}`, firstPayment)
          : firstPayment,
      ),
    )
    .returning({ provider: checkoutSessions.provider, providerSessionId: checkoutSessions.providerSessionId });
}

export async function insertSession(tx: Db, values: typeof checkoutSessions.$inferInsert): Promise<CheckoutSessionRow> {
  const [row] = await tx.insert(checkoutSessions).values(values).returning();
  return row;
}

export async function setProviderSessionId(db: Db, id: string, providerSessionId: string): Promise<void> {
  await db.update(checkoutSessions).set({ providerSessionId }).where(eq(checkoutSessions.id, id));
}

/**
 * The one step that decides which confirmation pays: open (or, for money a provider has already taken,
 * expired) -> completed. Concurrent and replayed confirmations find it completed and change nothing.
 */
export async function completeSessionRow(
  tx: Db,
  id: string,
  options: { acceptExpired: boolean },
): Promise<CheckoutSessionRow | undefined> {
  const [row] = await tx
    .update(checkoutSessions)
    .set({ status: 'completed', completedAt: new Date() })
    .where(
      and(
        eq(checkoutSessions.id, id),
        options.acceptExpired
          ? inArray(checkoutSessions.status, ['open', 'expired'])
          : and(eq(checkoutSessions.status, 'open'), sql`${checkoutSessions.expiresAt} > now()`),
      ),
    )
    .returning();
  return row;
}

export async function expireSessionRow(db: Db, id: string): Promise<boolean> {
  const rows = await db
    .update(checkoutSessions)
    .set({ status: 'expired' })
    .where(and(eq(checkoutSessions.id, id), eq(checkoutSessions.status, 'open')))
    .returning({ id: checkoutSessions.id });
  return rows.length > 0;
}

/**
 * Once a session has paid, the contract's other open sessions that would charge the same invoices again
 * (or, for a first payment, the other first-payment sessions) are closed; once a "Pay all due" has paid,
 * every open session charging any of its invoices, whoever opened it. Returns them, so that the provider's
 * side can be closed too. Sessions for other invoices stay open, and so does a "Pay all due" when one of its
 * invoices is paid alone: its settlement applies only what is still due then (checkout.settle.ts).
 */
export async function expireOverlappingSessions(tx: Db, paid: CheckoutSessionRow) {
  const mine = sqlUuidArray(paid.invoiceIds);
  return tx
    .update(checkoutSessions)
    .set({ status: 'expired' })
    .where(
      and(
        paid.contractId === null ? undefined : eq(checkoutSessions.contractId, paid.contractId),
        eq(checkoutSessions.status, 'open'),
        sql`${checkoutSessions.id} <> ${paid.id}`,
        paid.invoiceIds.length > 0
          ? sql`${checkoutSessions.invoiceIds} && ${mine}`
          : sql`cardinality(${checkoutSessions.invoiceIds}) = 0`,
      ),
    )
    .returning({ provider: checkoutSessions.provider, providerSessionId: checkoutSessions.providerSessionId });
}

function sqlUuidArray(ids: readonly string[]) {
  return sql`${`{${[...ids].sort().join(',')}}`}::uuid[]`;
}
