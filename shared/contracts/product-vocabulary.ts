/** products: the words and constants screens show (no zod here, so a screen can import them without the schemas). */
export const AD_TYPES = [
  'pre_roll',
  'mid_roll',
  'post_roll',
  'banner',
  'in_category',
  'overlay',
  'ad_on_pause',
  'timed_qr',
  'ctn_special',
] as const;
export type AdType = (typeof AD_TYPES)[number];

export const AD_TYPE_LABELS: Record<AdType, string> = {
  pre_roll: 'Pre-roll Video Ad',
  mid_roll: 'Mid-roll Video Ad',
  post_roll: 'Post-roll Video Ad',
  banner: 'Banner Ad',
  in_category: 'In-Category Ad',
  overlay: 'Overlay Ad',
  ad_on_pause: 'Ad on Pause',
  timed_qr: 'Timed QR Code',
  ctn_special: 'CTN Seasonal Movie Special',
};

export const PRICE_METRICS = ['monthly', 'flat', 'cpm'] as const;
export type PriceMetric = (typeof PRICE_METRICS)[number];

export const PRICE_METRIC_LABELS: Record<PriceMetric, string> = {
  monthly: 'Per Month',
  flat: 'Flat Rate',
  cpm: 'CPM',
};

/**
 * What each metric means, as documents (PDFs, e-mails) print it beside a line: ui-spec's words for the price
 * metric ("CPM, per 1000 impressions"); screens show the short label above.
 */
export const PRICE_METRIC_DESCRIPTIONS: Record<PriceMetric, string> = {
  monthly: 'Per Month',
  flat: 'Flat Rate',
  cpm: 'CPM, per 1000 impressions',
};

/** An ad type or price metric by its label; a value the vocabulary does not know is shown as it is. */
export const adTypeLabel = (adType: string) => AD_TYPE_LABELS[adType as AdType] ?? adType;
export const priceMetricDescription = (metric: string) => PRICE_METRIC_DESCRIPTIONS[metric as PriceMetric] ?? metric;
