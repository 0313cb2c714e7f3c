import { taxPartOf } from '@shared/billing';
import type { CreditEntryKind, CreditNoteKind } from '@shared/contracts/credit-notes';
import { and, eq, gte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { sqlAmountDue, sqlPayable } from '../../db/invoice-amounts';
import { takeNextNumber } from '../../db/number-series';
import { creditNotes, customerCreditEntries, customers, type invoices, type payments } from '../../db/schema';
import { recordAudit } from '../../lib/audit';
import { addCredit, sqlAddPayments } from '../invoices/invoices.ledger';
import { emitWebhookEvent } from '../webhooks/webhook-events';

/**
 * The credit ledger, inside the caller's transaction (after the contract's lock, the first lock of every
 * money path; then the CN series' row; then the customer's row):
 * - issueCreditNoteRow: the credit note, and the customer's credit balance for what goes beyond the amount
 *   due;
 * - applyCustomerCredit: a customer's balance pays its newly issued invoices (payments of method `credit`);
 * - returnAppliedCredit: such a payment given back to the balance when its invoice is voided;
 * - refundCustomerCreditRow: finance pays the balance back.
 * The invoices' credited and paid amounts and their status are the invoice ledger's to write
 * (invoices/invoices.ledger.ts), which these call. Each change is one conditional UPDATE whose row count
 * decides. See docs/decisions/024-credit-notes.md.
 */

export type CreditNoteRow = typeof creditNotes.$inferSelect;
export type InvoiceRow = typeof invoices.$inferSelect;
type CustomerCreditEntryRow = typeof customerCreditEntries.$inferSelect;

export type CreditNoteIssue = {
  invoiceId: string;
  kind: CreditNoteKind;
  reason: string;
  amountCents: number;
  actorId: string | null;
};

export type IssuedCreditNote = {
  note: CreditNoteRow;
  invoice: InvoiceRow;
  /** The invoice was unpaid and the credit settled what remained due (it is paid now). */
  settled: boolean;
};

/**
 * Credits an invoice through the invoice ledger (addCredit: ONE conditional UPDATE of what is credited, never
 * past the total, never on a void invoice but for a void's own note, only from the state it was read in; an
 * unpaid invoice whose amount due reaches zero is settled), then the credit note, numbered from the CN series.
 * The part of the credit the amount due absorbed is `applied`; the rest goes to the customer's credit
 * balance. Undefined when the invoice is unknown or could not take the credit.
 */
export async function issueCreditNoteRow(tx: Db, input: CreditNoteIssue): Promise<IssuedCreditNote | undefined> {
  const credited = await addCredit(tx, {
    invoiceId: input.invoiceId,
    amountCents: input.amountCents,
    voiding: input.kind === 'void',
  });
  if (!credited) return undefined;
  const { before, invoice, appliedCents, settled } = credited;
  const toBalanceCents = input.amountCents - appliedCents;

  const [note] = await tx
    .insert(creditNotes)
    .values({
      number: await takeNextNumber(tx, 'CN'),
      invoiceId: invoice.id,
      contractId: invoice.contractId,
      customerId: invoice.customerId,
      kind: input.kind,
      reason: input.reason,
      amountCents: input.amountCents,
      taxCents: taxPartOf(input.amountCents, invoice.taxRateBp),
      appliedCents,
      toBalanceCents,
      createdBy: input.actorId,
    })
    .returning();
  if (toBalanceCents > 0) {
    await moveBalance(tx, invoice.customerId, {
      kind: 'credit',
      amountCents: toBalanceCents,
      creditNoteId: note.id,
      invoiceId: invoice.id,
      createdBy: input.actorId,
    });
  }
  await emitWebhookEvent(tx, 'credit_note.issued', { ids: [note.id] });
  await recordAudit(tx, {
    actorId: input.actorId,
    action: 'credit_note.issued',
    entity: 'credit_note',
    entityId: note.id,
    before: { invoiceStatus: before.status, creditedCents: before.creditedCents },
    after: {
      number: note.number,
      invoiceId: invoice.id,
      invoiceNumber: invoice.number,
      kind: note.kind,
      reason: note.reason,
      amountCents: note.amountCents,
      appliedCents,
      toBalanceCents,
      invoiceStatus: invoice.status,
      creditedCents: invoice.creditedCents,
    },
  });
  return { note, invoice, settled };
}

/**
 * Applies the customers' credit balances to invoices just issued (the billing run's, in its transaction):
 * each customer's balance pays its invoices in period order as far as it goes, as payments of method
 * `credit` ("Credit applied"), with an `applied` entry each and the balance lowered by the same amount; the
 * invoice ledger's sqlAddPayments adds those payments to the invoices. Set-based: one statement for all of
 * them (this module writes the payments and balances, the invoice ledger's part of it the invoices).
 * Answers what was applied per invoice.
 */
export async function applyCustomerCredit(
  tx: Db,
  invoiceIds: readonly string[],
): Promise<{ invoiceId: string; customerId: string; appliedCents: number; status: string; amountPaidCents: number }[]> {
  if (invoiceIds.length === 0) return [];
  const ids = invoiceIds.join(',');
  const result = await tx.execute(sql`
    with fresh as (
      select i.id, i.customer_id, i.contract_id, i.period_start, i.number, ${sqlAmountDue('i')} as due
      from invoices i
      where i.id = any(string_to_array(${ids}, ',')::uuid[]) and ${sqlPayable('i')}
    ),
    balances as (
      select c.id, c.credit_balance_cents as balance
      from customers c
      where c.id in (select customer_id from fresh) and c.credit_balance_cents > 0
      order by c.id
      for no key update
    ),
    running as (
      select f.*, b.balance,
             sum(f.due) over (partition by f.customer_id order by f.period_start, f.number
                              rows between unbounded preceding and current row) - f.due as before
      from fresh f
      join balances b on b.id = f.customer_id
      where f.due > 0
    ),
    allocated as (
      select r.id, r.customer_id, r.contract_id, least(r.due, r.balance - r.before) as applied
      from running r
      where r.balance > r.before
    ),
    paid as (
      insert into payments (invoice_id, contract_id, customer_id, kind, status, amount_cents, method, provider, reference)
      select a.id, a.contract_id, a.customer_id, 'payment', 'succeeded', a.applied, 'credit', 'credit', 'Credit balance'
      from allocated a
      returning id, invoice_id, customer_id, amount_cents
    ),
    entries as (
      insert into customer_credit_entries (customer_id, kind, amount_cents, invoice_id, payment_id)
      select p.customer_id, 'applied', -p.amount_cents, p.invoice_id, p.id from paid p
      returning customer_id
    ),
    lowered as (
      update customers c set credit_balance_cents = c.credit_balance_cents - t.applied, updated_at = now()
      from (select customer_id, sum(applied) as applied from allocated group by customer_id) t
      where c.id = t.customer_id
      returning c.id
    ),
    credit_payments as (
      select p.invoice_id, p.amount_cents from paid p
    ),
    updated as (${sqlAddPayments('credit_payments')}),
    audit as (
      insert into audit_events (actor_id, action, entity, entity_id, after)
      select null, 'payment.recorded', 'payment', p.id::text,
             jsonb_build_object('invoiceId', p.invoice_id, 'amountCents', p.amount_cents, 'method', 'credit',
                                'provider', 'credit')
      from paid p
      returning id
    )
    select u.id as invoice_id, u.customer_id, u.added_cents as applied, u.status, u.amount_paid_cents from updated u`);
  const rows = (
    result as unknown as {
      rows: {
        invoice_id: string;
        customer_id: string;
        applied: string | number;
        status: string;
        amount_paid_cents: string | number;
      }[];
    }
  ).rows;
  return rows.map((r) => ({
    invoiceId: r.invoice_id,
    customerId: r.customer_id,
    appliedCents: Number(r.applied),
    status: r.status,
    amountPaidCents: Number(r.amount_paid_cents),
  }));
}

/** A voided invoice's credit payment (or part of it) goes back to the customer's balance, once per payment. */
export async function returnAppliedCredit(
  tx: Db,
  payment: typeof payments.$inferSelect,
  amountCents: number,
  actorId: string | null,
): Promise<void> {
  if (amountCents <= 0) return;
  await moveBalance(tx, payment.customerId, {
    kind: 'unapplied',
    amountCents,
    invoiceId: payment.invoiceId,
    paymentId: payment.id,
    createdBy: actorId,
  });
}

/**
 * Finance pays back part or all of a customer's credit balance: ONE conditional UPDATE that never takes the
 * balance below zero decides. Undefined when the balance is smaller than the amount.
 */
export async function refundCustomerCreditRow(
  tx: Db,
  input: {
    customerId: string;
    amountCents: number;
    method: string;
    reference: string | null;
    actorId: string | null;
  },
): Promise<CustomerCreditEntryRow | undefined> {
  const [lowered] = await tx
    .update(customers)
    .set({ creditBalanceCents: sql`${customers.creditBalanceCents} - ${input.amountCents}`, updatedAt: new Date() })
    .where(and(eq(customers.id, input.customerId), gte(customers.creditBalanceCents, input.amountCents)))
    .returning({ id: customers.id, balance: customers.creditBalanceCents });
  if (!lowered) return undefined;
  const [entry] = await tx
    .insert(customerCreditEntries)
    .values({
      customerId: input.customerId,
      kind: 'refunded',
      amountCents: -input.amountCents,
      method: input.method,
      reference: input.reference,
      createdBy: input.actorId,
    })
    .returning();
  await recordAudit(tx, {
    actorId: input.actorId,
    action: 'customer.credit_refunded',
    entity: 'customer',
    entityId: input.customerId,
    after: {
      amountCents: input.amountCents,
      method: input.method,
      reference: input.reference,
      balanceCents: lowered.balance,
    },
  });
  return entry;
}

/** One movement of a balance upwards: the entry and the customer's balance, in the caller's transaction. */
async function moveBalance(
  tx: Db,
  customerId: string,
  entry: {
    kind: Extract<CreditEntryKind, 'credit' | 'unapplied'>;
    amountCents: number;
    creditNoteId?: string;
    invoiceId?: string;
    paymentId?: string;
    createdBy: string | null;
  },
): Promise<void> {
  await tx.insert(customerCreditEntries).values({ customerId, ...entry });
  await tx
    .update(customers)
    .set({ creditBalanceCents: sql`${customers.creditBalanceCents} + ${entry.amountCents}`, updatedAt: new Date() })
    .where(eq(customers.id, customerId));
}
