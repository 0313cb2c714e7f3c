import { z } from 'zod';
import { PERFORMANCE_MESSAGES } from './performance-vocabulary';

/**
 * Campaign performance figures (impressions, clicks, views) that staff enter per contract and calendar month.
 * The product measures none of them itself; the portal shows only what was entered (product.md section 7).
 */

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

export * from './performance-vocabulary';
