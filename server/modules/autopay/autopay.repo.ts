import type { AutopayChargeOn } from '@shared/contracts/autopay';
import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { sqlBillingContactName, sqlBillingEmail } from '../../db/billing-recipient';
import type { Db } from '../../db/client';
import { sqlAmountDue, sqlPayable } from '../../db/invoice-amounts';
import { autopayAttempts, contracts, customers, invoices, paymentMethods, paymentSetupLinks } from '../../db/schema';
import { getBusinessTimeZone } from '../../lib/business-day';
import { rowsOf } from '../../lib/db-rows';

/** The SQL of autopay (product.md section 18): methods on file, set-up links, charge attempts. */

/** A uuid no row has, for an empty list. */
const NO_ID = '00000000-0000-0000-0000-000000000000';

export type PaymentMethodRow = typeof paymentMethods.$inferSelect;
export type AttemptRow = typeof autopayAttempts.$inferSelect;
export type SetupLinkRow = typeof paymentSetupLinks.$inferSelect;

// ---------------------------------------------------------------------------------------------------------
// Methods on file
// ---------------------------------------------------------------------------------------------------------

/** A customer's methods not removed: the default first, then the newest. */
export async function selectMethods(db: Db, customerId: string): Promise<PaymentMethodRow[]> {
  return db
    .select()
    .from(paymentMethods)
    .where(and(eq(paymentMethods.customerId, customerId), isNull(paymentMethods.removedAt)))
    .orderBy(desc(paymentMethods.isDefault), desc(paymentMethods.createdAt), asc(paymentMethods.id));
}

export async function selectMethod(db: Db, customerId: string, id: string): Promise<PaymentMethodRow | undefined> {
  const [row] = await db
    .select()
    .from(paymentMethods)
    .where(and(eq(paymentMethods.id, id), eq(paymentMethods.customerId, customerId), isNull(paymentMethods.removedAt)));
  return row;
}

/** The customer, and whom its payment e-mails reach: its billing contact when it has one (db/billing-recipient.ts). */
export async function selectAutopayCustomer(db: Db, customerId: string) {
  const [row] = await db
    .select({
      id: customers.id,
      name: customers.name,
      email: customers.email,
      contactPerson: customers.contactPerson,
      autopayEnabled: customers.autopayEnabled,
      billingEmail: sqlBillingEmail('customers'),
      billingContactName: sqlBillingContactName('customers'),
    })
    .from(customers)
    .where(eq(customers.id, customerId));
  return row;
}

export async function insertMethod(tx: Db, values: typeof paymentMethods.$inferInsert): Promise<PaymentMethodRow> {
  const [row] = await tx.insert(paymentMethods).values(values).returning();
  return row!;
}

/**
 * Makes a method the customer's default: the old default is cleared first, then the new one set, in the
 * caller's transaction (the unique index keeps one default: a concurrent change waits on the same rows).
 * Answers the method, or undefined when it is not the customer's, removed or not active.
 */
export async function makeDefault(tx: Db, customerId: string, id: string): Promise<PaymentMethodRow | undefined> {
  await tx
    .update(paymentMethods)
    .set({ isDefault: false, updatedAt: new Date() })
    .where(
      and(
        eq(paymentMethods.customerId, customerId),
        eq(paymentMethods.isDefault, true),
        isNull(paymentMethods.removedAt),
        sql`${paymentMethods.id} <> ${id}`,
      ),
    );
  const [row] = await tx
    .update(paymentMethods)
    .set({ isDefault: true, updatedAt: new Date() })
    .where(
      and(
        eq(paymentMethods.id, id),
        eq(paymentMethods.customerId, customerId),
        isNull(paymentMethods.removedAt),
        eq(paymentMethods.status, 'active'),
      ),
    )
    .returning();
  return row;
}

/** Removes a method (the row stays for its attempts and consent). Answers it, or undefined when not found. */
export async function removeMethod(tx: Db, customerId: string, id: string): Promise<PaymentMethodRow | undefined> {
  const [row] = await tx
    .update(paymentMethods)
    .set({ removedAt: new Date(), isDefault: false, updatedAt: new Date() })
    .where(and(eq(paymentMethods.id, id), eq(paymentMethods.customerId, customerId), isNull(paymentMethods.removedAt)))
    .returning();
  return row;
}

/** The newest active method left, made the default when the customer has none (after a removal). */
export async function promoteNewestActive(tx: Db, customerId: string): Promise<PaymentMethodRow | undefined> {
  const [row] = rowsOf<{ id: string }>(
    await tx.execute(sql`
      update payment_methods set is_default = true, updated_at = now()
      where id = (
        select id from payment_methods
        where customer_id = ${customerId} and removed_at is null and status = 'active'
          and not exists (select 1 from payment_methods d where d.customer_id = ${customerId} and d.is_default and d.removed_at is null)
        order by created_at desc, id limit 1)
      returning id`),
  );
  return row ? selectMethod(tx, customerId, row.id) : undefined;
}

/** Marks a method after a hard decline (expired or failed): it is charged no more. */
export async function markMethod(tx: Db, id: string, status: 'expired' | 'failed'): Promise<boolean> {
  const rows = await tx
    .update(paymentMethods)
    .set({ status, updatedAt: new Date() })
    .where(and(eq(paymentMethods.id, id), eq(paymentMethods.status, 'active')))
    .returning({ id: paymentMethods.id });
  return rows.length > 0;
}

/**
 * Turns autopay on (only with a default active method on file: one conditional UPDATE decides) or off.
 * Answers whether the customer's autopay is now as asked.
 */
export async function setAutopay(tx: Db, customerId: string, enabled: boolean): Promise<boolean> {
  const rows = rowsOf<{ id: string }>(
    await tx.execute(sql`
      update customers set autopay_enabled = ${enabled}, updated_at = now()
      where id = ${customerId}
        ${
          enabled
            ? sql`and exists (select 1 from payment_methods m where m.customer_id = customers.id and m.is_default
                    and m.removed_at is null and m.status = 'active')`
            : sql``
        }
      returning id`),
  );
  return rows.length > 0;
}

// ---------------------------------------------------------------------------------------------------------
// Set-up links
// ---------------------------------------------------------------------------------------------------------

export async function insertSetupLink(tx: Db, values: typeof paymentSetupLinks.$inferInsert): Promise<SetupLinkRow> {
  const [row] = await tx.insert(paymentSetupLinks).values(values).returning();
  return row!;
}

export async function selectSetupLink(db: Db, tokenHash: string): Promise<SetupLinkRow | undefined> {
  const [row] = await db.select().from(paymentSetupLinks).where(eq(paymentSetupLinks.tokenHash, tokenHash));
  return row;
}

/**
 * Spends a set-up link: one conditional UPDATE (unused and not expired), so a link saves one method. `at` (the
 * demo's back-dated history) is the moment it is used at; without it, now.
 */
export async function spendSetupLink(tx: Db, id: string, at?: Date): Promise<boolean> {
  const when = sql`coalesce(${at?.toISOString() ?? null}::timestamptz, now())`;
  const rows = rowsOf<{ id: string }>(
    await tx.execute(sql`
      update payment_setup_links set used_at = ${when}
      where id = ${id} and used_at is null and expires_at > ${when}
      returning id`),
  );
  return rows.length > 0;
}

// ---------------------------------------------------------------------------------------------------------
// Charge attempts
// ---------------------------------------------------------------------------------------------------------

/** An invoice the charge run may charge now, with its next attempt's number and the method to charge. */
export type DueCharge = {
  invoiceId: string;
  number: string;
  contractId: string;
  customerId: string;
  dueDate: string;
  dueCents: number;
  attemptNumber: number;
  seriesStartedOn: string;
  previousAttemptId: string | null;
  method: Pick<
    PaymentMethodRow,
    'id' | 'provider' | 'providerMethodId' | 'providerCustomerId' | 'kind' | 'brand' | 'last4'
  >;
};

type DueChargeRow = {
  invoice_id: string;
  number: string;
  contract_id: string;
  customer_id: string;
  due_date: string;
  due_cents: string | number;
  attempt_number: number;
  series_started_on: string;
  previous_attempt_id: string | null;
  method_id: string;
  provider: string;
  provider_method_id: string;
  provider_customer_id: string | null;
  kind: string;
  brand: string;
  last4: string;
};

/**
 * The open invoices billed to autopay customers to charge now, from the methods of their bill-to (the agency for
 * an advertiser it is billed for, product.md section 20; `customerId` is that payer): something due, their charge day reached (due date or
 * issue date, by `chargeOn`), and either never charged or a failed attempt whose retry day has come. `now`
 * (Charge now) ignores the days but never an attempt still running. Set-based: one statement, every customer.
 */
export async function selectDueCharges(
  db: Db,
  options: {
    today: string;
    chargeOn: AutopayChargeOn;
    customerId?: string;
    contractId?: string;
    invoiceId?: string;
    now?: boolean;
    limit: number;
  },
): Promise<DueCharge[]> {
  const { today } = options;
  const chargeDay =
    options.chargeOn === 'issue_date'
      ? sql`(i.issued_at at time zone ${getBusinessTimeZone()})::date`
      : sql`i.due_date`;
  const when = options.now
    ? sql`(last.id is null or last.status <> 'pending')`
    : sql`${chargeDay} <= ${today}::date
          and (last.id is null or (last.status in ('failed', 'requires_action') and last.retry_on <= ${today}::date))`;
  const rows = rowsOf<DueChargeRow>(
    await db.execute(sql`
      select i.id as invoice_id, i.number, i.contract_id, i.bill_to_customer_id as customer_id,
             i.due_date::text as due_date,
             ${sqlAmountDue('i')} as due_cents,
             coalesce(last.attempt_number, 0) + 1 as attempt_number,
             coalesce(last.series_started_on, ${today}::date)::text as series_started_on,
             last.id as previous_attempt_id,
             m.id as method_id, m.provider, m.provider_method_id, m.provider_customer_id, m.kind, m.brand, m.last4
      from customers cu
      join payment_methods m on m.customer_id = cu.id and m.is_default and m.removed_at is null and m.status = 'active'
      join invoices i on i.bill_to_customer_id = cu.id
      left join lateral (
        select a.id, a.attempt_number, a.status, a.retry_on, a.series_started_on
        from autopay_attempts a where a.invoice_id = i.id
        order by a.attempt_number desc limit 1
      ) last on true
      where cu.autopay_enabled and ${sqlPayable('i')} and ${sqlAmountDue('i')} > 0 and ${when}
        ${options.customerId ? sql`and cu.id = ${options.customerId}` : sql``}
        ${options.contractId ? sql`and i.contract_id = ${options.contractId}` : sql``}
        ${options.invoiceId ? sql`and i.id = ${options.invoiceId}` : sql``}
      order by i.due_date, i.number
      limit ${options.limit}`),
  );
  return rows.map((row) => ({
    invoiceId: row.invoice_id,
    number: row.number,
    contractId: row.contract_id,
    customerId: row.customer_id,
    dueDate: row.due_date,
    dueCents: Number(row.due_cents),
    attemptNumber: Number(row.attempt_number),
    seriesStartedOn: row.series_started_on,
    previousAttemptId: row.previous_attempt_id,
    method: {
      id: row.method_id,
      provider: row.provider,
      providerMethodId: row.provider_method_id,
      providerCustomerId: row.provider_customer_id,
      kind: row.kind,
      brand: row.brand,
      last4: row.last4,
    },
  }));
}

/**
 * Claims the next attempt of each invoice: ONE INSERT whose unique key (invoice, attempt number) decides, so
 * that across instances an invoice is charged at most once per attempt; the winners then spend their previous
 * attempts' retry days. Answers the attempts claimed (those another run claimed first are missing).
 */
export async function claimAttempts(
  db: Db,
  dues: readonly DueCharge[],
  requestedBy: string | null,
  at?: Date,
): Promise<AttemptRow[]> {
  if (dues.length === 0) return [];
  const claimed = await db
    .insert(autopayAttempts)
    .values(
      dues.map((due) => ({
        invoiceId: due.invoiceId,
        customerId: due.customerId,
        attemptNumber: due.attemptNumber,
        paymentMethodId: due.method.id,
        amountCents: due.dueCents,
        status: 'pending',
        requestedBy,
        seriesStartedOn: due.seriesStartedOn,
        ...(at ? { attemptedAt: at } : {}),
      })),
    )
    .onConflictDoNothing({ target: [autopayAttempts.invoiceId, autopayAttempts.attemptNumber] })
    .returning();
  const won = new Set(claimed.map((attempt) => attempt.invoiceId));
  const previous = dues
    .filter((due) => won.has(due.invoiceId) && due.previousAttemptId)
    .map((due) => due.previousAttemptId!);
  if (previous.length > 0) {
    await db.update(autopayAttempts).set({ retryOn: null }).where(inArray(autopayAttempts.id, previous));
  }
  return claimed;
}

/** The contracts among these paused for non-payment: a payment may resume them (dunning). */
export async function selectPausedForNonPaymentOf(db: Db, contractIds: readonly string[]): Promise<Set<string>> {
  if (contractIds.length === 0) return new Set();
  const rows = await db
    .select({ id: contracts.id })
    .from(contracts)
    .where(
      and(
        inArray(contracts.id, [...new Set(contractIds)]),
        eq(contracts.status, 'paused'),
        eq(contracts.pauseReason, 'non_payment'),
      ),
    );
  return new Set(rows.map(({ id }) => id));
}

/**
 * Records the results of succeeded (or skipped) attempts: one conditional UPDATE from pending for all of them (a
 * second writer changes nothing), finished `at` (the demo's back-dated history) or now.
 */
export async function finishAttempts(
  tx: Db,
  results: readonly {
    id: string;
    status: 'succeeded' | 'skipped';
    providerPaymentId: string;
    paymentId: string | null;
    reason: string | null;
  }[],
  at?: Date,
): Promise<void> {
  if (results.length === 0) return;
  const column = <T>(value: (r: (typeof results)[number]) => T) => sql.param(results.map(value));
  await tx.execute(sql`
    update autopay_attempts a
    set status = r.status, provider_payment_id = r.provider_payment_id, payment_id = r.payment_id,
        reason = r.reason, finished_at = ${(at ?? new Date()).toISOString()}::timestamptz
    from unnest(${column((r) => r.id)}::uuid[], ${column((r) => r.status)}::text[],
                ${column((r) => r.providerPaymentId)}::text[], ${column((r) => r.paymentId)}::uuid[],
                ${column((r) => r.reason)}::text[])
         as r(id, status, provider_payment_id, payment_id, reason)
    where a.id = r.id and a.status = 'pending'`);
}

/**
 * Records an attempt's result: one conditional UPDATE from pending (a second writer changes nothing), finished
 * `at` (the demo's back-dated history) or now.
 */
export async function finishAttempt(
  tx: Db,
  id: string,
  result: Pick<AttemptRow, 'status'> &
    Partial<Pick<AttemptRow, 'declineKind' | 'declineCode' | 'reason' | 'providerPaymentId' | 'paymentId' | 'retryOn'>>,
  at?: Date,
): Promise<AttemptRow | undefined> {
  const [row] = await tx
    .update(autopayAttempts)
    .set({ ...result, finishedAt: at ?? new Date() })
    .where(and(eq(autopayAttempts.id, id), eq(autopayAttempts.status, 'pending')))
    .returning();
  return row;
}

/** An invoice's attempts, first to last. */
export async function selectAttempts(db: Db, invoiceId: string) {
  return db
    .select({
      attempt: autopayAttempts,
      method: { brand: paymentMethods.brand, last4: paymentMethods.last4, kind: paymentMethods.kind },
    })
    .from(autopayAttempts)
    .innerJoin(paymentMethods, eq(paymentMethods.id, autopayAttempts.paymentMethodId))
    .where(eq(autopayAttempts.invoiceId, invoiceId))
    .orderBy(asc(autopayAttempts.attemptNumber));
}

/**
 * A new or updated method: each open invoice of the customer whose last attempt failed is retried at once (its
 * last attempt's retry day becomes today). Answers how many.
 */
export async function retryFailedNow(tx: Db, customerId: string, today: string): Promise<number> {
  const rows = rowsOf<{ id: string }>(
    await tx.execute(sql`
      update autopay_attempts a set retry_on = ${today}::date
      from invoices i
      where a.customer_id = ${customerId} and i.id = a.invoice_id and ${sqlPayable('i')} and ${sqlAmountDue('i')} > 0
        and a.status in ('failed', 'requires_action')
        and a.attempt_number = (select max(b.attempt_number) from autopay_attempts b where b.invoice_id = a.invoice_id)
      returning a.id`),
  );
  return rows.length;
}

// ---------------------------------------------------------------------------------------------------------
// Cards expiring
// ---------------------------------------------------------------------------------------------------------

/**
 * Active cards on file, not removed, whose expiry month ends between `today` and `horizon`, with their customer as
 * its notices reach it (its billing contact's e-mail and name when it has one: db/billing-recipient.ts).
 */
export async function selectMethodsExpiringBy(db: Db, today: string, horizon: string) {
  const [year, month] = horizon.split('-').map(Number) as [number, number];
  const [fromYear, fromMonth] = today.split('-').map(Number) as [number, number];
  const rows = rowsOf<{
    id: string;
    customer_id: string;
    brand: string;
    last4: string;
    kind: string;
    exp_month: number;
    exp_year: number;
    customer_name: string;
    customer_email: string;
    customer_contact_person: string | null;
  }>(
    await db.execute(sql`
      select m.id, m.customer_id, m.brand, m.last4, m.kind, m.exp_month, m.exp_year,
             cu.name as customer_name, ${sqlBillingEmail('cu')} as customer_email,
             ${sqlBillingContactName('cu')} as customer_contact_person
      from payment_methods m
      join customers cu on cu.id = m.customer_id
      where m.removed_at is null and m.status = 'active' and m.exp_year is not null and m.exp_month is not null
        and (m.exp_year < ${year} or (m.exp_year = ${year} and m.exp_month <= ${month}))
        and (m.exp_year > ${fromYear} or (m.exp_year = ${fromYear} and m.exp_month >= ${fromMonth}))
        and (select count(*) from payment_method_notices n where n.payment_method_id = m.id) < 2
      order by m.exp_year, m.exp_month, m.id`),
  );
  return rows.map((row) => ({
    id: row.id,
    customerId: row.customer_id,
    brand: row.brand,
    last4: row.last4,
    kind: row.kind,
    expMonth: Number(row.exp_month),
    expYear: Number(row.exp_year),
    customerName: row.customer_name,
    customerEmail: row.customer_email,
    customerContactPerson: row.customer_contact_person,
  }));
}

/** Records notices of a method: each kind once (the key decides). Answers the kinds recorded now. */
export async function recordExpiryNotices(
  tx: Db,
  paymentMethodId: string,
  kinds: readonly ('expiring_30' | 'expiring_7')[],
): Promise<string[]> {
  const values = sql.join(
    kinds.map((kind) => sql`(${paymentMethodId}::uuid, ${kind})`),
    sql`, `,
  );
  const rows = rowsOf<{ kind: string }>(
    await tx.execute(sql`
      insert into payment_method_notices (payment_method_id, kind) values ${values}
      on conflict do nothing
      returning kind`),
  );
  return rows.map((row) => row.kind);
}

/** What invoices owe now, read under their contracts' money locks before charges are applied, by invoice id. */
export async function selectInvoiceAmountsOf(db: Db, invoiceIds: readonly string[]) {
  const rows = await db
    .select({
      id: invoices.id,
      status: invoices.status,
      totalCents: invoices.totalCents,
      amountPaidCents: invoices.amountPaidCents,
      creditedCents: invoices.creditedCents,
    })
    .from(invoices)
    .where(inArray(invoices.id, invoiceIds.length > 0 ? [...invoiceIds] : [NO_ID]));
  return new Map(rows.map((row) => [row.id, row]));
}
