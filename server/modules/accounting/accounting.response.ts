import type { AccountingExport, AccountingSettings } from '@shared/contracts/accounting-vocabulary';
import { AD_TYPES } from '@shared/contracts/product-vocabulary';
import {
  arrayOf,
  integer,
  nullable,
  nullableNumber,
  nullableString,
  number,
  object,
  optional,
  string,
} from '../../lib/response-schema';

/** The answers of the accounting routes (lib/response-schema.ts): only these fields are ever sent. */
export const accountingExportResponse = object<AccountingExport>({
  id: string,
  number: string,
  format: string,
  from: string,
  to: string,
  documentCount: integer,
  documents: object<AccountingExport['documents']>({
    invoices: integer,
    creditNotes: integer,
    payments: integer,
    creditRefunds: integer,
  }),
  parts: arrayOf(
    object<AccountingExport['parts'][number]>({
      part: integer,
      fileName: string,
      sha256: string,
      documentCount: integer,
    }),
  ),
  total: number,
  tax: nullableNumber,
  fileName: string,
  sha256: string,
  createdBy: nullable(object<{ id: string; name: string }>({ id: string, name: string })),
  createdAt: string,
});
export const accountingExportListResponse = arrayOf(accountingExportResponse);

export const accountingSettingsResponse = object<AccountingSettings>({
  revenueAccounts: object<AccountingSettings['revenueAccounts']>(
    Object.fromEntries(AD_TYPES.map((adType) => [adType, nullableString])) as Record<
      keyof AccountingSettings['revenueAccounts'],
      typeof nullableString
    >,
  ),
  otherRevenueAccount: nullableString,
  taxAccount: nullableString,
  receivablesAccount: nullableString,
  bankAccount: nullableString,
  cardClearingAccount: nullableString,
  customerCreditAccount: nullableString,
  xeroTaxType: nullableString,
  xeroNoTaxType: nullableString,
  quickbooksTaxCode: nullableString,
  quickbooksNoTaxCode: nullableString,
  dateFormat: string,
  agencyCommissionAccount: optional(nullableString),
  agencyPayableAccount: optional(nullableString),
});
