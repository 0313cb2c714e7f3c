import { formatBasisPoints, fractionToBasisPoints } from '@shared/rates';

export { formatDate, formatMoney } from '@/lib/format';

/** A rate fraction as a percent: 0.05 -> "5%", 0.125 -> "12.5%" (basis points, no float noise). */
export function ratePercent(rate: number): string {
  return formatBasisPoints(fractionToBasisPoints(rate));
}
