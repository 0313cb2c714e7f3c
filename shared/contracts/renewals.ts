import { z } from 'zod';
import { listQuerySchema } from './common';
import { RENEWALS_DUE_DAYS } from './renewal-vocabulary';

export * from './renewal-vocabulary';

/** GET /api/renewals: paged like every list; withinDays 1-365 (60 by default). */
export const renewalListQuerySchema = listQuerySchema.omit({ q: true }).extend({
  withinDays: z.coerce
    .number({ message: 'withinDays must be a number of days' })
    .int('withinDays must be a whole number of days')
    .min(1, 'withinDays must be at least 1 day')
    .max(365, 'withinDays cannot exceed 365 days')
    .default(RENEWALS_DUE_DAYS),
});
export type RenewalListQuery = z.output<typeof renewalListQuerySchema>;
