import { formatBasisPoints, fractionToBasisPoints } from '@shared/rates';

/**
 * The API keeps a commission rate as a fraction (0.055); people read and type it in percent (5.5). The
 * conversions are shared/rates.ts's, through whole basis points.
 */
export { fractionToPercent, percentToFraction } from '@shared/rates';

/** "5.5%" */
export function formatPercent(fraction: number): string {
  return formatBasisPoints(fractionToBasisPoints(fraction));
}
