import { z } from 'zod';
import { listQuerySchema } from './common';
import { DUNNING_STAGES } from './invoice-vocabulary';
import { AGING_BUCKETS, RECEIVABLES_SORTS } from './receivables-vocabulary';

export * from './receivables-vocabulary';

/**
 * The Receivables filters: customer name, an aging bucket with money in it, a dunning stage, only with credit,
 * only with an open invoice whose latest autopay attempt failed (`autopay=failed`).
 */
export const receivablesFilterSchema = z.object({
  q: listQuerySchema.shape.q,
  bucket: z
    .enum([...AGING_BUCKETS, 'all', ''], { message: `Bucket must be one of ${AGING_BUCKETS.join(', ')}` })
    .optional()
    .transform((v) => (v === 'all' || v === '' ? undefined : v)),
  stage: z
    .enum([...DUNNING_STAGES, 'all', ''], { message: `Stage must be one of ${DUNNING_STAGES.join(', ')}` })
    .optional()
    .transform((v) => (v === 'all' || v === '' ? undefined : v)),
  credit: z
    .enum(['true', 'false', '1', '0'], { message: 'credit must be true or false' })
    .optional()
    .transform((v) => v === 'true' || v === '1'),
  autopay: z
    .enum(['failed', 'all', ''], { message: 'autopay must be failed or all' })
    .optional()
    .transform((v) => (v === 'failed' ? v : undefined)),
  sort: z
    .enum(RECEIVABLES_SORTS, { message: `Sort must be one of ${RECEIVABLES_SORTS.join(', ')}` })
    .default('balance'),
});
export type ReceivablesFilter = z.output<typeof receivablesFilterSchema>;

/** GET /api/receivables: the filters and a page (limit, offset; the total in X-Total-Count). */
export const receivablesQuerySchema = receivablesFilterSchema.extend({
  limit: listQuerySchema.shape.limit,
  offset: listQuerySchema.shape.offset,
});
export type ReceivablesQuery = z.output<typeof receivablesQuerySchema>;
