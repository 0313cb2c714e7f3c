export { formatDate, formatMoney } from '@/lib/format';

/** A rate fraction as a percent: 0.05 -> "5%", 0.125 -> "12.5%" (basis points, no float noise). */
export function ratePercent(rate: number): string {
  const bp = Math.round(rate * 10_000);
  const whole = Math.trunc(bp / 100);
  const rest = String(bp % 100)
    .padStart(2, '0')
    .replace(/0+$/, '');
  return `${rest ? `${whole}.${rest}` : whole}%`;
}
