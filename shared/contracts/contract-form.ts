import { z } from 'zod';
import { computeContractTotals } from '../contract-totals';
import {
  type Cents,
  centsToAmount,
  lineAmountCents,
  lineTotalCents,
  MAX_CENTS,
  parseMoney,
  plainAmount,
} from '../money';
import { isoDate } from './common';
import type { Contract } from './contract-responses';
import {
  CONTRACT_MESSAGES,
  hasPackage,
  lineIssues,
  NO_PACKAGE,
  PAYMENT_MODES,
  type PaymentMode,
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

/** A line counts once it has a product, a quantity and a unit price (ui-spec.md section 5). */
export function isCompleteFormLine(line: Partial<ContractFormLine>): boolean {
  return Boolean(line.productId?.trim() && line.quantity?.trim() && line.unitPrice?.trim());
}

/** A new, empty line: quantity 1, unit price empty, discount 0. */
export const emptyFormLine = (): ContractFormLine => ({ productId: '', quantity: '1', unitPrice: '', discount: '0' });

/** The create form's starting values (start date today, send to customer on, make active off). */
export function newContractFormValues(today: string): ContractFormValues {
  return {
    customerId: '',
    paymentMode: '',
    startDate: today,
    termMonths: '',
    packageId: NO_PACKAGE,
    setupFee: '0',
    description: '',
    title: '',
    sendToCustomer: true,
    makeActive: false,
    lineItems: [emptyFormLine()],
  };
}

/** The edit dialog's values for a stored contract: the time part cut off startDate, both switches off. */
export function contractToFormValues(contract: Contract): ContractFormValues {
  return {
    customerId: contract.customerId,
    paymentMode: contract.paymentMode,
    startDate: contract.startDate.slice(0, 10),
    termMonths: contract.termMonths === null ? '' : String(contract.termMonths),
    packageId: contract.packageId ?? NO_PACKAGE,
    setupFee: plainAmount(contract.setupFee),
    description: contract.description ?? '',
    title: contract.title ?? '',
    sendToCustomer: false,
    makeActive: false,
    lineItems: contract.lineItems.length
      ? contract.lineItems.map((line) => ({
          productId: line.productId,
          quantity: String(line.quantity),
          unitPrice: plainAmount(line.unitPrice),
          discount: plainAmount(line.discount),
        }))
      : [emptyFormLine()],
  };
}

export type ContractPayloadLine = { productId: string; quantity: number; unitPrice: number; discount: number };

/** The body of POST and PATCH /api/contracts, as the form sends it (ui-spec.md section 7). */
export type ContractPayload = {
  customerId: string;
  startDate: string;
  termMonths: number | null;
  description: string;
  /** Sent when the contract has one (the form carries a stored title through an edit). */
  title?: string;
  setupFee: number;
  paymentMode: PaymentMode;
  packageId: string | null;
  sendToCustomer: boolean;
  makeActive: boolean;
  /** Sent only as 'active', when makeActive is on. */
  status?: 'active';
  lineItems: ContractPayloadLine[];
};

/**
 * ui-spec.md section 5's submit cleaning: incomplete lines dropped, numbers converted to numbers, an empty
 * term becomes null, the 'none' package becomes null; status 'active' is sent only with makeActive.
 * Expects values that passed contractFormSchema.
 */
export function toContractPayload(values: ContractFormValues): ContractPayload {
  const term = values.termMonths?.trim() ?? '';
  const payload: ContractPayload = {
    customerId: values.customerId.trim(),
    startDate: values.startDate.trim().slice(0, 10),
    termMonths: term === '' ? null : Number(term),
    description: values.description ?? '',
    setupFee: amountOrZero(values.setupFee),
    paymentMode: values.paymentMode as PaymentMode,
    packageId: hasPackage(values.packageId) ? values.packageId : null,
    sendToCustomer: values.sendToCustomer ?? true,
    makeActive: values.makeActive ?? false,
    lineItems: (values.lineItems ?? []).filter(isCompleteFormLine).map((line) => ({
      productId: line.productId!.trim(),
      quantity: Number(line.quantity!.trim()),
      unitPrice: amountOrZero(line.unitPrice),
      discount: amountOrZero(line.discount),
    })),
  };
  if (values.title?.trim()) payload.title = values.title.trim();
  if (payload.makeActive) payload.status = 'active';
  return payload;
}

function amountOrZero(text: string | undefined): number {
  const cents = text === undefined || text.trim() === '' ? 0 : parseMoney(text);
  return cents === null ? 0 : centsToAmount(cents);
}

/**
 * The form summary's figures (ui-spec.md section 2): each row's line total (null while it cannot be
 * computed) and the contract totals over the complete lines, with the chosen package's price.
 */
export function formTotals(
  values: Pick<ContractFormValues, 'lineItems' | 'setupFee'>,
  options: { packagePriceCents?: Cents; seasonalPriceCentsByProductId?: Record<string, Cents | null | undefined> } = {},
) {
  const rows = (values.lineItems ?? []).map((line) => {
    const quantity = parseWhole(line.quantity ?? '');
    const unitPriceCents = parseMoney(line.unitPrice ?? '');
    const discountCents = (line.discount ?? '').trim() === '' ? 0 : parseMoney(line.discount ?? '');
    if (quantityIssue(quantity) || unitPriceCents === null || unitPriceCents < 0) return null;
    if (discountCents === null || discountCents < 0) return null;
    if (lineAmountCents({ quantity, unitPriceCents }) > MAX_CENTS || discountCents > MAX_CENTS) return null;
    return { quantity, unitPriceCents, discountCents, productId: line.productId ?? '' };
  });
  const setupFeeCents = (values.setupFee ?? '').trim() === '' ? 0 : (parseMoney(values.setupFee ?? '') ?? 0);
  const counted = rows.filter((row, i) => row !== null && isCompleteFormLine(values.lineItems![i]));
  const totals = computeContractTotals({
    lineItems: counted.map((row) => ({
      ...row!,
      seasonalPriceCents: options.seasonalPriceCentsByProductId?.[row!.productId] ?? null,
    })),
    packagePriceCents: options.packagePriceCents ?? 0,
    setupFeeCents: setupFeeCents >= 0 && setupFeeCents <= MAX_CENTS ? setupFeeCents : 0,
  });
  const rowTotals = rows.map((row) => (row ? lineTotalCents(row) : null));
  return { rowTotals, ...totals };
}
