/**
 * Rates are whole basis points everywhere they are kept or computed: 1 bp = 1/100 of a percent, so 8.25% is
 * 825 bp and the fraction 0.0825. The tax settings speak percent, a user's commissionRate a fraction, and
 * people read percent: these are the only conversions, each rounding once to a whole basis point (half
 * away from zero, after dropping binary-fraction noise), and the one text form of a rate.
 */

/** Basis points in one whole (100%). */
export const BASIS_POINTS = 10_000;
/** Basis points in one percent. */
export const BASIS_POINTS_PER_PERCENT = 100;

/** A rate in percent (8.25) as basis points (825). */
export function percentToBasisPoints(percent: number): number {
  return toWholeBasisPoints(percent * BASIS_POINTS_PER_PERCENT);
}

/** Basis points (825) as percent (8.25). */
export function basisPointsToPercent(basisPoints: number): number {
  return basisPoints / BASIS_POINTS_PER_PERCENT;
}

/** A rate as a fraction (0.055) as basis points (550). */
export function fractionToBasisPoints(fraction: number): number {
  return toWholeBasisPoints(fraction * BASIS_POINTS);
}

/** Basis points (550) as a fraction (0.055). */
export function basisPointsToFraction(basisPoints: number): number {
  return basisPoints / BASIS_POINTS;
}

/** A rate typed in percent (5.5) as the fraction the API keeps (0.055), through whole basis points. */
export function percentToFraction(percent: number): number {
  return basisPointsToFraction(percentToBasisPoints(percent));
}

/** A fraction (0.055) as the percent people read and type (5.5), through whole basis points. */
export function fractionToPercent(fraction: number): number {
  return basisPointsToPercent(fractionToBasisPoints(fraction));
}

/** Basis points as percent text without a sign: 500 -> "5", 1250 -> "12.5", 825 -> "8.25". */
export function percentNumberText(basisPoints: number): string {
  const sign = basisPoints < 0 ? '-' : '';
  const abs = Math.abs(basisPoints);
  const whole = Math.trunc(abs / BASIS_POINTS_PER_PERCENT);
  const rest = String(abs % BASIS_POINTS_PER_PERCENT)
    .padStart(2, '0')
    .replace(/0+$/, '');
  return `${sign}${whole}${rest ? `.${rest}` : ''}`;
}

/** The one display form of a rate: 825 -> "8.25%", 500 -> "5%". */
export function formatBasisPoints(basisPoints: number): string {
  return `${percentNumberText(basisPoints)}%`;
}

/** Whole basis points from a value that may carry binary noise (825.0000000000001, 2849.9999999999995). */
function toWholeBasisPoints(value: number): number {
  if (!Number.isFinite(value)) throw new RangeError(`Not a rate: ${value}`);
  const cleaned = Number(value.toFixed(6));
  return Math.sign(cleaned) * Math.round(Math.abs(cleaned));
}
