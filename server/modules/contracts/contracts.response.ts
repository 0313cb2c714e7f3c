import type { ContractNextStep } from '@shared/contracts/contract-next-step';
import type {
  AmendmentNextInvoice,
  AmendmentPreview,
  Contract,
  ContractCustomer,
  ContractFirstInvoice,
  ContractLineItem,
  ContractOneTimeCharge,
  ContractPackage,
  ContractPackageItem,
  ContractProductRef,
  ContractSummary,
  PaymentLinkResponse,
} from '@shared/contracts/contract-responses';
import type { RenewalDue } from '@shared/contracts/renewal-vocabulary';
import {
  arrayOf,
  boolean,
  integer,
  nullable,
  nullableInteger,
  nullableNumber,
  nullableString,
  number,
  object,
  string,
} from '../../lib/response-schema';
import { contractIoSummaryResponse } from '../insertion-orders/insertion-orders.response';

/** A sent contract's next step (shared/contracts/contract-next-step.ts): the staff and the client answers carry it. */
export const contractNextStepResponse = nullable(
  object<ContractNextStep>({ kind: string, signed: boolean, firstInvoiceOn: string }),
);

/** The answers of GET /api/contracts and GET /api/contracts/:id, for fast serialisation (lib/response-schema.ts). */
const summaryProperties = {
  id: string,
  customerId: string,
  customerName: nullableString,
  billToCustomerId: string,
  billToName: nullableString,
  agencyCommissionPercent: nullableNumber,
  agencyBillingMode: nullableString,
  title: nullableString,
  status: string,
  pauseReason: nullableString,
  description: nullableString,
  startDate: string,
  termMonths: nullableInteger,
  autoStopDate: nullableString,
  paymentMode: string,
  underDeliveryRemedy: string,
  payLinkToken: nullableString,
  payLinkUrl: nullableString,
  total: number,
  totalAmount: number,
  monthlyAmount: number,
  oneTimeAmount: number,
  firstInvoiceAmount: number,
  firstInvoiceDate: string,
  firstInvoiceDueDate: string,
  termValue: nullableNumber,
  seasonalMonthlyAmount: number,
  setupFee: number,
  packagePrice: number,
  lineItemsTotal: number,
  stripeSubscriptionId: nullableString,
  stripePaymentLinkId: nullableString,
  stripeCustomerId: nullableString,
  packageId: nullableString,
  salesRepId: nullableString,
  salesRepName: nullableString,
  cancelReason: nullableString,
  createdAt: string,
  updatedAt: string,
  canEdit: boolean,
  canDelete: boolean,
  canAmend: boolean,
} satisfies Record<keyof ContractSummary, unknown>;

export const contractSummaryResponse = object<ContractSummary>(summaryProperties);
export const contractListResponse = arrayOf(contractSummaryResponse);

const productRef = object<ContractProductRef>({
  id: string,
  name: string,
  adType: string,
  defaultPrice: number,
  seasonalPrice: nullableNumber,
  priceMetric: string,
});

export const contractResponse = object<Contract>({
  ...summaryProperties,
  customer: nullable(object<ContractCustomer>({ id: string, name: string, email: string, company: nullableString })),
  package: nullable(
    object<ContractPackage>({
      id: string,
      name: string,
      description: nullableString,
      price: number,
      items: arrayOf(
        object<ContractPackageItem>({
          id: string,
          productId: nullableString,
          productName: nullableString,
          quantity: integer,
          customPrice: nullableNumber,
          customDescription: nullableString,
          notes: nullableString,
          product: nullable(productRef),
        }),
      ),
    }),
  ),
  lineItems: arrayOf(
    object<ContractLineItem>({
      id: string,
      productId: string,
      quantity: integer,
      unitPrice: number,
      discount: number,
      lineTotal: number,
      priceMetric: string,
      seasonalPrice: nullableNumber,
      seasonalLineTotal: number,
      flightStart: string,
      flightEnd: nullableString,
      product: productRef,
    }),
  ),
  oneTimeCharges: arrayOf(
    object<ContractOneTimeCharge>({
      kind: string,
      description: string,
      amount: number,
      billedOn: string,
      inSeason: boolean,
    }),
  ),
  firstInvoice: object<ContractFirstInvoice>({
    periodStart: string,
    dueDate: string,
    subtotal: number,
    tax: number,
    total: number,
    number: nullableString,
  }),
  inventoryHoldUntil: nullableString,
  renewalOfId: nullableString,
  renewedBy: nullable(object<NonNullable<Contract['renewedBy']>>({ id: string, status: string })),
  insertionOrder: contractIoSummaryResponse,
  nextStep: contractNextStepResponse,
});

/** POST /api/contracts/:id/generate-payment-link. */
export const paymentLinkResponse = object<PaymentLinkResponse>({ paymentUrl: string });

const nextInvoice = nullable(object<AmendmentNextInvoice>({ periodStart: string, dueDate: string, total: number }));

/** POST /api/contracts/:id/lines/preview and /api/contracts/:id/lines/:lineId/end/preview. */
export const amendmentPreviewResponse = object<AmendmentPreview>({
  adjustments: arrayOf(
    object<AmendmentPreview['adjustments'][number]>({
      description: string,
      coversStart: string,
      coversEnd: string,
      amount: number,
    }),
  ),
  adjustmentsTotal: number,
  nextInvoice,
  currentNextInvoice: nextInvoice,
  monthlyAmount: number,
  seasonalMonthlyAmount: number,
  currentMonthlyAmount: number,
  currentSeasonalMonthlyAmount: number,
});

/** GET /api/renewals: running contracts whose term ends soon. */
export const renewalDueListResponse = arrayOf(
  object<RenewalDue>({
    id: string,
    title: nullableString,
    description: nullableString,
    status: string,
    customerId: string,
    customerName: nullableString,
    salesRepId: nullableString,
    salesRepName: nullableString,
    startDate: string,
    termMonths: integer,
    autoStopDate: string,
    daysLeft: integer,
    monthlyAmount: number,
    termValue: nullableNumber,
    lastNoticeDays: nullableInteger,
    renewedBy: nullable(object<NonNullable<RenewalDue['renewedBy']>>({ id: string, status: string })),
  }),
);
