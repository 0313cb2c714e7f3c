import { z } from 'zod';

/**
 * Campaign performance figures (impressions, clicks, views) that staff enter per contract and calendar month.
 * The product measures none of them itself; the portal shows only what was entered (product.md section 7).
 */

export const PERFORMANCE_MESSAGES = {
  month: 'Month must be a calendar month (YYYY-MM)',
  future: 'Figures can only be entered for the current month or an earlier one',
  draft: 'This contract is a draft: a campaign starts once the contract is sent or active.',
  none: 'No performance figures reported yet',
} as const;

export const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;

export const performanceParamsSchema = z.object({
  id: z.string().uuid('Not a valid id'),
  month: z.string().regex(MONTH_PATTERN, PERFORMANCE_MESSAGES.month),
});

/** The largest figure accepted (a trillion): far above any campaign, safely inside a JavaScript number. */
export const MAX_FIGURE = 1_000_000_000_000;

const figure = (label: string) =>
  z
    .number({ message: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .min(0, `${label} cannot be negative`)
    .max(MAX_FIGURE, `${label} is too large`);

/** PUT /api/contracts/{id}/performance/{month}, and the figures form. */
export const performanceBodySchema = z.object({
  impressions: figure('Impressions'),
  clicks: figure('Clicks'),
  views: figure('Views'),
});
export type PerformanceBody = z.infer<typeof performanceBodySchema>;

/** The figures form: the month too (a month input gives YYYY-MM). */
export const performanceFormSchema = performanceBodySchema.extend({
  month: z.string({ message: PERFORMANCE_MESSAGES.month }).regex(MONTH_PATTERN, PERFORMANCE_MESSAGES.month),
});
export type PerformanceFormValues = z.infer<typeof performanceFormSchema>;

export type PerformanceEntry = {
  contractId: string;
  contractTitle: string | null;
  /** YYYY-MM */
  month: string;
  impressions: number;
  clicks: number;
  views: number;
  updatedAt: string;
  updatedByName: string | null;
};

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
