import type {
  ClientContractDetail,
  ClientContractLine,
  ClientSummary,
  NextPayment,
  OverdueInvoice,
  PortalContract,
} from '@shared/contracts/client-portal';
import type { ContractOneTimeCharge } from '@shared/contracts/contract-responses';
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
import { contractNextStepResponse } from '../contracts/contracts.response';
import { customerIoResponse } from '../insertion-orders/insertion-orders.response';

const overdueInvoice = object<OverdueInvoice>({
  id: string,
  number: string,
  contractId: string,
  dueDate: string,
  amountDue: number,
});

/** The client portal's answers (lib/response-schema.ts): only these fields are ever sent. */
export const clientSummaryResponse = object<ClientSummary>({
  overdueCount: integer,
  overdueAmount: number,
  overdueInvoices: arrayOf(overdueInvoice),
  pausedForNonPayment: arrayOf(object<{ id: string; title: string | null }>({ id: string, title: nullableString })),
  activeContracts: number,
  outstandingBalance: number,
  pendingInvoices: number,
  payAllCount: integer,
  payAllAmount: number,
  nextPayment: nullable(
    object<NextPayment>({ amount: number, dueDate: string, source: string, invoiceId: nullableString }),
  ),
});

/** GET /api/client/contracts */
export const clientContractListResponse = arrayOf(
  object<PortalContract>({
    id: string,
    advertiserId: string,
    advertiserName: string,
    title: nullableString,
    description: nullableString,
    status: string,
    startDate: string,
    termMonths: nullableInteger,
    paymentMode: string,
    totalAmount: number,
    monthlyAmount: number,
    oneTimeAmount: number,
    termValue: nullableNumber,
    insertionOrder: customerIoResponse,
    nextStep: contractNextStepResponse,
  }),
);

/** GET /api/client/contracts/{id} */
export const clientContractDetailResponse = object<ClientContractDetail>({
  id: string,
  advertiserId: string,
  advertiserName: string,
  insertionOrder: customerIoResponse,
  nextStep: contractNextStepResponse,
  title: nullableString,
  description: nullableString,
  status: string,
  startDate: string,
  termMonths: nullableInteger,
  autoStopDate: nullableString,
  paymentMode: string,
  pauseReason: nullableString,
  underDeliveryRemedy: string,
  overdueCount: integer,
  overdueAmount: number,
  overdueInvoices: arrayOf(overdueInvoice),
  totalAmount: number,
  monthlyAmount: number,
  seasonalMonthlyAmount: number,
  setupFee: number,
  oneTimeAmount: number,
  oneTimeCharges: arrayOf(
    object<ContractOneTimeCharge>({
      kind: string,
      description: string,
      amount: number,
      billedOn: string,
      inSeason: boolean,
    }),
  ),
  firstInvoiceAmount: number,
  firstInvoiceDate: string,
  firstInvoiceDueDate: string,
  termValue: nullableNumber,
  package: nullable(object<{ name: string; price: number }>({ name: string, price: number })),
  lineItems: arrayOf(
    object<ClientContractLine>({
      id: string,
      name: string,
      adType: string,
      priceMetric: string,
      quantity: integer,
      unitPrice: number,
      discount: number,
      lineTotal: number,
      seasonalPrice: nullableNumber,
      seasonalLineTotal: number,
      flightStart: string,
      flightEnd: nullableString,
    }),
  ),
});
