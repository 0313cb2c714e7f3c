import { z } from 'zod';
import { isCalendarDate, optionalWholeNumber } from './common';
import {
  currentMonths,
  daysInRange,
  INVENTORY_MESSAGES,
  MAX_AVAILABILITY_DAYS,
  MAX_CAPACITY,
  MIN_CAPACITY,
} from './inventory-vocabulary';

export * from './inventory-vocabulary';

/** The product form's capacity: a whole number of slots from 1 to 1,000; '' and null mean "not set". */
export const capacitySchema = optionalWholeNumber(
  z
    .number({ message: INVENTORY_MESSAGES.capacityWhole })
    .int(INVENTORY_MESSAGES.capacityWhole)
    .min(MIN_CAPACITY, INVENTORY_MESSAGES.capacityRange)
    .max(MAX_CAPACITY, INVENTORY_MESSAGES.capacityRange),
);

const rangeDate = (required: string, notDate: string) =>
  z.string({ message: required }).trim().min(1, required).refine(isCalendarDate, { message: notDate });

/**
 * ?from=YYYY-MM-DD&to=YYYY-MM-DD of the availability and inventory calendar routes: both days included, from
 * not after to, at most 400 days. The calendar route defaults to the season (holidaySeason) when both are
 * left out.
 */
export const availabilityQuerySchema = z
  .object({
    from: rangeDate(INVENTORY_MESSAGES.fromRequired, INVENTORY_MESSAGES.fromNotDate),
    to: rangeDate(INVENTORY_MESSAGES.toRequired, INVENTORY_MESSAGES.toNotDate),
    /** A contract whose own units are left out (its edit form asks what it could take). */
    contractId: z.string().uuid('contractId must be a contract id').optional(),
  })
  .superRefine((q, ctx) => {
    if (!isCalendarDate(q.from) || !isCalendarDate(q.to)) return;
    if (q.to < q.from) ctx.addIssue({ code: 'custom', path: ['to'], message: INVENTORY_MESSAGES.toBeforeFrom });
    else if (daysInRange(q.from, q.to) > MAX_AVAILABILITY_DAYS) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: INVENTORY_MESSAGES.rangeTooLong });
    }
  });
export type AvailabilityQuery = z.output<typeof availabilityQuerySchema>;

/**
 * GET /api/inventory: the availability query, the current month and the next ones (currentMonths) of
 * `today()` when neither day is given. The server's today is the business's (BUSINESS_TIMEZONE).
 */
export const inventoryCalendarQuerySchema = (today: () => string) =>
  z.preprocess((value) => {
    const query = (value ?? {}) as Record<string, unknown>;
    if (query.from !== undefined || query.to !== undefined) return query;
    return { ...query, ...currentMonths(today()) };
  }, availabilityQuerySchema);

/** ?quantity= of a day's answer: the units a day must have free to be offered as a next free date (1-1,000). */
export const inventoryDayQuerySchema = z.object({
  quantity: z.coerce
    .number({ message: INVENTORY_MESSAGES.quantityWhole })
    .int(INVENTORY_MESSAGES.quantityWhole)
    .min(1, INVENTORY_MESSAGES.quantityWhole)
    .max(MAX_CAPACITY, INVENTORY_MESSAGES.quantityWhole)
    .default(1),
});
