import { formatMoney } from './format';

/**
 * A contract's value as lists show it, from the billing engine's figures (the API's termValue, monthlyAmount
 * and oneTimeAmount): what its term bills before tax, or for an indefinite contract its monthly amount and any
 * one-time charges. One meaning per figure: never a monthly amount of $0.00 for a contract of flat lines.
 */
export function contractValueText(contract: {
  termValue: number | null;
  monthlyAmount: number;
  oneTimeAmount: number;
}): { amount: string; note: string } {
  if (contract.termValue !== null) return { amount: formatMoney(contract.termValue), note: 'over the term' };
  if (contract.monthlyAmount === 0) return { amount: formatMoney(contract.oneTimeAmount), note: 'one-time' };
  return {
    amount: `${formatMoney(contract.monthlyAmount)} / month`,
    note: contract.oneTimeAmount > 0 ? `+ ${formatMoney(contract.oneTimeAmount)} one-time` : 'no end date',
  };
}
