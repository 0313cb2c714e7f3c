import {
  ACCOUNT_FIELD_LABELS,
  type AccountField,
  type AccountingSettings,
  AGENCY_ACCOUNT_LABELS,
  type AgencyAccountField,
  agencyAccount,
  revenueLabel,
  TAX_NAME_LABELS,
  type TaxNameField,
} from '@shared/contracts/accounting-vocabulary';
import type { AdType } from '@shared/contracts/product-vocabulary';
import { allocateCents, type Cents, sumCents } from '@shared/money';
import { conflict } from '../../lib/errors';
import type { InvoiceTaxTerms, LineDoc } from './accounting.repo';

/**
 * How the recorded figures of an invoice split into revenue and tax, line by line and account by account,
 * without pricing anything again: each line's amount is what was billed; the invoice's tax (computed once on
 * its subtotal when it was issued) is spread over its lines in proportion to their amounts, to the cent
 * (allocateCents), so the lines' tax adds up to the invoice's. A line's net revenue is its amount, less its
 * tax share when prices included tax. Net revenue + tax = the invoice's total, always.
 */

/**
 * A line's account key: the line's ad type, `other` (packages, setup fees, a product no longer there), or
 * `agency_commission` for a net-billed invoice's negative commission line (decision 060), which is booked to
 * the agency commission account, not to revenue.
 */
export type RevenueKey = AdType | 'other' | 'agency_commission';

export type LineShare = { line: LineDoc; key: RevenueKey; netCents: Cents; taxCents: Cents };

export const revenueKeyOf = (line: Pick<LineDoc, 'adType'> & { kind?: string }): RevenueKey =>
  line.kind === 'agency_commission' ? 'agency_commission' : (line.adType ?? 'other');

export function lineShares(invoice: InvoiceTaxTerms): LineShare[] {
  const amounts = invoice.lines.map((line) => line.amountCents);
  const taxes = allocateCents(invoice.taxCents, amounts);
  return invoice.lines.map((line, i) => ({
    line,
    key: revenueKeyOf(line),
    taxCents: taxes[i]!,
    netCents: invoice.taxIncluded ? line.amountCents - taxes[i]! : line.amountCents,
  }));
}

export type AccountShare = { key: RevenueKey; netCents: Cents; taxCents: Cents };

/**
 * A credit note's amount before tax and its tax, spread over the credited invoice's revenue accounts in
 * proportion to the invoice's net revenue in each (a credit corrects the invoice as a whole), to the cent. A
 * net-billed invoice's agency commission line is not revenue and takes no share: the commission recorded on
 * the invoice does not change with a credit.
 */
export function creditShares(note: { amountCents: Cents; taxCents: Cents }, invoice: InvoiceTaxTerms): AccountShare[] {
  const byKey = new Map<RevenueKey, Cents>();
  for (const share of lineShares(invoice)) {
    if (share.key === 'agency_commission') continue;
    byKey.set(share.key, (byKey.get(share.key) ?? 0) + share.netCents);
  }
  const keys = [...byKey.keys()];
  const weights = keys.map((key) => byKey.get(key)!);
  // An invoice whose lines net to nothing has nothing to spread over: the credit is other revenue.
  if (keys.length === 0 || sumCents(weights) === 0) {
    return [{ key: 'other', netCents: note.amountCents - note.taxCents, taxCents: note.taxCents }];
  }
  const nets = allocateCents(note.amountCents - note.taxCents, weights);
  const taxes = allocateCents(note.taxCents, weights);
  return keys.map((key, i) => ({ key, netCents: nets[i]!, taxCents: taxes[i]! }));
}

/**
 * The account codes and tax names a file uses, read from the settings; every one asked for and not set is
 * noted, and `assertComplete` refuses the export with the list (409), before anything is saved.
 */
export function accountBook(settings: AccountingSettings) {
  const missing = new Set<string>();
  const take = (value: string | null, label: string) => {
    if (!value) missing.add(label);
    return value ?? '';
  };
  return {
    revenue: (key: RevenueKey) =>
      key === 'other'
        ? take(settings.otherRevenueAccount, ACCOUNT_FIELD_LABELS.otherRevenueAccount)
        : key === 'agency_commission'
          ? take(agencyAccount(settings, 'agencyCommissionAccount'), AGENCY_ACCOUNT_LABELS.agencyCommissionAccount)
          : take(settings.revenueAccounts[key], revenueLabel(key)),
    account: (field: AccountField) => take(settings[field], ACCOUNT_FIELD_LABELS[field]),
    /** The agency commission and payable accounts (their defaults until an admin sets them). */
    agency: (field: AgencyAccountField) => take(agencyAccount(settings, field), AGENCY_ACCOUNT_LABELS[field]),
    taxName: (field: TaxNameField) => take(settings[field], TAX_NAME_LABELS[field]),
    assertComplete() {
      if (missing.size === 0) return;
      throw conflict(
        `This export needs account codes that are not set: ${[...missing].join(', ')}. An admin sets them in Settings › Accounting.`,
      );
    },
  };
}
export type AccountBook = ReturnType<typeof accountBook>;
