import { z } from 'zod';
import { type DeliveryRemedy, type DeliveryStatus, MAX_FIGURE } from './delivery-vocabulary';

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

const figure = (label: string) =>
  z
    .number({ message: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .min(0, `${label} cannot be negative`)
    .max(MAX_FIGURE, `${label} is too large`);

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

export * from './delivery-vocabulary';
