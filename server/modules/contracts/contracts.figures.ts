import type { BillableLine } from '@shared/billing';
import { contractFigures, figuresReferenceDay } from '@shared/contract-figures';
import { computeContractTotals } from '@shared/contract-totals';

/**
 * The figures a contract stores, computed here only: on create and edit (contracts.service), after an
 * amendment (contract-amendments.service) and for the demo's contracts (demo/seed-contracts). Reports read
 * them: monthly recurring revenue, the renewal rate's values, the pipeline of sent contracts.
 *
 * - the totals are ui-spec's (shared/contract-totals.ts): the lines, the package and the setup fee;
 * - the monthly amounts are the billing engine's (shared/contract-figures.ts): a whole period of the recurring
 *   lines still running from the contract's reference day on, plus the package, at regular and in-season prices;
 * - the term's value is what the whole term bills before tax, null when the term is indefinite.
 */
export type StoredFigures = {
  packagePriceCents: number;
  lineItemsTotalCents: number;
  monthlyAmountCents: number;
  seasonalMonthlyAmountCents: number;
  termValueCents: number | null;
  setupFeeCents: number;
  totalCents: number;
};

export type FiguresOf = {
  startDate: string;
  autoStopDate: string | null;
  status: string;
  packageId: string | null;
  /** 0 when the contract has no package. */
  packagePriceCents: number;
  setupFeeCents: number;
};

/**
 * Which lines the totals count. A contract as it is sold counts every line; after an amendment, only the lines
 * still running from the reference day on (a line that has ended no longer counts in what the contract is worth).
 */
export type CountedLines = 'every line' | 'lines still running';

export function storedFigures(
  contract: FiguresOf,
  lines: readonly BillableLine[],
  at: { today: string; lastInvoicedIndex?: number; count: CountedLines },
): StoredFigures {
  const from = figuresReferenceDay(contract, at.today, at.lastInvoicedIndex);
  const counted =
    at.count === 'every line' ? lines : lines.filter((line) => line.flightEnd === null || line.flightEnd >= from);
  const totals = computeContractTotals({
    lineItems: counted,
    packagePriceCents: contract.packagePriceCents,
    setupFeeCents: contract.setupFeeCents,
  });
  const figures = contractFigures(
    {
      startDate: contract.startDate,
      autoStopDate: contract.autoStopDate,
      lines,
      // The package's name plays no part in the figures; only whether there is one.
      packageName: contract.packageId === null ? null : '',
      packagePriceCents: totals.packagePrice,
      setupFeeCents: totals.setupFee,
    },
    { from },
  );
  return {
    packagePriceCents: totals.packagePrice,
    lineItemsTotalCents: totals.lineItemsTotal,
    monthlyAmountCents: figures.monthlyCents,
    seasonalMonthlyAmountCents: figures.seasonalMonthlyCents,
    termValueCents: figures.termValueCents,
    setupFeeCents: totals.setupFee,
    totalCents: totals.total,
  };
}
