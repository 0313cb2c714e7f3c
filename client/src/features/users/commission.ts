/**
 * The API keeps a commission rate as a fraction (0.055); people read and type it in percent (5.5).
 * Both conversions round away binary-fraction noise.
 */
export function fractionToPercent(fraction: number): number {
  return Number((fraction * 100).toFixed(4));
}

export function percentToFraction(percent: number): number {
  return Number((percent / 100).toFixed(6));
}

/** "5.5%" */
export function formatPercent(fraction: number): string {
  return `${Number((fraction * 100).toFixed(2))}%`;
}
