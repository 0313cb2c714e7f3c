/**
 * The figures of a contract, computed in one place for the contract form's summary and for the server
 * (which stores them). Integer cents only: every figure is an exact sum of integers, so the parts always
 * add up to the totals.
 *
 * - line total = quantity x unit price - discount, never below zero
 * - monthly amount (subtotal) = line totals + package price
 * - total = monthly amount + setup fee (ui-spec.md's "contract total"); the first invoice charges the same
 * - in season (periods starting October to December), a line whose product has a seasonal price is
 *   billed at that price instead of its unit price (product.md section 5)
 */
import { type Cents, lineAmountCents, lineTotalCents, sumCents } from './money';

export type TotalsLineInput = {
  quantity: number;
  unitPriceCents: Cents;
  discountCents: Cents;
  /** The product's seasonal price, when it has one. */
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
  /** Each line's total in season (the seasonal price where the product has one). */
  seasonalLineTotals: Cents[];
  lineItemsTotal: Cents;
  packagePrice: Cents;
  /** Lines + package: the monthly recurring amount. */
  subtotal: Cents;
  monthlyAmount: Cents;
  setupFee: Cents;
  /** Lines + package + setup fee. */
  total: Cents;
  /** The monthly amount plus the one-time setup fee. */
  firstInvoiceAmount: Cents;
  /** The monthly amount for a billing period starting October to December. */
  seasonalMonthlyAmount: Cents;
};

/** Whether a line's discount is larger than its amount (a validation error, never silently clamped). */
export function discountExceedsLine(line: { quantity: number; unitPriceCents: Cents; discountCents: Cents }): boolean {
  return line.discountCents > lineAmountCents(line);
}

export function computeContractTotals(input: ContractTotalsInput): ContractTotals {
  const lineTotals = input.lineItems.map((line) => lineTotalCents(line));
  const seasonalLineTotals = input.lineItems.map((line) =>
    line.seasonalPriceCents === null || line.seasonalPriceCents === undefined
      ? lineTotalCents(line)
      : lineTotalCents({ ...line, unitPriceCents: line.seasonalPriceCents }),
  );
  const lineItemsTotal = sumCents(lineTotals);
  const packagePrice = sumCents([input.packagePriceCents]);
  const setupFee = sumCents([input.setupFeeCents]);
  const monthlyAmount = lineItemsTotal + packagePrice;
  const total = monthlyAmount + setupFee;
  return {
    lineTotals,
    seasonalLineTotals,
    lineItemsTotal,
    packagePrice,
    subtotal: monthlyAmount,
    monthlyAmount,
    setupFee,
    total,
    firstInvoiceAmount: monthlyAmount + setupFee,
    seasonalMonthlyAmount: sumCents(seasonalLineTotals) + packagePrice,
  };
}
