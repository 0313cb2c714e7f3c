import type {
  ClientContractDetail,
  ClientSummary,
  PaymentAlerts,
  PortalContract,
} from '@shared/contracts/client-portal';
import type { ListQuery } from '@shared/contracts/common';
import { clientOwnsContract } from '@shared/contracts/contract-access';
import { contractNextStep } from '@shared/contracts/contract-next-step';
import type { IoStatus } from '@shared/contracts/insertion-order-vocabulary';
import type { ContractSchedule } from '@shared/contracts/invoices';
import { centsToAmount, lineTotalCents, sumCents } from '@shared/money';
import type { Db } from '../../db/client';
import { businessToday } from '../../lib/business-day';
import { notFound } from '../../lib/errors';
import {
  type ContractPreview,
  contractSchedule,
  nextScheduledCharges,
  previewContracts,
} from '../billing/billing.service';
import { findContractDetail } from '../contracts/contracts.service';
import { customerInsertionOrders } from '../insertion-orders/insertion-orders.service';
import type { SessionUser } from '../sessions/sessions';
import {
  type PaymentAlertRows,
  selectActiveContracts,
  selectClientContractPage,
  selectOpenInvoiceFigures,
  selectPaymentAlerts,
} from './client-portal.repo';

/**
 * GET /api/client/summary: the figures of the client's dashboard and portal, over the contracts and invoices billed
 * to its customer (an agency's: every advertiser's billed to it); zeros without a linked customer.
 * The next payment is the earliest open invoice (what is due that day), or when none is open, the next
 * scheduled charges of the client's active contracts from the billing engine (billing.service
 * nextScheduledCharges: what each contract's schedule shows and the billing run will issue), summed by due
 * date: the earliest due date wins.
 */
export async function getClientSummary(db: Db, actor: SessionUser): Promise<ClientSummary> {
  if (!actor.customerId) {
    return {
      activeContracts: 0,
      outstandingBalance: 0,
      pendingInvoices: 0,
      payAllCount: 0,
      payAllAmount: 0,
      nextPayment: null,
      overdueCount: 0,
      overdueAmount: 0,
      overdueInvoices: [],
      pausedForNonPayment: [],
    };
  }
  const [figures, alerts] = await Promise.all([
    selectOpenInvoiceFigures(db, actor.customerId),
    selectPaymentAlerts(db, actor.customerId, businessToday()),
  ]);
  return {
    ...toPaymentAlerts(alerts),
    activeContracts: figures.activeContracts,
    outstandingBalance: centsToAmount(figures.outstandingCents),
    pendingInvoices: figures.pendingInvoices,
    payAllCount: figures.payableInvoices,
    payAllAmount: centsToAmount(figures.payableCents),
    nextPayment: figures.firstOpen
      ? {
          amount: centsToAmount(figures.firstOpen.amountCents),
          dueDate: figures.firstOpen.dueDate,
          source: 'invoice',
          invoiceId: figures.firstOpen.invoiceId,
        }
      : await nextScheduledPayment(db, actor.customerId),
  };
}

/** What the client is behind on, in dollars: overdue invoices (what to pay) and contracts paused for it. */
function toPaymentAlerts(alerts: PaymentAlertRows): PaymentAlerts {
  return {
    overdueCount: alerts.overdueCount,
    overdueAmount: centsToAmount(alerts.overdueCents),
    overdueInvoices: alerts.overdueInvoices.map((invoice) => ({
      id: invoice.id,
      number: invoice.number,
      contractId: invoice.contractId,
      dueDate: invoice.dueDate,
      amountDue: centsToAmount(invoice.dueCents),
    })),
    pausedForNonPayment: alerts.pausedForNonPayment,
  };
}

/** The engine's figures a client's contract lists show (billing.service previewContracts). */
function previewAmounts(preview: ContractPreview) {
  return {
    monthlyAmount: centsToAmount(preview.monthlyCents),
    oneTimeAmount: centsToAmount(preview.oneTimeCents),
    termValue: preview.termValueCents === null ? null : centsToAmount(preview.termValueCents),
  };
}

async function nextScheduledPayment(db: Db, customerId: string): Promise<ClientSummary['nextPayment']> {
  const charges = await nextScheduledCharges(db, await selectActiveContracts(db, customerId));
  if (charges.length === 0) return null;
  // The earliest due date: YYYY-MM-DD days sort as text.
  const dueDate = charges.map((charge) => charge.dueDate).sort()[0];
  const amountCents = sumCents(
    charges.filter((charge) => charge.dueDate === dueDate).map((charge) => charge.totalCents),
  );
  return { amount: centsToAmount(amountCents), dueDate, source: 'scheduled', invoiceId: null };
}

/** A sent contract's next step, with the first invoice's date from the billing engine (as issued once it is). */
function nextStepOf(
  contract: { status: string; paymentMode: string },
  preview: ContractPreview,
  io: { status: IoStatus } | null,
  today: string,
) {
  return contractNextStep({
    status: contract.status,
    paymentMode: contract.paymentMode,
    insertionOrderStatus: io?.status ?? null,
    firstInvoiceDate: (preview.issuedFirstInvoice ?? preview.firstInvoice).periodStart,
    today,
  });
}

/**
 * GET /api/client/contracts: the contracts billed to the client's linked customer, never drafts, each with its
 * advertiser (the contract's customer: the client's own, or for an agency the advertiser it buys for).
 */
export async function listClientContracts(
  db: Db,
  actor: SessionUser,
  page: ListQuery,
): Promise<{ rows: PortalContract[]; total: number }> {
  if (!actor.customerId) return { rows: [], total: 0 };
  const result = await selectClientContractPage(db, actor.customerId, page);
  const today = businessToday();
  const rows = result.rows.map((row) => row.contract);
  const [previews, ios] = await Promise.all([
    previewContracts(db, rows),
    customerInsertionOrders(
      db,
      rows.map((c) => c.id),
    ),
  ]);
  return {
    total: result.total,
    rows: result.rows.map(({ contract: c, advertiserName }) => ({
      id: c.id,
      advertiserId: c.customerId,
      advertiserName,
      title: c.title,
      description: c.description,
      status: c.status,
      startDate: c.startDate,
      termMonths: c.termMonths,
      paymentMode: c.paymentMode,
      totalAmount: centsToAmount(c.totalCents),
      ...previewAmounts(previews.get(c.id)!),
      insertionOrder: ios.get(c.id) ?? null,
      nextStep: nextStepOf(c, previews.get(c.id)!, ios.get(c.id) ?? null, today),
    })),
  };
}

/** GET /api/client/contracts/{id}: one of the client's own contracts; any other id answers 404. */
export async function getClientContract(db: Db, actor: SessionUser, id: string): Promise<ClientContractDetail> {
  const detail = await findContractDetail(db, id);
  if (!detail || !clientOwnsContract(actor, detail.contract)) throw notFound('Contract');
  const c = detail.contract;
  const [previews, alerts, ios] = await Promise.all([
    previewContracts(db, [c]),
    selectPaymentAlerts(db, c.billToCustomerId, businessToday(), c.id),
    customerInsertionOrders(db, [c.id]),
  ]);
  const preview = previews.get(c.id)!;
  const { pausedForNonPayment: _, ...overdue } = toPaymentAlerts(alerts);
  const first = preview.issuedFirstInvoice ?? preview.firstInvoice;
  return {
    id: c.id,
    advertiserId: c.customerId,
    advertiserName: detail.customer?.name ?? '',
    insertionOrder: ios.get(c.id) ?? null,
    nextStep: nextStepOf(c, preview, ios.get(c.id) ?? null, businessToday()),
    title: c.title,
    description: c.description,
    status: c.status,
    startDate: c.startDate,
    termMonths: c.termMonths,
    autoStopDate: c.autoStopDate,
    paymentMode: c.paymentMode,
    pauseReason: c.status === 'paused' ? ((c.pauseReason as ClientContractDetail['pauseReason']) ?? null) : null,
    underDeliveryRemedy: c.underDeliveryRemedy as ClientContractDetail['underDeliveryRemedy'],
    ...overdue,
    totalAmount: centsToAmount(c.totalCents),
    ...previewAmounts(preview),
    seasonalMonthlyAmount: centsToAmount(preview.seasonalMonthlyCents),
    setupFee: centsToAmount(c.setupFeeCents),
    oneTimeCharges: preview.oneTimeCharges.map((charge) => ({
      kind: charge.kind,
      description: charge.description,
      amount: centsToAmount(charge.amountCents),
      billedOn: charge.billedOn,
      inSeason: charge.seasonal,
    })),
    firstInvoiceAmount: centsToAmount(first.totalCents),
    firstInvoiceDate: first.periodStart,
    firstInvoiceDueDate: first.dueDate,
    package: detail.package ? { name: detail.package.name, price: centsToAmount(c.packagePriceCents) } : null,
    lineItems: detail.lineItems.map(({ line, product }) => ({
      id: line.id,
      name: product.name,
      adType: product.adType,
      priceMetric: line.priceMetric as ClientContractDetail['lineItems'][number]['priceMetric'],
      quantity: line.quantity,
      unitPrice: centsToAmount(line.unitPriceCents),
      discount: centsToAmount(line.discountCents),
      lineTotal: centsToAmount(line.lineTotalCents),
      seasonalPrice: line.seasonalPriceCents === null ? null : centsToAmount(line.seasonalPriceCents),
      seasonalLineTotal: centsToAmount(
        line.seasonalPriceCents === null
          ? line.lineTotalCents
          : lineTotalCents({ ...line, unitPriceCents: line.seasonalPriceCents }),
      ),
      flightStart: line.flightStart,
      flightEnd: line.flightEnd,
    })),
  };
}

/**
 * GET /api/client/contracts/{id}/schedule: the upcoming invoices of one of the client's own contracts, from the
 * billing engine exactly as the staff's contract page shows them (billing.service contractSchedule).
 */
export async function getClientContractSchedule(db: Db, actor: SessionUser, id: string): Promise<ContractSchedule> {
  const detail = await findContractDetail(db, id);
  if (!detail || !clientOwnsContract(actor, detail.contract)) throw notFound('Contract');
  return contractSchedule(db, actor, id);
}
