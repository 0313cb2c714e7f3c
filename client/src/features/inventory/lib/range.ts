import { availabilityQuerySchema } from '@shared/contracts/inventory';

export type RangeErrors = { from?: string; to?: string };

/**
 * The range picker's two days checked with the API's own rules (availabilityQuerySchema): a range to ask
 * for, or each field's first message.
 */
export function checkRange(
  from: string,
  to: string,
): { range: { from: string; to: string }; errors: null } | { range: null; errors: RangeErrors } {
  const parsed = availabilityQuerySchema.safeParse({ from, to });
  if (parsed.success) return { range: { from: parsed.data.from, to: parsed.data.to }, errors: null };
  const errors: RangeErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if ((field === 'from' || field === 'to') && errors[field] === undefined) errors[field] = issue.message;
  }
  return { range: null, errors };
}
