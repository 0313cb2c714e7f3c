/**
 * ui-spec.md's contract figures, computed in one place for the contract form's summary and for the server
 * (which stores them). Integer cents only: every figure is an exact sum of integers, so the parts always
 * add up to the totals.
 *
 * - line total = quantity x unit price - discount, never below zero (shared/money.ts lineTotalCents)
 * - total = all line totals + package + setup fee (ui-spec.md's "contract total", kept as it is)
 * - a line's in-season total: the same at its in-season price, where it has one
 * What the contract bills (first invoice, monthly amounts, one-time charges, value over the term) is the
 * billing engine's: shared/contract-figures.ts.
 */
import { type Cents, lineTotalCents, sumCents } from './money';

export type TotalsLineInput = {
  quantity: number;
  unitPriceCents: Cents;
  discountCents: Cents;
  /** The line's in-season unit price, when it has one. */
  seasonalPriceCents?: Cents | null;
};

export type ContractTotalsInput = {
  lineItems: readonly TotalsLineInput[];
  /** 0 when the contract has no package. */
  packagePriceCents: Cents;
  setupFeeCents: Cents;
};

export type ContractTotals = {
  /** Each line's total, in the order of the input lines. */
  lineTotals: Cents[];
  /** Each line's total in season (at its in-season price where it has one). */
  seasonalLineTotals: Cents[];
  lineItemsTotal: Cents;
  packagePrice: Cents;
  setupFee: Cents;
  /** Lines + package + setup fee. */
  total: Cents;
};

export function computeContractTotals(input: ContractTotalsInput): ContractTotals {
  const lineTotals = input.lineItems.map((line) => lineTotalCents(line));
  const seasonalLineTotals = input.lineItems.map((line) =>
    lineTotalCents({ ...line, unitPriceCents: line.seasonalPriceCents ?? line.unitPriceCents }),
  );
  const lineItemsTotal = sumCents(lineTotals);
  const packagePrice = sumCents([input.packagePriceCents]);
  const setupFee = sumCents([input.setupFeeCents]);
  return {
    lineTotals,
    seasonalLineTotals,
    lineItemsTotal,
    packagePrice,
    setupFee,
    total: lineItemsTotal + packagePrice + setupFee,
  };
}
