import { z } from 'zod';
import { MAX_CENTS, parseMoney } from '../money';
import { isoDate } from './common';
import { isCompleteFormLine } from './contract-form-values';
import {
  CONTRACT_MESSAGES,
  hasPackage,
  lineIssues,
  NO_PACKAGE,
  PAYMENT_MODES,
  parseWhole,
  quantityIssue,
  termIssue,
} from './contract-vocabulary';

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
  })
  .superRefine((line, ctx) => {
    // Incomplete lines are dropped on submit, so only complete lines are checked.
    if (!isCompleteFormLine(line)) return;
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
    const issue = lineIssues({ quantity, unitPriceCents, discountCents });
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
    /** Not a field of the form: a stored title is carried through an edit unchanged. */
    title: z.string().max(200, 'Title cannot be longer than 200 characters').default(''),
    sendToCustomer: z.boolean().default(true),
    makeActive: z.boolean().default(false),
    lineItems: z.array(formLineSchema).default([]),
  })
  .superRefine((values, ctx) => {
    if (hasPackage(values.packageId)) return;
    if (!values.lineItems.some(isCompleteFormLine)) {
      ctx.addIssue({ code: 'custom', message: CONTRACT_MESSAGES.packageOrLine, path: ['lineItems'] });
    }
  });

/** The form's values as react-hook-form holds them. */
export type ContractFormValues = z.input<typeof contractFormSchema>;
export type ContractFormLine = z.input<typeof formLineSchema>;

export * from './contract-form-values';
