import type { ContractSummary } from '@shared/contracts/contract-responses';
import { PAYMENT_MODE_LABELS, shortContractId } from '@shared/contracts/contract-vocabulary';
import { type Cents, centsToAmount } from '@shared/money';
import { formatDate, formatMoney } from '@/lib/format';

/** "Contract 1a2b3c4d" or the contract's title. */
export const contractTitle = (contract: Pick<ContractSummary, 'id' | 'title'>) =>
  contract.title || `Contract ${shortContractId(contract.id)}`;

/** "12 months", "1 month" or "Indefinite". */
export function termLabel(termMonths: number | null | undefined): string {
  if (termMonths === null || termMonths === undefined) return 'Indefinite';
  return `${termMonths} month${termMonths === 1 ? '' : 's'}`;
}

export const paymentModeLabel = (mode: string) =>
  PAYMENT_MODE_LABELS[mode as keyof typeof PAYMENT_MODE_LABELS]?.label ?? mode;

/** An agency's terms in words: "15% agency commission, net billing". */
export function agencyTermsText(commissionPercent: number, billingMode: 'net' | 'gross'): string {
  return `${commissionPercent}% agency commission, ${billingMode} billing`;
}

/** Cents (the form's computed figures) through the one money formatter. */
export const formatCentsMoney = (cents: Cents) => formatMoney(centsToAmount(cents));

/** The pay-link page for a token, on this origin. */
export { formatDate, formatMoney };
