import type { ClientContractDetail, ClientSummary } from '@shared/contracts/client-portal';
import type { ListQuery } from '@shared/contracts/common';
import { clientOwnsContract } from '@shared/contracts/contract-access';
import type { ClientContract } from '@shared/contracts/dashboard';
import { centsToAmount } from '@shared/money';
import { percentToBasisPoints } from '@shared/rates';
import type { Db } from '../../db/client';
import { businessToday } from '../../lib/business-day';
import { notFound } from '../../lib/errors';
import { findContractDetail } from '../contracts/contracts.service';
import type { SessionUser } from '../sessions/sessions';
import { getSettings } from '../settings/settings.service';
import { selectClientContractPage, selectClientSummary } from './client-portal.repo';

/** GET /api/client/summary: the figures of the client's dashboard and portal; zeros without a linked customer. */
export async function getClientSummary(db: Db, actor: SessionUser): Promise<ClientSummary> {
  if (!actor.customerId) return { activeContracts: 0, outstandingBalance: 0, pendingInvoices: 0, nextPayment: null };
  const [tax, contractSettings] = await Promise.all([getSettings(db, 'tax'), getSettings(db, 'contracts')]);
  const figures = await selectClientSummary(db, {
    customerId: actor.customerId,
    today: businessToday(),
    taxRateBp: percentToBasisPoints(tax.defaultTaxRate),
    taxIncluded: tax.taxIncluded,
    stopAtTerm: contractSettings.pausePaymentsAfterExpiry,
  });
  return {
    activeContracts: figures.activeContracts,
    outstandingBalance: centsToAmount(figures.outstandingCents),
    pendingInvoices: figures.pendingInvoices,
    nextPayment: figures.next
      ? {
          amount: centsToAmount(figures.next.amountCents),
          dueDate: figures.next.dueDate,
          source: figures.next.source,
          invoiceId: figures.next.invoiceId,
        }
      : null,
  };
}

/** GET /api/client/contracts: the client's own contracts (its linked customer's), never drafts. */
export async function listClientContracts(
  db: Db,
  actor: SessionUser,
  page: ListQuery,
): Promise<{ rows: ClientContract[]; total: number }> {
  if (!actor.customerId) return { rows: [], total: 0 };
  const result = await selectClientContractPage(db, actor.customerId, page);
  return {
    total: result.total,
    rows: result.rows.map((c) => ({
      id: c.id,
      title: c.title,
      description: c.description,
      status: c.status,
      startDate: c.startDate,
      termMonths: c.termMonths,
      paymentMode: c.paymentMode,
      totalAmount: centsToAmount(c.totalCents),
      monthlyAmount: centsToAmount(c.monthlyAmountCents),
    })),
  };
}

/** GET /api/client/contracts/{id}: one of the client's own contracts; any other id answers 404. */
export async function getClientContract(db: Db, actor: SessionUser, id: string): Promise<ClientContractDetail> {
  const detail = await findContractDetail(db, id);
  if (!detail || !clientOwnsContract(actor, detail.contract)) throw notFound('Contract');
  const c = detail.contract;
  return {
    id: c.id,
    title: c.title,
    description: c.description,
    status: c.status,
    startDate: c.startDate,
    termMonths: c.termMonths,
    autoStopDate: c.autoStopDate,
    paymentMode: c.paymentMode,
    totalAmount: centsToAmount(c.totalCents),
    monthlyAmount: centsToAmount(c.monthlyAmountCents),
    seasonalMonthlyAmount: centsToAmount(c.seasonalMonthlyAmountCents),
    setupFee: centsToAmount(c.setupFeeCents),
    firstInvoiceAmount: centsToAmount(c.monthlyAmountCents + c.setupFeeCents),
    package: detail.package ? { name: detail.package.name, price: centsToAmount(c.packagePriceCents) } : null,
    lineItems: detail.lineItems.map(({ line, product }) => ({
      name: product.name,
      adType: product.adType,
      quantity: line.quantity,
      unitPrice: centsToAmount(line.unitPriceCents),
      discount: centsToAmount(line.discountCents),
      lineTotal: centsToAmount(line.lineTotalCents),
    })),
  };
}
