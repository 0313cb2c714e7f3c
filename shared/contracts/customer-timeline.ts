import { z } from 'zod';
import { isCalendarDate } from './common';
import { TIMELINE_DEFAULT_LIMIT, TIMELINE_MAX_LIMIT } from './customer-timeline-vocabulary';

export * from './customer-timeline-vocabulary';

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;
const BEFORE_MESSAGE = 'before must be a date and time, like 2026-12-04T19:12:12.000Z';

/** GET /api/customers/{id}/timeline's query (product.md section 19): `before` an ISO time, `limit` 1 to 200. */
export const customerTimelineQuerySchema = z.object({
  before: z
    .string({ message: BEFORE_MESSAGE })
    .trim()
    .refine((value) => {
      const match = DATE_TIME.exec(value);
      return match !== null && isCalendarDate(match[1]) && !Number.isNaN(Date.parse(value));
    }, BEFORE_MESSAGE)
    .transform((value) => new Date(value).toISOString())
    .optional(),
  limit: z.coerce
    .number({ message: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(TIMELINE_MAX_LIMIT, `limit cannot exceed ${TIMELINE_MAX_LIMIT}`)
    .default(TIMELINE_DEFAULT_LIMIT),
});
export type CustomerTimelineQuery = z.output<typeof customerTimelineQuerySchema>;
