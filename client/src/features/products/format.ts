import { PRICE_METRIC_LABELS, type PriceMetric } from '@shared/contracts/product-vocabulary';

/** How a price is charged, after the amount: "/ Per Month", "Flat Rate", "CPM". */
export function metricSuffix(metric: PriceMetric): string {
  return metric === 'monthly' ? `/ ${PRICE_METRIC_LABELS.monthly}` : PRICE_METRIC_LABELS[metric];
}

/** The price metric choices of the form, with what CPM means. */
export const PRICE_METRIC_OPTIONS: Record<PriceMetric, string> = {
  monthly: PRICE_METRIC_LABELS.monthly,
  flat: PRICE_METRIC_LABELS.flat,
  cpm: `${PRICE_METRIC_LABELS.cpm} (per 1000 impressions)`,
};

/** "1 day", "30 days". */
export function daysLabel(days: number): string {
  return `${days} day${days === 1 ? '' : 's'}`;
}
