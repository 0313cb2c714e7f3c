import { z } from 'zod';
import { isoDate } from './common';
import type { AgingBucket } from './receivables-vocabulary';

/**
 * Agencies (product.md section 20): a customer is an advertiser (the default) or an agency; an advertiser may be
 * represented by an agency of record, from and to dates, with a commission percent (the agency's own unless
 * given; 15% for a new agency) and a billing mode: `net` (the invoice deducts the commission) or `gross` (the
 * invoice is the gross; the commission is owed to the agency once the invoice is paid).
 */

export const CUSTOMER_KINDS = ['advertiser', 'agency'] as const;
export type CustomerKind = (typeof CUSTOMER_KINDS)[number];

export const CUSTOMER_KIND_LABELS: Record<CustomerKind, string> = { advertiser: 'Advertiser', agency: 'Agency' };

export const AGENCY_BILLING_MODES = ['net', 'gross'] as const;
export type AgencyBillingMode = (typeof AGENCY_BILLING_MODES)[number];

export const AGENCY_BILLING_MODE_LABELS: Record<AgencyBillingMode, string> = {
  net: 'Net (the invoice deducts the commission)',
  gross: 'Gross (the commission is paid to the agency)',
};

/** A new agency's commission, in basis points (15%). */
export const DEFAULT_AGENCY_COMMISSION_BP = 1500;

export const AGENCY_MESSAGES = {
  kindInvalid: 'Kind must be advertiser or agency',
  kindFixed: 'The kind of a customer with contracts cannot change',
  commissionInvalid: 'Commission must be a percent from 0 to 100, with at most two decimals',
  agencyRequired: 'Choose an agency',
  notAnAgency: 'That customer is not an agency',
  notSelf: 'A customer cannot be its own agency',
  advertiserOnly: 'Only an advertiser can have an agency of record',
  modeInvalid: 'Billing mode must be net or gross',
  fromRequired: 'From date is required',
  toBeforeFrom: 'To date cannot be before the from date',
  overlap: 'This advertiser already has an agency of record for some of these dates',
  billToInvalid: 'Bill to must be the customer or its agency of record',
  commissionAgencyOnly: 'Only an agency has an agency commission',
  kindRepresents: 'An agency that represents advertisers cannot become an advertiser',
  kindRepresented: 'An advertiser with an agency of record cannot become an agency',
  noneToRemove: 'No agency of record to remove',
} as const;

const percentNumber = z
  .number({ message: AGENCY_MESSAGES.commissionInvalid })
  .min(0, AGENCY_MESSAGES.commissionInvalid)
  .max(100, AGENCY_MESSAGES.commissionInvalid)
  .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-9, AGENCY_MESSAGES.commissionInvalid);

/** Text as a number ("12.5" -> 12.5); blank text is "not set" (null). */
const readPercent = (value: unknown) =>
  typeof value === 'string' ? (value.trim() === '' ? null : Number(value.trim())) : value;

/** A percent from 0 to 100 with at most two decimals (15, "12.5"), as the API and the forms take it. */
export const commissionPercent = z.preprocess(readPercent, percentNumber);

/** The same, optional: left out, null or blank (a form's empty field) means "not set". */
export const optionalCommissionPercent = z.preprocess(readPercent, percentNumber.nullish()).optional();

/** PUT /api/customers/{id}/agency: the advertiser's agency of record for these dates (set, or changed). */
export const agencyOfRecordSchema = z
  .object({
    agencyId: z.string({ message: AGENCY_MESSAGES.agencyRequired }).trim().uuid(AGENCY_MESSAGES.agencyRequired),
    /** Left out, null or blank: the agency's own commission. */
    commissionPercent: optionalCommissionPercent,
    billingMode: z.enum(AGENCY_BILLING_MODES, { message: AGENCY_MESSAGES.modeInvalid }),
    from: isoDate(AGENCY_MESSAGES.fromRequired),
    /** Left out, null or '': until further notice. */
    to: z.preprocess((v) => (v === '' ? null : v), isoDate(AGENCY_MESSAGES.toBeforeFrom).nullish()),
  })
  .superRefine((value, ctx) => {
    if (value.to && value.to < value.from) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: AGENCY_MESSAGES.toBeforeFrom });
    }
  });
export type AgencyOfRecordInput = z.input<typeof agencyOfRecordSchema>;
export type AgencyOfRecordValues = z.output<typeof agencyOfRecordSchema>;

/** DELETE /api/customers/{id}/agency: the agency whose representation ends (left out: the one covering today). */
export const removeAgencyQuerySchema = z.object({
  agencyId: z.string().trim().uuid(AGENCY_MESSAGES.agencyRequired).optional(),
});

/** An advertiser's agency of record as the API returns it (money-free; the percent as a number). */
export type AgencyOfRecord = {
  id: string;
  advertiserId: string;
  advertiserName: string;
  agencyId: string;
  agencyName: string;
  commissionPercent: number;
  billingMode: AgencyBillingMode;
  from: string;
  to: string | null;
};

// ---------------------------------------------------------------------------------------------------------
// The agency statement (product.md section 20): GET /api/agencies/{id}/statement?from=&to=&format=
// ---------------------------------------------------------------------------------------------------------

export const STATEMENT_FORMATS = ['json', 'pdf', 'csv'] as const;
export type StatementFormat = (typeof STATEMENT_FORMATS)[number];

/** The longest range a statement covers, in days (from and to included). */
export const MAX_STATEMENT_DAYS = 366;

export const STATEMENT_MESSAGES = {
  fromRequired: 'From date is required (YYYY-MM-DD)',
  toRequired: 'To date is required (YYYY-MM-DD)',
  toBeforeFrom: 'To date cannot be before the from date',
  tooLong: `A statement covers at most ${MAX_STATEMENT_DAYS} days`,
  format: 'Format must be json, pdf or csv',
} as const;

const dayCount = (from: string, to: string) =>
  (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000 + 1;

/** The statement's range (business days, both included) and its format (JSON unless asked). */
export const agencyStatementQuerySchema = z
  .object({
    from: isoDate(STATEMENT_MESSAGES.fromRequired),
    to: isoDate(STATEMENT_MESSAGES.toRequired),
    format: z.enum(STATEMENT_FORMATS, { message: STATEMENT_MESSAGES.format }).default('json'),
  })
  .superRefine((value, ctx) => {
    if (value.to < value.from) ctx.addIssue({ code: 'custom', path: ['to'], message: STATEMENT_MESSAGES.toBeforeFrom });
    else if (dayCount(value.from, value.to) > MAX_STATEMENT_DAYS)
      ctx.addIssue({ code: 'custom', path: ['to'], message: STATEMENT_MESSAGES.tooLong });
  });
export type AgencyStatementQuery = z.output<typeof agencyStatementQuerySchema>;

export const STATEMENT_ENTRY_KINDS = ['invoice', 'credit_note', 'payment', 'refund'] as const;
export type StatementEntryKind = (typeof STATEMENT_ENTRY_KINDS)[number];

export const STATEMENT_ENTRY_LABELS: Record<StatementEntryKind, string> = {
  invoice: 'Invoice',
  credit_note: 'Credit note',
  payment: 'Payment',
  refund: 'Refund',
};

/** The commission totals' names on the statement's PDF and CSV. */
export const STATEMENT_COMMISSION_LABELS = {
  net: 'Commission deducted (net)',
  gross: 'Commission owed (gross, paid invoices)',
  total: 'Commission total',
} as const;

/**
 * One dated entry of a statement, in dollars: an invoice billed to the agency (+ its total), a credit note on one
 * (- the part that lowered what was due), a payment (-) or a refund (+); `balance` is the running balance after it.
 */
export type AgencyStatementEntry = {
  date: string;
  kind: StatementEntryKind;
  /** The invoice's or the credit note's number; a payment's reference (or null). */
  number: string | null;
  invoiceId: string;
  invoiceNumber: string;
  issueDate: string;
  dueDate: string;
  advertiserId: string;
  advertiserName: string;
  contractId: string;
  contractName: string;
  /** Signed: what the entry adds to the balance. */
  amount: number;
  /** An invoice's total, a credit note's whole amount (the part beyond what was due went to the credit balance). */
  documentAmount: number;
  /** An invoice's agency commission and its mode; 0 and null on the other entries. */
  commission: number;
  commissionMode: AgencyBillingMode | null;
  /** A payment's method (check, card, credit...); null on the other entries. */
  method: string | null;
  balance: number;
};

/** GET /api/agencies/{id}/statement (JSON): amounts in dollars. */
export type AgencyStatement = {
  agencyId: string;
  agencyName: string;
  from: string;
  to: string;
  openingBalance: number;
  entries: AgencyStatementEntry[];
  invoiced: number;
  credited: number;
  paid: number;
  refunded: number;
  closingBalance: number;
  /** The closing balance by days past due at `to` (the receivables buckets). */
  aging: Record<AgingBucket, number>;
  commission: {
    /** Net mode: deducted on the invoices issued in the range. */
    netDeducted: number;
    /** Gross mode: owed to the agency on the invoices paid in the range. */
    grossOwed: number;
    total: number;
  };
};
