/**
 * The figures of a contract, computed in one place for the contract form's summary and for the server
 * (which stores them). Integer cents only: every figure is an exact sum of integers, so the parts always
 * add up to the totals.
 *
 * - line total = quantity x unit price - discount, never below zero
 * - monthly amount = the totals of the monthly and CPM lines + package price; a flat line is a one-time
 *   charge, beside the setup fee (product.md section 11)
 * - total = all line totals + package + setup fee (ui-spec.md's "contract total", kept as it is)
 * - first invoice = monthly amount + one-time charges (flat lines and setup fee)
 * - in season (periods starting October to December), a line with an in-season price is billed at that
 *   price instead of its unit price (product.md section 5)
 * These are a contract's figures for a whole period; what each invoice bills (flights, proration) is
 * shared/billing.ts's.
 */
import type { PriceMetric } from './contracts/product-vocabulary';
import { type Cents, lineAmountCents, lineTotalCents, sumCents } from './money';

export type TotalsLineInput = {
  quantity: number;
  unitPriceCents: Cents;
  discountCents: Cents;
  /** The line's in-season unit price, when it has one. */
  seasonalPriceCents?: Cents | null;
  /** Default monthly. */
  priceMetric?: PriceMetric;
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
  /** Monthly and CPM lines + package: the monthly recurring amount. */
  subtotal: Cents;
  monthlyAmount: Cents;
  setupFee: Cents;
  /** The flat lines and the setup fee: charged once. */
  oneTimeAmount: Cents;
  /** Lines + package + setup fee. */
  total: Cents;
  /** The monthly amount plus the one-time charges. */
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
  const recurring = input.lineItems.map((line) => line.priceMetric !== 'flat');
  const lineItemsTotal = sumCents(lineTotals);
  const packagePrice = sumCents([input.packagePriceCents]);
  const setupFee = sumCents([input.setupFeeCents]);
  const monthlyAmount = sumCents(lineTotals.filter((_, i) => recurring[i])) + packagePrice;
  const oneTimeAmount = sumCents(lineTotals.filter((_, i) => !recurring[i])) + setupFee;
  return {
    lineTotals,
    seasonalLineTotals,
    lineItemsTotal,
    packagePrice,
    subtotal: monthlyAmount,
    monthlyAmount,
    setupFee,
    oneTimeAmount,
    total: lineItemsTotal + packagePrice + setupFee,
    firstInvoiceAmount: monthlyAmount + oneTimeAmount,
    seasonalMonthlyAmount: sumCents(seasonalLineTotals.filter((_, i) => recurring[i])) + packagePrice,
  };
}
