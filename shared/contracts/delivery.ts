import { z } from 'zod';
import { isCalendarDate } from '../calendar-date';
import {
  DELIVERY_MESSAGES,
  type DeliveryRemedy,
  type DeliveryStatus,
  figureMessages,
  MAX_FIGURE,
  MAX_PUSH_ROWS,
} from './delivery-vocabulary';

/**
 * Delivery of CPM lines per billed period (product.md section 12): recorded by staff once a period has
 * ended, on the contract page or by CSV import; an under-delivered period is settled once, by a credit note
 * or makegood impressions on the line's next invoice.
 */

export const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;

/** The ids name records (malformed: 404); the month is checked by the route (malformed: 400, a bad input). */
export const deliveryParamsSchema = z.object({
  id: z.string().uuid('Not a valid id'),
  lineId: z.string().uuid('Not a valid line id'),
  month: z.string(),
});

/** A whole figure of impressions or clicks, in the CSV import's words (figureMessages). */
const figure = (label: string) => {
  const says = figureMessages(label);
  return z
    .number({ error: (issue) => (issue.input === undefined ? says.required : says.number) })
    .int(says.whole)
    .min(0, says.negative)
    .max(MAX_FIGURE, says.tooLarge);
};

/** PUT /api/contracts/{id}/delivery/{lineId}/{month}, and the contract page's delivery form. */
export const deliveryBodySchema = z.object({
  impressions: figure('Impressions'),
  /** null or left out: not reported. */
  clicks: figure('Clicks')
    .nullish()
    .transform((v) => v ?? null),
});
export type DeliveryBody = z.output<typeof deliveryBodySchema>;
export type DeliveryBodyInput = z.input<typeof deliveryBodySchema>;

/** The form holds text; an empty clicks field means "not reported". */
export const deliveryFormSchema = z.object({
  impressions: z
    .string()
    .trim()
    .min(1, 'Impressions are required')
    .regex(/^\d+$/, 'Impressions must be a whole number of at least 0'),
  clicks: z.string().trim().regex(/^\d*$/, 'Clicks must be a whole number of at least 0').default(''),
});
export type DeliveryFormValues = z.input<typeof deliveryFormSchema>;

/** A contract (id or short id) or line (line id or product name) as the CSV import names them. */
const reference = (label: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be text`) })
    .trim()
    .min(1, `${label} is required`)
    .max(200, `${label} cannot be longer than 200 characters`);

/**
 * One row of a delivery push (POST /api/delivery, product.md section 16): the CSV import's columns as JSON,
 * with either the `date` of a daily figure or the `month` of a period total. `final: true` says the period's
 * totals are final (it is then reconciled once it has ended).
 */
export const deliveryPushRowSchema = z
  .object(
    {
      contract: reference('Contract'),
      line: reference('Line'),
      /** YYYY-MM-DD: the day's figures (daily rows add up to their billed period). */
      date: z.string({ error: DELIVERY_MESSAGES.date }).refine(isCalendarDate, DELIVERY_MESSAGES.date).nullish(),
      /** YYYY-MM: the total of the billed period that starts in that month. */
      month: z.string({ error: DELIVERY_MESSAGES.month }).regex(MONTH_PATTERN, DELIVERY_MESSAGES.month).nullish(),
      impressions: figure('Impressions'),
      clicks: figure('Clicks')
        .nullish()
        .transform((v) => v ?? null),
      final: z
        .boolean({ error: DELIVERY_MESSAGES.final })
        .nullish()
        .transform((v) => v ?? false),
    },
    { error: DELIVERY_MESSAGES.pushRow },
  )
  .superRefine((row, context) => {
    const hasDate = row.date !== undefined && row.date !== null;
    const hasMonth = row.month !== undefined && row.month !== null;
    if (hasDate === hasMonth) {
      context.addIssue({
        code: 'custom',
        message: hasDate ? DELIVERY_MESSAGES.dateAndMonth : DELIVERY_MESSAGES.dateOrMonth,
      });
    }
  });
export type DeliveryPushRow = z.output<typeof deliveryPushRowSchema>;
export type DeliveryPushRowInput = z.input<typeof deliveryPushRowSchema>;

/** POST /api/delivery: 1 to MAX_PUSH_ROWS rows, validated and recorded all together or not at all. */
export const deliveryPushSchema = z.object(
  {
    rows: z
      .array(deliveryPushRowSchema, { error: DELIVERY_MESSAGES.pushRows })
      .min(1, DELIVERY_MESSAGES.pushEmpty)
      .max(MAX_PUSH_ROWS, DELIVERY_MESSAGES.pushTooManyRows),
  },
  { error: DELIVERY_MESSAGES.pushBody },
);
export type DeliveryPushBody = z.output<typeof deliveryPushSchema>;
export type DeliveryPushBodyInput = z.input<typeof deliveryPushSchema>;

/** One CPM line's billed period: what was booked, what was delivered, and how a shortfall was settled. */
export type DeliveryPeriod = {
  contractId: string;
  contractTitle: string | null;
  lineId: string;
  productName: string;
  /** YYYY-MM: the month the period starts in (the import's month column). */
  month: string;
  periodStart: string;
  periodEnd: string;
  invoiceId: string;
  invoiceNumber: string;
  /** Billed impressions plus the makegood impressions the period's invoice carries for the line. */
  booked: number;
  /** Of booked, the free makegood impressions from earlier periods. */
  makegood: number;
  delivered: number | null;
  clicks: number | null;
  /** The period has ended: delivery can be recorded (unless settled). */
  ended: boolean;
  /**
   * Its figures are final (recorded by staff, pushed with `final: true`, or past the period's end + the grace
   * days): an under-delivered period that has ended and is final is settled.
   */
  final: boolean;
  status: DeliveryStatus;
  remedy: DeliveryRemedy | null;
  shortfall: number;
  /** A credit remedy's credit note (null when it came to nothing to credit). */
  creditNote: { id: string; number: string; amount: number } | null;
  /** A makegood's invoice; null while it waits for the line's next invoice. */
  makegoodInvoice: { id: string; number: string } | null;
  recordedAt: string | null;
  recordedByName: string | null;
};

/** POST /api/delivery/import's answer: how many rows changed something, and what was settled. */
export type DeliveryImportResult = {
  rows: number;
  recorded: number;
  unchanged: number;
  credits: number;
  makegoods: number;
};

/**
 * POST /api/delivery's answer: the rows taken, how many periods changed (figures or finality), the credit
 * notes and makegoods that settled them, and every period the rows touched as it stands now.
 */
export type DeliveryPushResult = {
  rows: number;
  changed: number;
  credits: number;
  makegoods: number;
  periods: DeliveryPeriod[];
};

export * from './delivery-vocabulary';
