import type { AutopayAttempt, InvoiceAutopay } from '@shared/contracts/autopay';
import type { CreditNote, CustomerCredit, CustomerCreditEntry } from '@shared/contracts/credit-notes';
import type { DeliveryPeriod } from '@shared/contracts/delivery';
import type { InvoiceTimeline, InvoiceTimelineEvent } from '@shared/contracts/invoice-timeline';
import type { Invoice, InvoiceLine, InvoiceSummary, Payment } from '@shared/contracts/invoices';
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

/** The answers of the invoice routes (lib/response-schema.ts): only these fields are ever sent. */
const summaryProperties = {
  id: string,
  number: string,
  contractId: string,
  customerId: string,
  customerName: nullableString,
  contractTitle: nullableString,
  periodIndex: integer,
  periodStart: string,
  periodEnd: string,
  dueDate: string,
  status: string,
  subtotal: number,
  setupFee: number,
  agencyCommission: number,
  agencyBillingMode: nullableString,
  tax: number,
  taxLabel: string,
  taxRate: number,
  taxIncluded: boolean,
  total: number,
  amount: number,
  amountPaid: number,
  amountDue: number,
  refunded: number,
  credited: number,
  creditable: number,
  inSeason: boolean,
  paidAt: nullableString,
  voidedAt: nullableString,
  voidReason: nullableString,
  issuedAt: string,
  overdue: boolean,
  dunningStage: nullableString,
} satisfies Record<keyof InvoiceSummary, unknown>;

export const invoiceSummaryResponse = object<InvoiceSummary>(summaryProperties);
export const invoiceListResponse = arrayOf(invoiceSummaryResponse);

const invoiceLineResponse = object<InvoiceLine>({
  id: string,
  kind: string,
  description: string,
  productId: nullableString,
  quantity: integer,
  unitPrice: number,
  discount: number,
  amount: number,
  seasonal: boolean,
  priceMetric: nullableString,
  coversStart: nullableString,
  coversEnd: nullableString,
  proratedDays: nullableInteger,
  periodDays: nullableInteger,
  impressions: nullableInteger,
});

const paymentResponse = object<Payment>({
  id: string,
  invoiceId: string,
  kind: string,
  status: string,
  amount: number,
  method: string,
  provider: string,
  reference: nullableString,
  cardBrand: nullableString,
  cardLast4: nullableString,
  failureMessage: nullableString,
  paidAt: string,
  createdAt: string,
});

/** The accounting export batches that exported a document (decision 043). */
const documentExportsResponse = arrayOf(
  object<CreditNote['exports'][number]>({ id: string, number: string, format: string }),
);

export const creditNoteResponse = object<CreditNote>({
  id: string,
  number: string,
  kind: string,
  reason: string,
  invoiceId: string,
  invoiceNumber: string,
  contractId: string,
  customerId: string,
  customerName: nullableString,
  amount: number,
  tax: number,
  appliedToInvoice: number,
  toCreditBalance: number,
  issuedAt: string,
  exports: documentExportsResponse,
});
export const creditNoteListResponse = arrayOf(creditNoteResponse);

export const customerCreditResponse = object<CustomerCredit>({
  customerId: string,
  balance: number,
  entries: arrayOf(
    object<CustomerCreditEntry>({
      id: string,
      kind: string,
      amount: number,
      creditNoteId: nullableString,
      creditNoteNumber: nullableString,
      invoiceId: nullableString,
      invoiceNumber: nullableString,
      method: nullableString,
      reference: nullableString,
      createdAt: string,
    }),
  ),
});

/** A billed CPM period and its delivery as the API answers it (lib/response-schema.ts): only these fields. */
export const deliveryPeriodResponse = object<DeliveryPeriod>({
  contractId: string,
  contractTitle: nullableString,
  lineId: string,
  productName: string,
  month: string,
  periodStart: string,
  periodEnd: string,
  invoiceId: string,
  invoiceNumber: string,
  booked: integer,
  makegood: integer,
  delivered: nullableInteger,
  clicks: nullableInteger,
  ended: boolean,
  final: boolean,
  status: string,
  remedy: nullableString,
  shortfall: integer,
  creditNote: nullable(
    object<NonNullable<DeliveryPeriod['creditNote']>>({ id: string, number: string, amount: number }),
  ),
  makegoodInvoice: nullable(object<NonNullable<DeliveryPeriod['makegoodInvoice']>>({ id: string, number: string })),
  recordedAt: nullableString,
  recordedByName: nullableString,
});
export const invoiceResponse = object<Invoice>({
  ...summaryProperties,
  lines: arrayOf(invoiceLineResponse),
  payments: arrayOf(paymentResponse),
  creditApplied: number,
  creditNotes: arrayOf(creditNoteResponse),
  delivery: arrayOf(deliveryPeriodResponse),
  exports: documentExportsResponse,
  autopay: nullable(
    object<NonNullable<InvoiceAutopay>>({
      method: nullableString,
      scheduledOn: nullableString,
      attempts: arrayOf(
        object<AutopayAttempt>({
          number: integer,
          at: string,
          status: string,
          amount: number,
          method: string,
          reason: nullableString,
          nextAttemptOn: nullableString,
        }),
      ),
      canChargeNow: boolean,
    }),
  ),
});

/** An invoice's timeline (GET /api/invoices/{id}/timeline). */
export const invoiceTimelineResponse = object<InvoiceTimeline>({
  invoiceId: string,
  events: arrayOf(
    object<InvoiceTimelineEvent>({
      id: string,
      kind: string,
      at: string,
      day: string,
      amount: nullableNumber,
      reference: nullableString,
      detail: nullableString,
      emailStatus: nullableString,
      actor: nullableString,
    }),
  ),
});
