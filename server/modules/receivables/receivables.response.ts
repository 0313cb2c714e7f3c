import type {
  AgingAmounts,
  CustomerReceivable,
  OpenInvoice,
  ReceivableRow,
  ReceivablesOutlook,
  ReceivablesSummary,
} from '@shared/contracts/receivables';
import {
  arrayOf,
  boolean,
  integer,
  nullableNumber,
  nullableString,
  number,
  object,
  string,
} from '../../lib/response-schema';

/** The answers of the receivables routes (lib/response-schema.ts): only these fields are ever sent. */
const aging = object<AgingAmounts>({
  current: number,
  '1-30': number,
  '31-60': number,
  '61-90': number,
  '90+': number,
});

export const receivableListResponse = arrayOf(
  object<ReceivableRow>({
    customerId: string,
    customerName: string,
    company: nullableString,
    openBalance: number,
    overdue: number,
    aging,
    openInvoices: integer,
    overdueInvoices: integer,
    oldestDueDate: nullableString,
    daysPastDue: integer,
    dunningStage: nullableString,
    creditBalance: number,
    lastPaymentDate: nullableString,
    lastPaymentAmount: nullableNumber,
  }),
);

export const receivablesSummaryResponse = object<ReceivablesSummary>({
  customers: integer,
  openBalance: number,
  overdue: number,
  aging,
  creditBalance: number,
});

export const receivablesOutlookResponse = object<ReceivablesOutlook>({
  openBalance: number,
  overdue: number,
  cashThisMonth: number,
  expectedNext30Days: number,
  expectedFromInvoices: number,
  expectedFromSchedule: number,
  asOf: string,
});

export const customerReceivableResponse = object<CustomerReceivable>({
  customerId: string,
  openBalance: number,
  overdue: number,
  creditBalance: number,
  lastPaymentDate: nullableString,
  lastPaymentAmount: nullableNumber,
  openInvoiceCount: integer,
  openInvoices: arrayOf(
    object<OpenInvoice>({
      id: string,
      number: string,
      contractId: string,
      dueDate: string,
      total: number,
      amountDue: number,
      status: string,
      overdue: boolean,
      daysPastDue: integer,
    }),
  ),
});
