import { z } from 'zod';
import { MAX_CENTS, parseMoney } from '../money';
import { isCalendarDate, isoDate } from './common';
import { isCompleteFormLine } from './contract-form-values';
import { computeAutoStopDate } from './contract-lifecycle';
import {
  CONTRACT_MESSAGES,
  flightIssues,
  hasPackage,
  lineIssues,
  NO_PACKAGE,
  PAYMENT_MODES,
  parseWhole,
  quantityIssue,
  termIssue,
} from './contract-vocabulary';
import { UNDER_DELIVERY_REMEDIES } from './delivery-vocabulary';

/**
 * The contract form (/contracts/new, the edit dialog and page): its values as react-hook-form holds them
 * (strings and booleans), their rules, the starting values, the submit cleaning into the API payload, and
 * the live summary's figures.
 */

const formLineSchema = z
  .object({
    productId: z.string().default(''),
    quantity: z.string().default('1'),
    unitPrice: z.string().default(''),
    discount: z.string().default('0'),
    /** '' means no in-season price for this line. */
    seasonalPrice: z.string().default(''),
    /** '' means the contract's start date. */
    flightStart: z.string().default(''),
    /** '' means until the contract ends. */
    flightEnd: z.string().default(''),
  })
  .superRefine((line, ctx) => {
    // Incomplete lines are dropped on submit, so only complete lines are checked.
    if (!isCompleteFormLine(line)) return;
    // The in-season price the line keeps when it is a valid amount (blank: none).
    let seasonalPriceCents: number | null = null;
    if (line.seasonalPrice.trim() !== '') {
      const seasonalCents = parseMoney(line.seasonalPrice);
      if (seasonalCents !== null && seasonalCents >= 0) seasonalPriceCents = seasonalCents;
      if (seasonalCents === null) {
        ctx.addIssue({ code: 'custom', message: CONTRACT_MESSAGES.seasonalPriceInvalid, path: ['seasonalPrice'] });
      } else if (seasonalCents < 0) {
        ctx.addIssue({ code: 'custom', message: CONTRACT_MESSAGES.seasonalPriceNegative, path: ['seasonalPrice'] });
      }
    }
    for (const field of ['flightStart', 'flightEnd'] as const) {
      const day = line[field].trim();
      if (day !== '' && !isCalendarDate(day.slice(0, 10))) {
        ctx.addIssue({ code: 'custom', message: 'Enter a valid date (YYYY-MM-DD)', path: [field] });
      }
    }
    const quantity = parseWhole(line.quantity);
    const qIssue = quantityIssue(quantity);
    if (qIssue) ctx.addIssue({ code: 'custom', message: qIssue, path: ['quantity'] });
    const unitPriceCents = parseMoney(line.unitPrice);
    if (unitPriceCents === null) {
      ctx.addIssue({ code: 'custom', message: CONTRACT_MESSAGES.unitPriceInvalid, path: ['unitPrice'] });
    } else if (unitPriceCents < 0) {
      ctx.addIssue({ code: 'custom', message: CONTRACT_MESSAGES.unitPriceNegative, path: ['unitPrice'] });
    }
    const discountCents = line.discount.trim() === '' ? 0 : parseMoney(line.discount);
    if (discountCents === null) {
      ctx.addIssue({ code: 'custom', message: CONTRACT_MESSAGES.discountInvalid, path: ['discount'] });
    } else if (discountCents < 0) {
      ctx.addIssue({ code: 'custom', message: CONTRACT_MESSAGES.discountNegative, path: ['discount'] });
    }
    if (qIssue || unitPriceCents === null || unitPriceCents < 0 || discountCents === null || discountCents < 0) return;
    const issue = lineIssues({ quantity, unitPriceCents, discountCents, seasonalPriceCents });
    if (issue) ctx.addIssue({ code: 'custom', message: issue, path: ['discount'] });
  });

export const contractFormSchema = z
  .object({
    customerId: z
      .string({ message: CONTRACT_MESSAGES.customerRequired })
      .trim()
      .min(1, CONTRACT_MESSAGES.customerRequired),
    paymentMode: z
      .union([z.enum(PAYMENT_MODES), z.literal('')], { message: CONTRACT_MESSAGES.paymentModeRequired })
      .refine((v) => v !== '', CONTRACT_MESSAGES.paymentModeRequired),
    startDate: isoDate(CONTRACT_MESSAGES.startDateRequired),
    /** '' means indefinite. */
    termMonths: z
      .string()
      .default('')
      .superRefine((value, ctx) => {
        if (value.trim() === '') return;
        const issue = termIssue(parseWhole(value));
        if (issue) ctx.addIssue({ code: 'custom', message: issue });
      }),
    /** 'none' means no package. */
    packageId: z.string().default(NO_PACKAGE),
    setupFee: z
      .string()
      .default('0')
      .superRefine((value, ctx) => {
        if (value.trim() === '') return;
        const cents = parseMoney(value);
        if (cents === null) ctx.addIssue({ code: 'custom', message: CONTRACT_MESSAGES.setupFeeInvalid });
        else if (cents < 0) ctx.addIssue({ code: 'custom', message: CONTRACT_MESSAGES.setupFeeNegative });
        else if (cents > MAX_CENTS) ctx.addIssue({ code: 'custom', message: 'Amount is too large' });
      }),
    description: z.string().max(5000, 'Description cannot be longer than 5000 characters').default(''),
    /** How an under-delivered CPM period is settled (product.md section 12). */
    underDeliveryRemedy: z
      .enum(UNDER_DELIVERY_REMEDIES, { message: CONTRACT_MESSAGES.remedyInvalid })
      .default('credit'),
    /**
     * Who is billed (product.md section 20): '' means the default (the customer's agency of record, else the
     * customer); the "Bill to" select, shown for a customer with an agency of record, names the agency or the
     * customer itself.
     */
    billToCustomerId: z.string().default(''),
    /** Not a field of the form: a stored title is carried through an edit unchanged. */
    title: z.string().max(200, 'Title cannot be longer than 200 characters').default(''),
    sendToCustomer: z.boolean().default(true),
    makeActive: z.boolean().default(false),
    lineItems: z.array(formLineSchema).default([]),
  })
  .superRefine((values, ctx) => {
    // Each line's flight against the contract's start and term (when those are valid themselves).
    const term = values.termMonths.trim() === '' ? null : parseWhole(values.termMonths);
    if (isCalendarDate(values.startDate) && (term === null || !termIssue(term))) {
      const termEnd = computeAutoStopDate(values.startDate, term);
      values.lineItems.forEach((line, i) => {
        if (!isCompleteFormLine(line)) return;
        const flight = {
          flightStart: isCalendarDate(line.flightStart.trim()) ? line.flightStart.trim() : null,
          flightEnd: isCalendarDate(line.flightEnd.trim()) ? line.flightEnd.trim() : null,
        };
        for (const [field, message] of Object.entries(flightIssues(flight, { startDate: values.startDate, termEnd }))) {
          ctx.addIssue({ code: 'custom', message, path: ['lineItems', i, field] });
        }
      });
    }
    if (hasPackage(values.packageId)) return;
    if (!values.lineItems.some(isCompleteFormLine)) {
      ctx.addIssue({ code: 'custom', message: CONTRACT_MESSAGES.packageOrLine, path: ['lineItems'] });
    }
  });

/**
 * The "Add Line" form of a running contract (POST /api/contracts/{id}/lines): one line, every field of the
 * contract form's rows; product and unit price required. A blank flight start means today.
 */
export const addLineFormSchema = formLineSchema.superRefine((line, ctx) => {
  if (line.productId.trim() === '') {
    ctx.addIssue({ code: 'custom', message: CONTRACT_MESSAGES.productRequired, path: ['productId'] });
  }
  if (line.unitPrice.trim() === '') {
    ctx.addIssue({ code: 'custom', message: CONTRACT_MESSAGES.unitPriceRequired, path: ['unitPrice'] });
  }
  if (line.quantity.trim() === '') {
    ctx.addIssue({ code: 'custom', message: CONTRACT_MESSAGES.quantityMin, path: ['quantity'] });
  }
});
export type AddLineFormValues = z.input<typeof addLineFormSchema>;

/** The form's values as react-hook-form holds them. */
export type ContractFormValues = z.input<typeof contractFormSchema>;
export type ContractFormLine = z.input<typeof formLineSchema>;

export * from './contract-form-values';
