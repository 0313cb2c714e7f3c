/** performance: the words and constants screens show (no zod here, so a screen can import them without the schemas). */
/** Click-through rate of figures, as a percentage with one decimal ("2.5%"), or "—" without impressions. */
export function clickThroughRate(figures: { impressions: number; clicks: number }): string {
  if (figures.impressions <= 0) return '—';
  const tenths = Math.round((figures.clicks * 1000) / figures.impressions);
  return `${(tenths / 10).toFixed(1)}%`;
}

/** "2026-03" -> "March 2026". */
export function formatMonth(month: string): string {
  const [year, m] = month.split('-').map(Number);
  return new Date(Date.UTC(year, m - 1, 1)).toLocaleString('en-US', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

export const PERFORMANCE_MESSAGES = {
  month: 'Month must be a calendar month (YYYY-MM)',
  future: 'Figures can only be entered for the current month or an earlier one',
  draft: 'This contract is a draft: a campaign starts once the contract is sent or active.',
  none: 'No performance figures reported yet',
} as const;
