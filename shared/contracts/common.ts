import { z } from 'zod';
import { isCalendarDate } from '../calendar-date';
import { EMAIL_PATTERN, MAX_EMAIL_LENGTH } from '../email';
import { type Cents, MAX_CENTS, parseMoney } from '../money';

/** The JSON body of every error response. */
export type ApiErrorBody = {
  message: string;
  code: string;
  /** For validation errors: the messages of each invalid field, keyed by its path ("lineItems.0.quantity"). */
  fieldErrors?: Record<string, string[]>;
};

export const idParamSchema = z.object({ id: z.string().uuid('Not a valid id') });

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 500;

/** limit/offset/q shared by every list endpoint; the total goes in the X-Total-Count header. */
export const listQuerySchema = z.object({
  limit: z.coerce
    .number({ message: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(MAX_PAGE_SIZE, `limit cannot exceed ${MAX_PAGE_SIZE}`)
    .default(DEFAULT_PAGE_SIZE),
  offset: z.coerce
    .number({ message: 'offset must be a number' })
    .int('offset must be a whole number')
    .min(0, 'offset cannot be negative')
    .default(0),
  q: z
    .string()
    .trim()
    .max(200, 'Search text is too long')
    .transform((v) => v.replaceAll('\u0000', ''))
    .optional(),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

/** A short optional text field: '' and null mean "not set". */
export const optionalText = (max = 500, label = 'This field') =>
  z
    .string({ message: `${label} must be text` })
    .trim()
    .max(max, `${label} cannot be longer than ${max} characters`)
    .nullish()
    .transform((v) => (v ? v : null));

/**
 * A money amount in dollars (a JSON number or numeric text, at most two decimals) parsed into integer cents.
 * `required` is the message for a missing value; negative amounts are refused with `negative`.
 */
export function moneyCents(messages: { required: string; negative: string; invalid?: string }) {
  return z
    .union([z.number(), z.string()], { message: messages.required })
    .superRefine((value, ctx) => {
      if (value === '') {
        ctx.addIssue({ code: 'custom', message: messages.required });
        return;
      }
      const cents = parseMoney(value);
      if (cents === null) {
        ctx.addIssue({ code: 'custom', message: messages.invalid ?? 'Enter an amount in dollars, like 1250.00' });
      } else if (cents < 0) {
        ctx.addIssue({ code: 'custom', message: messages.negative });
      } else if (cents > MAX_CENTS) {
        ctx.addIssue({ code: 'custom', message: 'Amount is too large' });
      }
    })
    .transform((value) => parseMoney(value) as Cents);
}

/** The HTML standard's valid e-mail address (../email.ts); each schema passes its own message. */
export const emailAddress = (message: string) =>
  z.string({ message }).trim().max(MAX_EMAIL_LENGTH, message).regex(EMAIL_PATTERN, message);

/** ISO calendar date (YYYY-MM-DD); a full timestamp is accepted and cut to its date. */
export const isoDate = (message: string) =>
  z
    .string({ message })
    .trim()
    .min(1, message)
    .transform((v) => v.slice(0, 10))
    .refine(isCalendarDate, { message: 'Enter a valid date (YYYY-MM-DD)' });

export { isCalendarDate } from '../calendar-date';

/** An optional whole number: '', null or absent mean "not set"; numeric text from a form is accepted. */
export function optionalWholeNumber(rule: z.ZodNumber) {
  return z
    .preprocess(
      (value) =>
        value === '' || (typeof value === 'number' && Number.isNaN(value))
          ? null
          : typeof value === 'string' && /^\s*-?\d+\s*$/.test(value)
            ? Number(value)
            : value,
      rule.nullish(),
    )
    .transform((n) => n ?? null);
}
