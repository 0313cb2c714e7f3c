import { z } from 'zod';
import { isoDate } from './common';

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
} as const;

/** A percent from 0 to 100 with at most two decimals (15, "12.5"), as the API and the forms take it. */
export const commissionPercent = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() !== '' ? Number(value.trim()) : value),
  z
    .number({ message: AGENCY_MESSAGES.commissionInvalid })
    .min(0, AGENCY_MESSAGES.commissionInvalid)
    .max(100, AGENCY_MESSAGES.commissionInvalid)
    .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-9, AGENCY_MESSAGES.commissionInvalid),
);

/** PUT /api/customers/{id}/agency: the advertiser's agency of record for these dates (set, or changed). */
export const agencyOfRecordSchema = z
  .object({
    agencyId: z.string({ message: AGENCY_MESSAGES.agencyRequired }).trim().uuid(AGENCY_MESSAGES.agencyRequired),
    /** Left out or null: the agency's own commission. */
    commissionPercent: commissionPercent.nullish(),
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
