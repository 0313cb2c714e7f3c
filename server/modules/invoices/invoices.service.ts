import {
  type BillableContract,
  billingSchedule,
  periodIndexOn,
  taxRateBasisPoints,
  taxRatePercent,
  utcToday,
} from '@shared/billing';
import {
  type ContractSchedule,
  INVOICE_MESSAGES,
  type Invoice,
  type InvoiceListQuery,
  type InvoiceStatus,
  type InvoiceSummary,
  type ManualPayment,
  type ReceiptSent,
} from '@shared/contracts/invoices';
import { centsToAmount, formatCents } from '@shared/money';
import { can } from '@shared/permissions';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { invoices, payments } from '../../db/schema';
import { recordAudit } from '../../lib/audit';
import { badRequest, conflict, notFound } from '../../lib/errors';
import { enqueueEmail, type Mailer } from '../../lib/mailer';
import type { SessionUser } from '../auth/sessions';
import { reverseCommissionForInvoice } from '../commissions/commissions.ledger';
import { canReadContract } from '../contracts/contracts.dto';
import { selectContractDetail } from '../contracts/contracts.repo';
import { getSettings } from '../settings/settings.service';
import { toInvoice, toInvoiceSummary } from './invoices.dto';
import { invoiceVoidedEmail } from './invoices.emails';
import {
  type InvoiceListRow,
  type InvoiceScope,
  selectContractInvoiceRefs,
  selectInvoice,
  selectInvoiceFacts,
  selectInvoiceLines,
  selectInvoicePage,
  selectInvoicePayments,
  selectLatestPayment,
} from './invoices.repo';
import { applyPayment, emailFacts, queueReceipt, refundHandlerFor } from './payments.service';

type Actor = SessionUser;
export type InvoiceDeps = { db: Db; mailer: Mailer };

const INVOICE = 'Invoice';

// ---------------------------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------------------------

/** product.md section 3: all (invoice:read:any), a rep's own contracts', a client's own customer's. */
export function invoiceScope(actor: Actor): InvoiceScope | null {
  if (can(actor, 'invoice:read:any')) return { kind: 'all' };
  if (can(actor, 'invoice:read:own')) return { kind: 'rep', userId: actor.id };
  if (can(actor, 'invoice:read:client') && actor.customerId) return { kind: 'customer', customerId: actor.customerId };
  return null;
}

function canSee(actor: Actor, invoice: { customerId: string }, salesRepId: string | null): boolean {
  const scope = invoiceScope(actor);
  if (!scope) return false;
  if (scope.kind === 'all') return true;
  if (scope.kind === 'rep') return salesRepId === scope.userId;
  return invoice.customerId === scope.customerId;
}

export async function listInvoices(
  db: Db,
  actor: Actor,
  query: InvoiceListQuery,
): Promise<{ rows: InvoiceSummary[]; total: number }> {
  const scope = invoiceScope(actor);
  if (!scope) return { rows: [], total: 0 };
  const today = utcToday();
  const page = await selectInvoicePage(db, {
    scope,
    contractId: query.contractId,
    customerId: query.customerId,
    status: query.status,
    overdueBefore: query.overdue ? today : undefined,
    q: query.q || undefined,
    periodFrom: query.periodFrom,
    periodTo: query.periodTo,
    limit: query.limit,
    offset: query.offset,
  });
  return { total: page.total, rows: page.rows.map((row) => toInvoiceSummary(row, today)) };
}

/** The invoice (for the caller's eyes only: others' answer 404). */
async function findVisible(db: Db, actor: Actor, id: string): Promise<InvoiceListRow> {
  const row = await selectInvoice(db, id);
  if (!row || !canSee(actor, row.invoice, row.salesRepId)) throw notFound(INVOICE);
  return row;
}

export async function getInvoice(db: Db, actor: Actor, id: string): Promise<Invoice> {
  const row = await findVisible(db, actor, id);
  const [lines, paymentRows] = await Promise.all([selectInvoiceLines(db, id), selectInvoicePayments(db, id)]);
  return toInvoice(row, lines, paymentRows, utcToday());
}

// ---------------------------------------------------------------------------------------------------------
// Manual payments, void and refund, receipts
// ---------------------------------------------------------------------------------------------------------

/** A check, wire, cash or other payment recorded by finance: partial allowed, never more than due. */
export async function recordManualPayment(
  deps: InvoiceDeps,
  actor: Actor,
  id: string,
  body: ManualPayment,
): Promise<Invoice> {
  await findVisible(deps.db, actor, id);
  const today = utcToday();
  if (body.paidAt && body.paidAt > today) {
    throw badRequest(INVOICE_MESSAGES.paidAtFuture, { paidAt: [INVOICE_MESSAGES.paidAtFuture] });
  }
  // Today's payment carries the moment it was recorded; a back-dated one noon UTC of its day.
  const paidAt = !body.paidAt || body.paidAt === today ? new Date() : new Date(`${body.paidAt}T12:00:00Z`);
  await deps.db.transaction((tx) =>
    applyPayment(tx, {
      invoiceId: id,
      amountCents: body.amount,
      method: body.method,
      provider: 'manual',
      reference: body.reference,
      paidAt,
      recordedBy: actor.id,
    }),
  );
  deps.mailer.kick(deps.db);
  return getInvoice(deps.db, actor, id);
}

/**
 * Voids an invoice with a reason: an unpaid one is simply void; money received on it (paid, or partly
 * paid) is refunded: one refund row per payment received, through the provider's refund handler where
 * one is registered (Stripe). Commission earned on it is reversed. One conditional UPDATE decides.
 */
export async function voidInvoice(deps: InvoiceDeps, actor: Actor, id: string, reason: string): Promise<Invoice> {
  await findVisible(deps.db, actor, id);
  await deps.db.transaction(async (tx) => {
    const [voided] = await tx
      .update(invoices)
      .set({
        status: 'void',
        voidedAt: new Date(),
        voidReason: reason,
        refundedCents: invoices.amountPaidCents,
        updatedAt: new Date(),
      })
      .where(and(eq(invoices.id, id), inArray(invoices.status, ['pending', 'failed', 'paid'])))
      .returning();
    if (!voided) throw conflict(`${INVOICE_MESSAGES.isVoid} It cannot be voided again.`);

    const received = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.invoiceId, id), eq(payments.kind, 'payment'), eq(payments.status, 'succeeded')));
    for (const payment of received) {
      const handler = refundHandlerFor(payment.provider);
      if (handler) await handler(tx, payment);
      const [refund] = await tx
        .insert(payments)
        .values({
          invoiceId: id,
          contractId: payment.contractId,
          customerId: payment.customerId,
          kind: 'refund',
          status: 'succeeded',
          amountCents: payment.amountCents,
          method: payment.method,
          provider: payment.provider,
          providerPaymentId: payment.providerPaymentId,
          reference: `Refund of ${payment.reference ?? payment.providerPaymentId ?? payment.id}`.slice(0, 200),
          cardBrand: payment.cardBrand,
          cardLast4: payment.cardLast4,
          recordedBy: actor.id,
        })
        .onConflictDoNothing({
          target: [payments.provider, payments.providerPaymentId, payments.invoiceId, payments.kind],
        })
        .returning();
      if (refund) {
        await recordAudit(tx, {
          actorId: actor.id,
          action: 'payment.refunded',
          entity: 'payment',
          entityId: refund.id,
          after: {
            invoiceId: id,
            refundOf: payment.id,
            amountCents: refund.amountCents,
            method: refund.method,
            provider: refund.provider,
          },
        });
      }
    }
    await reverseCommissionForInvoice(tx, id);
    await recordAudit(tx, {
      actorId: actor.id,
      action: voided.amountPaidCents > 0 ? 'invoice.refunded' : 'invoice.voided',
      entity: 'invoice',
      entityId: id,
      after: { status: 'void', reason, refundedCents: voided.refundedCents, number: voided.number },
    });
    const facts = await selectInvoiceFacts(tx, id);
    await enqueueEmail(
      tx,
      invoiceVoidedEmail({
        invoice: emailFacts(voided, facts.contract),
        customer: { name: facts.customer.name, email: facts.customer.email },
        refundCents: voided.refundedCents,
      }),
    );
  });
  deps.mailer.kick(deps.db);
  return getInvoice(deps.db, actor, id);
}

/**
 * "Resend Receipt": the latest payment's receipt e-mailed again (the invoice's current balance).
 * 409 when the contract has no payment yet. The caller checks access to the contract.
 */
export async function sendLatestReceipt(tx: Db, actor: Actor, contractId: string): Promise<ReceiptSent> {
  const payment = await selectLatestPayment(tx, contractId);
  if (!payment) throw conflict(INVOICE_MESSAGES.noReceipt);
  const facts = await selectInvoiceFacts(tx, payment.invoiceId);
  await queueReceipt(tx, payment, facts.invoice, facts, { resent: true });
  await recordAudit(tx, {
    actorId: actor.id,
    action: 'receipt.resent',
    entity: 'invoice',
    entityId: facts.invoice.id,
    after: { paymentId: payment.id, to: facts.customer.email },
  });
  return {
    message: `The receipt for ${formatCents(payment.amountCents)} on invoice ${facts.invoice.number} was e-mailed to ${facts.customer.email}.`,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Schedule
// ---------------------------------------------------------------------------------------------------------

/**
 * The next 12 billing periods with their figures: from the start date for a contract not yet billed,
 * from the current period otherwise; stopping at the term's end when billing stops there. Nothing for
 * a canceled or completed contract.
 */
export async function contractSchedule(db: Db, actor: Actor, contractId: string): Promise<ContractSchedule> {
  const detail = await selectContractDetail(db, contractId);
  if (!detail || !canReadContract(actor, detail.contract)) throw notFound('Contract');
  const contract = detail.contract;
  const [tax, settings, issued] = await Promise.all([
    getSettings(db, 'tax'),
    getSettings(db, 'contracts'),
    selectContractInvoiceRefs(db, contractId),
  ]);
  const rateBp = taxRateBasisPoints(tax.defaultTaxRate);
  const stopsOn = settings.pausePaymentsAfterExpiry ? contract.autoStopDate : null;
  const base = {
    contractId,
    taxLabel: tax.taxLabel,
    taxRate: taxRatePercent(rateBp),
    taxIncluded: tax.taxIncluded,
    stopsOn,
  };
  if (contract.status === 'canceled' || contract.status === 'completed') return { ...base, items: [] };

  const billable: BillableContract & { startDate: string } = {
    startDate: contract.startDate,
    lines: detail.lineItems.map(({ line, product }) => ({
      description: product.name,
      productId: product.id,
      quantity: line.quantity,
      unitPriceCents: line.unitPriceCents,
      discountCents: line.discountCents,
      seasonalPriceCents: product.seasonalPriceCents,
    })),
    packageName: detail.package?.name ?? null,
    packagePriceCents: contract.packagePriceCents,
    setupFeeCents: contract.setupFeeCents,
  };
  const fromIndex = issued.length === 0 ? 0 : Math.max(0, periodIndexOn(contract.startDate, utcToday()));
  const byIndex = new Map(issued.map((i) => [i.periodIndex, i]));
  const entries = billingSchedule(billable, {
    fromIndex,
    count: 12,
    stopBefore: stopsOn,
    tax: { rateBp, included: tax.taxIncluded },
  });
  return {
    ...base,
    items: entries.map((e) => {
      const invoice = byIndex.get(e.index);
      return {
        periodIndex: e.index,
        periodStart: e.start,
        periodEnd: e.end,
        dueDate: e.due,
        subtotal: centsToAmount(e.subtotalCents),
        setupFee: centsToAmount(e.setupFeeCents),
        tax: centsToAmount(e.taxCents),
        total: centsToAmount(e.totalCents),
        inSeason: e.inSeason,
        seasonalPricing: e.seasonalPricing,
        invoice: invoice ? { id: invoice.id, number: invoice.number, status: invoice.status as InvoiceStatus } : null,
      };
    }),
  };
}

// ---------------------------------------------------------------------------------------------------------
// PDF data
// ---------------------------------------------------------------------------------------------------------

/** What the PDF prints: the invoice (visible to the caller), its lines and the customer's address. */
export async function invoiceForPdf(db: Db, actor: Actor, id: string) {
  const invoice = await getInvoice(db, actor, id);
  const facts = await selectInvoiceFacts(db, id);
  return { invoice, customer: facts.customer, contract: facts.contract };
}
