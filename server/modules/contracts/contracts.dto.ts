import { canWriteContract } from '@shared/contracts/contract-access';
import { amendmentRefusal, canDeleteContract, canEditContract } from '@shared/contracts/contract-lifecycle';
import { contractNextStep } from '@shared/contracts/contract-next-step';
import type { Contract, ContractProductRef, ContractSummary } from '@shared/contracts/contract-responses';
import type { ContractStatus, PauseReason, PaymentMode } from '@shared/contracts/contract-vocabulary';
import type { UnderDeliveryRemedy } from '@shared/contracts/delivery-vocabulary';
import type { ContractIoSummary } from '@shared/contracts/insertion-orders';
import type { PriceMetric } from '@shared/contracts/product-vocabulary';
import { centsToAmount, lineTotalCents } from '@shared/money';
import { businessToday } from '../../lib/business-day';
import { payLink } from '../../lib/capability-links';
import type { ContractPreview } from '../billing/billing.service';
import type { SessionUser } from '../sessions/sessions';
import type { ContractDetailRows, ContractListRow, ContractRow, ProductRow } from './contracts.repo';

export { canReadContract, canWriteContract } from '@shared/contracts/contract-access';

const amount = (cents: number) => centsToAmount(cents);
const amountOrNull = (cents: number | null) => (cents === null ? null : centsToAmount(cents));

/**
 * `baseUrl` is the public origin (lib/public-url.ts): the pay link shown on screen is the one e-mailed.
 */
export function toContractSummary(
  actor: SessionUser,
  r: ContractListRow,
  baseUrl: string,
  preview: ContractPreview,
): ContractSummary {
  const c = r.contract;
  const writable = canWriteContract(actor, c);
  return {
    id: c.id,
    customerId: c.customerId,
    customerName: r.customerName,
    billToCustomerId: c.billToCustomerId,
    billToName: r.billToName,
    agencyCommissionPercent: c.agencyCommissionBp === null ? null : c.agencyCommissionBp / 100,
    agencyBillingMode: c.agencyBillingMode,
    title: c.title,
    status: c.status as ContractStatus,
    pauseReason: c.status === 'paused' ? ((c.pauseReason as PauseReason | null) ?? 'manual') : null,
    description: c.description,
    startDate: c.startDate,
    termMonths: c.termMonths,
    autoStopDate: c.autoStopDate,
    paymentMode: c.paymentMode as PaymentMode,
    underDeliveryRemedy: c.underDeliveryRemedy as UnderDeliveryRemedy,
    payLinkToken: c.payLinkToken,
    payLinkUrl: c.payLinkToken ? payLink(baseUrl, c.payLinkToken) : null,
    total: amount(c.totalCents),
    totalAmount: amount(c.totalCents),
    ...previewFields(preview),
    setupFee: amount(c.setupFeeCents),
    packagePrice: amount(c.packagePriceCents),
    lineItemsTotal: amount(c.lineItemsTotalCents),
    stripeSubscriptionId: c.stripeSubscriptionId,
    stripePaymentLinkId: c.stripePaymentLinkId,
    stripeCustomerId: c.stripeCustomerId,
    packageId: c.packageId,
    salesRepId: c.salesRepId,
    salesRepName: r.salesRepFirstName === null ? null : `${r.salesRepFirstName} ${r.salesRepLastName ?? ''}`.trim(),
    cancelReason: c.cancelReason,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
    canEdit: writable && canEditContract(c),
    canDelete: writable && canDeleteContract(c),
    canAmend: writable && amendmentRefusal(c) === null,
  };
}

/**
 * The billing engine's figures of a contract (billing.service previewContracts), as the API answers them; the
 * first invoice as issued once it is.
 */
function previewFields(preview: ContractPreview) {
  const issued = preview.issuedFirstInvoice;
  return {
    monthlyAmount: amount(preview.monthlyCents),
    seasonalMonthlyAmount: amount(preview.seasonalMonthlyCents),
    oneTimeAmount: amount(preview.oneTimeCents),
    firstInvoiceAmount: amount(issued?.totalCents ?? preview.firstInvoice.totalCents),
    firstInvoiceDate: issued?.periodStart ?? preview.firstInvoice.periodStart,
    firstInvoiceDueDate: issued?.dueDate ?? preview.firstInvoice.dueDate,
    termValue: preview.termValueCents === null ? null : amount(preview.termValueCents),
  };
}

function toProductRef(p: ProductRow): ContractProductRef {
  return {
    id: p.id,
    name: p.name,
    adType: p.adType,
    defaultPrice: amount(p.defaultPriceCents),
    seasonalPrice: amountOrNull(p.seasonalPriceCents),
    priceMetric: p.priceMetric,
  };
}

export function toContract(
  actor: SessionUser,
  d: ContractDetailRows,
  baseUrl: string,
  preview: ContractPreview,
  insertionOrder: ContractIoSummary | null,
): Contract {
  const issued = preview.issuedFirstInvoice;
  return {
    ...toContractSummary(actor, d, baseUrl, preview),
    customer: d.customer
      ? { id: d.customer.id, name: d.customer.name, email: d.customer.email, company: d.customer.company }
      : null,
    package: d.package
      ? {
          id: d.package.id,
          name: d.package.name,
          description: d.package.description,
          price: amount(d.package.priceCents),
          items: d.packageItems.map(({ item, product }) => ({
            id: item.id,
            productId: item.productId,
            productName: item.productName,
            quantity: item.quantity,
            customPrice: amountOrNull(item.customPriceCents),
            customDescription: item.customDescription,
            notes: item.notes,
            product: product ? toProductRef(product) : null,
          })),
        }
      : null,
    lineItems: d.lineItems.map(({ line, product }) => ({
      id: line.id,
      productId: line.productId,
      quantity: line.quantity,
      unitPrice: amount(line.unitPriceCents),
      discount: amount(line.discountCents),
      lineTotal: amount(line.lineTotalCents),
      priceMetric: line.priceMetric as PriceMetric,
      seasonalPrice: amountOrNull(line.seasonalPriceCents),
      seasonalLineTotal: amount(
        line.seasonalPriceCents === null
          ? line.lineTotalCents
          : lineTotalCents({ ...line, unitPriceCents: line.seasonalPriceCents }),
      ),
      flightStart: line.flightStart,
      flightEnd: line.flightEnd,
      product: toProductRef(product),
    })),
    oneTimeCharges: preview.oneTimeCharges.map((charge) => ({
      kind: charge.kind,
      description: charge.description,
      amount: amount(charge.amountCents),
      billedOn: charge.billedOn,
      inSeason: charge.seasonal,
    })),
    firstInvoice: issued
      ? {
          periodStart: issued.periodStart,
          dueDate: issued.dueDate,
          subtotal: amount(issued.subtotalCents),
          tax: amount(issued.taxCents),
          total: amount(issued.totalCents),
          number: issued.number,
        }
      : {
          periodStart: preview.firstInvoice.periodStart,
          dueDate: preview.firstInvoice.dueDate,
          subtotal: amount(preview.firstInvoice.subtotalCents),
          tax: amount(preview.firstInvoice.taxCents),
          total: amount(preview.firstInvoice.totalCents),
          number: null,
        },
    inventoryHoldUntil:
      d.contract.status === 'sent' && d.holdUntil && d.lineItems.some(({ product }) => product.inventoryRequired)
        ? d.holdUntil.toISOString()
        : null,
    renewalOfId: d.contract.renewalOfId,
    renewedBy: d.renewedBy,
    insertionOrder,
    nextStep: contractNextStep({
      status: d.contract.status,
      paymentMode: d.contract.paymentMode,
      insertionOrderStatus: insertionOrder?.status ?? null,
      firstInvoiceDate: issued?.periodStart ?? preview.firstInvoice.periodStart,
      today: businessToday(),
    }),
  };
}

/**
 * What the audit trail keeps of a contract: the stored row (figures in cents) and its lines, without the
 * pay-link token (a link that grants paying is its recipient's alone: lib/capability-links.ts).
 */
export function auditView(row: ContractRow, lines?: unknown[]) {
  // search_text is derived from the fields beside it (decision 045): not part of what changed.
  const { payLinkToken: _secret, searchText: _derived, ...kept } = row;
  return lines === undefined ? kept : { ...kept, lineItems: lines };
}
