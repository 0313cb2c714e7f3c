import type { DocumentExport } from '@shared/contracts/accounting-formats';
import type { InvoiceAutopay } from '@shared/contracts/autopay';
import type { CreditNote, CreditNoteKind } from '@shared/contracts/credit-notes';
import type { DeliveryPeriod } from '@shared/contracts/delivery';
import { dunningStageOf } from '@shared/contracts/invoice-vocabulary';
import type {
  Invoice,
  InvoiceLine,
  InvoiceStatus,
  InvoiceSummary,
  Payment,
  PaymentMethod,
  PaymentProvider,
} from '@shared/contracts/invoices';
import { amountDueCents, creditableCents, isPayable } from '@shared/invoice-amounts';
import { centsToAmount } from '@shared/money';
import { basisPointsToPercent } from '@shared/rates';
import type { CreditNoteListRow, InvoiceLineRow, InvoiceListRow, PaymentRow } from './invoices.repo';

const amount = (cents: number) => centsToAmount(cents);

/** Unpaid (pending or failed) and due before today. */
export function isOverdue(invoice: { status: string; dueDate: string }, today: string): boolean {
  return isPayable(invoice.status) && invoice.dueDate < today;
}

export function toInvoiceSummary(row: InvoiceListRow, today: string): InvoiceSummary {
  const i = row.invoice;
  return {
    id: i.id,
    number: i.number,
    contractId: i.contractId,
    customerId: i.customerId,
    customerName: row.customerName,
    contractTitle: row.contractTitle,
    periodIndex: i.periodIndex,
    periodStart: i.periodStart,
    periodEnd: i.periodEnd,
    dueDate: i.dueDate,
    status: i.status as InvoiceStatus,
    subtotal: amount(i.subtotalCents),
    setupFee: amount(i.setupFeeCents),
    agencyCommission: amount(i.agencyCommissionCents),
    agencyBillingMode: i.agencyBillingMode ?? null,
    tax: amount(i.taxCents),
    taxLabel: i.taxLabel,
    taxRate: basisPointsToPercent(i.taxRateBp),
    taxIncluded: i.taxIncluded,
    total: amount(i.totalCents),
    amount: amount(i.totalCents),
    amountPaid: amount(i.amountPaidCents),
    amountDue: amount(amountDueCents(i)),
    refunded: amount(i.refundedCents),
    credited: amount(i.creditedCents),
    creditable: amount(creditableCents(i)),
    inSeason: i.inSeason,
    paidAt: i.paidAt?.toISOString() ?? null,
    voidedAt: i.voidedAt?.toISOString() ?? null,
    voidReason: i.voidReason,
    issuedAt: i.issuedAt.toISOString(),
    overdue: isOverdue(i, today),
    dunningStage: dunningStageOf({
      overdue: isOverdue(i, today),
      reminderLevel: row.reminderLevel,
      contractPausedForNonPayment: row.contractPausedForNonPayment,
    }),
  };
}

export function toInvoiceLine(l: InvoiceLineRow): InvoiceLine {
  return {
    id: l.id,
    kind: l.kind as InvoiceLine['kind'],
    description: l.description,
    productId: l.productId,
    quantity: l.quantity,
    unitPrice: amount(l.unitPriceCents),
    discount: amount(l.discountCents),
    amount: amount(l.amountCents),
    seasonal: l.seasonal,
    priceMetric: l.priceMetric as InvoiceLine['priceMetric'],
    coversStart: l.coversStart,
    coversEnd: l.coversEnd,
    proratedDays: l.proratedDays,
    periodDays: l.periodDays,
    impressions: l.impressions,
  };
}

/** A payment as the API shows it: never a provider's secret, only the card's brand and last 4 digits. */
export function toPayment(p: PaymentRow): Payment {
  return {
    id: p.id,
    invoiceId: p.invoiceId,
    kind: p.kind as Payment['kind'],
    status: p.status as Payment['status'],
    amount: amount(p.amountCents),
    method: p.method as PaymentMethod,
    provider: p.provider as PaymentProvider,
    reference: p.reference,
    cardBrand: p.cardBrand,
    cardLast4: p.cardLast4,
    failureMessage: p.failureMessage,
    paidAt: p.paidAt.toISOString(),
    createdAt: p.createdAt.toISOString(),
  };
}

/** A credit note as the API shows it (amounts in dollars), with the export batches that exported it. */
export function toCreditNote(row: CreditNoteListRow, exports: DocumentExport[] = []): CreditNote {
  const n = row.note;
  return {
    id: n.id,
    number: n.number,
    kind: n.kind as CreditNoteKind,
    reason: n.reason,
    invoiceId: n.invoiceId,
    invoiceNumber: row.invoiceNumber,
    contractId: n.contractId,
    customerId: n.customerId,
    customerName: row.customerName,
    amount: amount(n.amountCents),
    tax: amount(n.taxCents),
    appliedToInvoice: amount(n.appliedCents),
    toCreditBalance: amount(n.toBalanceCents),
    issuedAt: n.issuedAt.toISOString(),
    exports,
  };
}

export function toInvoice(
  row: InvoiceListRow,
  lines: InvoiceLineRow[],
  payments: PaymentRow[],
  creditNotes: CreditNoteListRow[],
  delivery: DeliveryPeriod[],
  today: string,
  exports: { invoice: DocumentExport[]; creditNotes: Map<string, DocumentExport[]> } = {
    invoice: [],
    creditNotes: new Map(),
  },
  autopay: InvoiceAutopay = null,
): Invoice {
  const creditAppliedCents = payments
    .filter((p) => p.method === 'credit' && p.status === 'succeeded')
    .reduce((sum, p) => sum + (p.kind === 'refund' ? -p.amountCents : p.amountCents), 0);
  return {
    ...toInvoiceSummary(row, today),
    autopay,
    lines: lines.map(toInvoiceLine),
    payments: payments.map(toPayment),
    creditApplied: amount(creditAppliedCents),
    creditNotes: creditNotes.map((note) => toCreditNote(note, exports.creditNotes.get(note.note.id))),
    delivery,
    exports: exports.invoice,
  };
}
