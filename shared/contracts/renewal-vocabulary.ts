import { shortContractId } from './contract-vocabulary';

/**
 * Renewals (product.md section 15): the words and rules the server and the screens share. Zod-free, so the
 * dashboard's card loads without the form schemas.
 */

/** The notice steps: days before a contract's auto-stop date its rep is told, most urgent last. */
export const RENEWAL_NOTICE_DAYS = [60, 30, 7] as const;
export type RenewalNoticeDays = (typeof RENEWAL_NOTICE_DAYS)[number];

/** How far ahead the Sales Dashboard's "Renewals due" card looks. */
export const RENEWALS_DUE_DAYS = 60;

export const RENEWAL_MESSAGES = {
  noTerm: 'This contract has no term to renew',
  notRunning: 'Only a running or completed contract can be renewed',
  alreadyRenewed: (renewalId: string) => `This contract was already renewed by ${shortContractId(renewalId, 6)}`,
  emptyDue: `No renewals due in the next ${RENEWALS_DUE_DAYS} days`,
} as const;

/** The statuses a contract can be renewed from: running or completed. */
export const RENEWABLE_STATUSES = ['active', 'paused', 'completed'] as const;

/**
 * Why this contract cannot be renewed now, or null when it can: a contract without a term has no end to
 * renew from; a draft, sent or canceled one is not running; a contract is renewed once.
 */
export function renewRefusal(contract: {
  status: string;
  termMonths: number | null;
  autoStopDate: string | null;
  renewedBy: { id: string } | null;
}): string | null {
  if (contract.termMonths === null || contract.autoStopDate === null) return RENEWAL_MESSAGES.noTerm;
  if (!(RENEWABLE_STATUSES as readonly string[]).includes(contract.status)) return RENEWAL_MESSAGES.notRunning;
  if (contract.renewedBy) return RENEWAL_MESSAGES.alreadyRenewed(contract.renewedBy.id);
  return null;
}

/** A contract's renewal (or the contract it renews), as contract answers and the renewals list show it. */
export type RenewalLink = { id: string; status: string };

/** One row of GET /api/renewals: a running contract whose term ends soon. */
export type RenewalDue = {
  id: string;
  title: string | null;
  description: string | null;
  status: string;
  customerId: string;
  customerName: string | null;
  salesRepId: string | null;
  salesRepName: string | null;
  startDate: string;
  termMonths: number;
  /** YYYY-MM-DD: the day after the last billed period of the term. */
  autoStopDate: string;
  /** Days from today to the auto-stop date. */
  daysLeft: number;
  /** From the billing engine (shared/contract-figures.ts), dollars. */
  monthlyAmount: number;
  termValue: number | null;
  /** The most urgent notice step sent to the rep for this end date (60, 30 or 7), or null before the first. */
  lastNoticeDays: RenewalNoticeDays | null;
  renewedBy: RenewalLink | null;
};

/** Renewal figures of contracts whose term ended in a range (the report's "Renewals" block). */
export type RenewalRateFigures = {
  /** Contracts whose auto-stop date falls in the range and that were running then. */
  endedCount: number;
  /** Their term values (dollars). */
  endedValue: number;
  /** Those renewed by a contract that is sent, active, paused or completed. */
  renewedCount: number;
  /** The renewals' term values (dollars). */
  renewedValue: number;
  /** renewedCount / endedCount as a percentage, one decimal; null when nothing ended. */
  countRate: number | null;
  /** renewedValue / endedValue as a percentage, one decimal; null when nothing ended (or it was worth 0). */
  valueRate: number | null;
};

export type RenewalRateByRep = RenewalRateFigures & { salesRepId: string | null; salesRepName: string };

export type RenewalRate = RenewalRateFigures & {
  /** One row per rep, for managers and admins; empty for a rep's own report. */
  byRep: RenewalRateByRep[];
};
