import type { DeliveryPeriod } from '@shared/contracts/delivery';
import { PACING_ALERT_PERCENT } from '@shared/contracts/delivery-vocabulary';
import { formatDate, formatMoney } from './format';

/**
 * A CPM period's delivery in words (product.md section 12), for every screen that shows it: the contract
 * page, the client's portal and an invoice's proof of performance.
 */

const whole = new Intl.NumberFormat('en-US');

/** 1250000 -> "1,250,000". */
export const formatImpressions = (count: number) => whole.format(count);

/** "Mar 1, 2026 – Mar 31, 2026": the days of a billed period. */
export const periodDates = (period: Pick<DeliveryPeriod, 'periodStart' | 'periodEnd'>) =>
  `${formatDate(period.periodStart)} – ${formatDate(period.periodEnd)}`;

type Outcome = Pick<
  DeliveryPeriod,
  'status' | 'remedy' | 'ended' | 'periodEnd' | 'shortfall' | 'creditNote' | 'makegoodInvoice'
>;

/**
 * How the period stands: settled by a credit note or makegood impressions (or plainly settled), delivered in
 * full, reported so far (figures an ad server pushed that are not final yet), waiting for its figures, or
 * still running.
 */
export function deliveryOutcome(period: Outcome): string {
  if (period.status === 'settled') {
    if (period.remedy === 'credit') {
      return period.creditNote
        ? `Credit note ${period.creditNote.number} ${formatMoney(period.creditNote.amount)}`
        : 'Settled: nothing to credit';
    }
    if (period.remedy === 'makegood') {
      const impressions = `${formatImpressions(period.shortfall)} impressions`;
      return period.makegoodInvoice
        ? `Makegood: ${impressions} on ${period.makegoodInvoice.number}`
        : `Makegood: ${impressions} on the next invoice`;
    }
    return 'Settled';
  }
  if (period.status === 'delivered') return 'Delivered in full';
  if (period.status === 'reported') return 'Reported so far';
  return period.ended ? 'Awaiting figures' : `Period running until ${formatDate(period.periodEnd)}`;
}

/** Delivered below PACING_ALERT_PERCENT of booked (the rep is told): the pacing shows as an alert. */
export function pacingIsLow(period: Pick<DeliveryPeriod, 'booked' | 'delivered'>): boolean {
  return (
    period.delivered !== null && period.booked > 0 && period.delivered * 100 < period.booked * PACING_ALERT_PERCENT
  );
}
