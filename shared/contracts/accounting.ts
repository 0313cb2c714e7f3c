import { z } from 'zod';
import {
  ACCOUNTING_DATE_FORMATS,
  ACCOUNTING_FORMATS,
  ACCOUNTING_MESSAGES,
  type AccountingSettings,
  MAX_EXPORT_DAYS,
} from './accounting-vocabulary';
import { isoDate } from './common';
import { AD_TYPES, type AdType } from './product-vocabulary';

export * from './accounting-vocabulary';

/** The days from one calendar day to another, both counted (2026-01-01 to 2026-01-31: 31). */
export const daysFromTo = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;

/**
 * POST /api/accounting/exports and the export form: a range of days (both included, at most a year) and a
 * format. The same rules, the same messages, in the browser and on the server.
 */
export const accountingExportRequestSchema = z
  .object({
    from: isoDate(ACCOUNTING_MESSAGES.fromRequired),
    to: isoDate(ACCOUNTING_MESSAGES.toRequired),
    format: z.enum(ACCOUNTING_FORMATS, { message: ACCOUNTING_MESSAGES.format }),
  })
  .superRefine((value, ctx) => {
    if (value.to < value.from) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: ACCOUNTING_MESSAGES.toBeforeFrom });
    } else if (daysFromTo(value.from, value.to) > MAX_EXPORT_DAYS) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: ACCOUNTING_MESSAGES.tooLong });
    }
  });
export type AccountingExportInput = z.input<typeof accountingExportRequestSchema>;
export type AccountingExportRequest = z.output<typeof accountingExportRequestSchema>;

/** A line break, tab or other control character (one line of plain text has none). */
const hasControlCharacter = (value: string) =>
  [...value].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f);

/**
 * An account code or a tax name: up to 60 characters of one line, not starting like a spreadsheet formula
 * (= + - @: the files are CSV); '' and null mean "not set".
 */
const code = z
  .string({ message: ACCOUNTING_MESSAGES.codeInvalid })
  .trim()
  .max(60, ACCOUNTING_MESSAGES.codeTooLong)
  .refine((v) => !hasControlCharacter(v) && !/^[=+\-@]/.test(v), ACCOUNTING_MESSAGES.codeInvalid)
  .nullish()
  .transform((v) => (v ? v : null));

/** A code a client may leave out (undefined: keep the saved one); '' and null: not set. */
const optionalCode = z
  .string({ message: ACCOUNTING_MESSAGES.codeInvalid })
  .trim()
  .max(60, ACCOUNTING_MESSAGES.codeTooLong)
  .refine((v) => !hasControlCharacter(v) && !/^[=+\-@]/.test(v), ACCOUNTING_MESSAGES.codeInvalid)
  .nullable()
  .transform((v) => (v ? v : null))
  .optional();

/**
 * PUT /api/accounting/settings and the Settings screen's "Accounting" tab: every code (or null), and the files'
 * date format and the agency accounts, which a client that does not send them leaves as they are (the route
 * keeps the saved ones).
 */
export const accountingSettingsSchema = z.object({
  revenueAccounts: z.object(
    Object.fromEntries(AD_TYPES.map((adType) => [adType, code])) as Record<AdType, typeof code>,
  ),
  otherRevenueAccount: code,
  taxAccount: code,
  receivablesAccount: code,
  bankAccount: code,
  cardClearingAccount: code,
  customerCreditAccount: code,
  xeroTaxType: code,
  xeroNoTaxType: code,
  quickbooksTaxCode: code,
  quickbooksNoTaxCode: code,
  dateFormat: z.enum(ACCOUNTING_DATE_FORMATS, { message: ACCOUNTING_MESSAGES.dateFormat }).optional(),
  /** The agency accounts (decision 060), which a client that does not send them leaves as they are. */
  agencyCommissionAccount: optionalCode,
  agencyPayableAccount: optionalCode,
}) satisfies z.ZodType<
  Omit<AccountingSettings, 'dateFormat'> & Partial<Pick<AccountingSettings, 'dateFormat'>>,
  unknown
>;
export type AccountingSettingsInput = z.input<typeof accountingSettingsSchema>;
export type AccountingSettingsUpdate = z.output<typeof accountingSettingsSchema>;

/** GET /api/accounting/exports/{id}/file: which part (from 1); none: the batch's only file. */
export const exportFileQuerySchema = z.object({
  part: z.coerce
    .number({ message: ACCOUNTING_MESSAGES.part })
    .int(ACCOUNTING_MESSAGES.part)
    .min(1, ACCOUNTING_MESSAGES.part)
    .optional(),
});
