import { z } from 'zod';
import { computeContractTotals, discountExceedsLine, lineAmountCents } from '../contract-totals';
import { type Cents, centsToAmount, MAX_CENTS, parseMoney } from '../money';
import { listQuerySchema, moneyCents, optionalText } from './common';

// ---------------------------------------------------------------------------------------------------------
// Vocabulary
// ---------------------------------------------------------------------------------------------------------

export const CONTRACT_STATUSES = ['draft', 'sent', 'active', 'paused', 'canceled', 'completed'] as const;
export type ContractStatus = (typeof CONTRACT_STATUSES)[number];

export const PAYMENT_MODES = ['portal', 'pay_link'] as const;
export type PaymentMode = (typeof PAYMENT_MODES)[number];

export const PAYMENT_MODE_LABELS: Record<PaymentMode, { label: string; description: string }> = {
  portal: { label: 'Client Portal', description: 'Customer manages payments online' },
  pay_link: { label: 'Pay-Link', description: 'Send secure payment link via e-mail' },
};

export const MIN_TERM_MONTHS = 1;
export const MAX_TERM_MONTHS = 120;
/** The form's value for "No Package". */
export const NO_PACKAGE = 'none';

/** Every validation message of the contract form and API, in one place (ui-spec.md section 5). */
export const CONTRACT_MESSAGES = {
  customerRequired: 'Customer is required',
  startDateRequired: 'Start date is required',
  paymentModeRequired: 'Payment mode is required',
  termWhole: 'Term must be a whole number of months',
  termMin: 'Term must be at least 1 month',
  termMax: `Term cannot exceed ${MAX_TERM_MONTHS} months`,
  packageOrLine: 'Please select a package or add at least one complete line item',
  productRequired: 'Product is required',
  quantityWhole: 'Quantity must be a whole number',
  quantityMin: 'Quantity must be at least 1',
  unitPriceRequired: 'Unit price is required',
  unitPriceInvalid: 'Unit price must be an amount in dollars, like 1250.00',
  unitPriceNegative: 'Unit price cannot be negative',
  discountInvalid: 'Discount must be an amount in dollars, like 50.00',
  discountNegative: 'Discount cannot be negative',
  discountAboveLine: 'Discount cannot exceed the line amount',
  lineTooLarge: 'Line amount is too large',
  setupFeeInvalid: 'Setup fee must be an amount in dollars, like 250.00',
  setupFeeNegative: 'Setup fee cannot be negative',
  totalTooLarge: 'Contract total is too large',
  zeroAmountPayLink: 'Contract has $0.00 amount. Please add line items, select a package, or set a setup fee first.',
  cancelReasonRequired: 'Please give a reason for canceling the contract',
} as const;

const MAX_QUANTITY = 1_000_000;

// ---------------------------------------------------------------------------------------------------------
// Shared field rules
// ---------------------------------------------------------------------------------------------------------

/** The message for a term in months, or null when it is valid (1 to 120, whole). */
export function termIssue(months: number): string | null {
  if (!Number.isFinite(months) || !Number.isInteger(months)) return CONTRACT_MESSAGES.termWhole;
  if (months < MIN_TERM_MONTHS) return CONTRACT_MESSAGES.termMin;
  if (months > MAX_TERM_MONTHS) return CONTRACT_MESSAGES.termMax;
  return null;
}

/** The message for a line's quantity, or null when valid. */
function quantityIssue(quantity: number): string | null {
  if (!Number.isFinite(quantity) || !Number.isInteger(quantity)) return CONTRACT_MESSAGES.quantityWhole;
  if (quantity < 1) return CONTRACT_MESSAGES.quantityMin;
  if (quantity > MAX_QUANTITY) return `Quantity cannot exceed ${MAX_QUANTITY.toLocaleString('en-US')}`;
  return null;
}

/**
 * A calendar date (YYYY-MM-DD); a full timestamp is cut to its date. Same messages as common.ts's isoDate,
 * but it stops at the first failed check, so text that is no date at all never reaches Date.
 */
function calendarDate(requiredMessage: string) {
  const invalid = 'Enter a valid date (YYYY-MM-DD)';
  return z
    .string({ message: requiredMessage })
    .trim()
    .min(1, requiredMessage)
    .transform((v) => v.slice(0, 10))
    .superRefine((v, ctx) => {
      if (v === '') return;
      const valid = /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`));
      if (!valid || new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) !== v) {
        ctx.addIssue({ code: 'custom', message: invalid });
      }
    });
}

/** Numeric text of a whole number, or NaN ('' and other text are NaN). */
function parseWhole(text: string): number {
  const trimmed = text.trim();
  return /^[+-]?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

function lineIssues(line: { quantity: number; unitPriceCents: Cents; discountCents: Cents }): string | null {
  if (lineAmountCents(line) > MAX_CENTS) return CONTRACT_MESSAGES.lineTooLarge;
  if (discountExceedsLine(line)) return CONTRACT_MESSAGES.discountAboveLine;
  return null;
}

// ---------------------------------------------------------------------------------------------------------
// (a) The form, as react-hook-form holds it: strings and booleans
// ---------------------------------------------------------------------------------------------------------

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
    startDate: calendarDate(CONTRACT_MESSAGES.startDateRequired),
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

function hasPackage(packageId: string | null | undefined): packageId is string {
  return Boolean(packageId && packageId.trim() !== '' && packageId !== NO_PACKAGE);
}

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

/** 1250.5 -> "1250.50": an amount as an input field shows it. */
function plainAmount(amount: number): string {
  const cents = parseMoney(amount) ?? 0;
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

// ---------------------------------------------------------------------------------------------------------
// (b) Submit cleaning: the form's values -> the API payload
// ---------------------------------------------------------------------------------------------------------

export type ContractPayloadLine = { productId: string; quantity: number; unitPrice: number; discount: number };

/** The body of POST and PATCH /api/contracts, as the form sends it (ui-spec.md section 7). */
export type ContractPayload = {
  customerId: string;
  startDate: string;
  termMonths: number | null;
  description: string;
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
  const rowTotals = rows.map((row) => (row ? Math.max(0, lineAmountCents(row) - row.discountCents) : null));
  return { rowTotals, ...totals };
}

// ---------------------------------------------------------------------------------------------------------
// (c) The API: POST and PATCH /api/contracts (the same payload), list query, cancel body
// ---------------------------------------------------------------------------------------------------------

/** An id that must be given ('required') and name a record ('unknown' for text that cannot be an id). */
function requiredId(required: string, unknown: string) {
  return z
    .string({ message: required })
    .trim()
    .superRefine((v, ctx) => {
      if (v === '') ctx.addIssue({ code: 'custom', message: required });
      else if (!z.uuid().safeParse(v).success) ctx.addIssue({ code: 'custom', message: unknown });
    });
}

const apiLineSchema = z
  .object({
    productId: requiredId(CONTRACT_MESSAGES.productRequired, 'Product not found'),
    quantity: z
      .union([z.number(), z.string()], { message: CONTRACT_MESSAGES.quantityMin })
      .transform((v) => (typeof v === 'number' ? v : parseWhole(v)))
      .superRefine((v, ctx) => {
        const issue = quantityIssue(v);
        if (issue) ctx.addIssue({ code: 'custom', message: issue });
      }),
    unitPrice: moneyCents({
      required: CONTRACT_MESSAGES.unitPriceRequired,
      negative: CONTRACT_MESSAGES.unitPriceNegative,
      invalid: CONTRACT_MESSAGES.unitPriceInvalid,
    }),
    discount: moneyCents({
      required: CONTRACT_MESSAGES.discountInvalid,
      negative: CONTRACT_MESSAGES.discountNegative,
      invalid: CONTRACT_MESSAGES.discountInvalid,
    })
      .nullish()
      .transform((v) => v ?? 0),
  })
  .superRefine((line, ctx) => {
    const { quantity, unitPrice, discount } = line;
    // Only a line whose own fields are valid is checked as a whole.
    if (![quantity, unitPrice, discount].every(Number.isSafeInteger)) return;
    if (quantityIssue(quantity) || unitPrice < 0 || discount < 0) return;
    const issue = lineIssues({ quantity, unitPriceCents: unitPrice, discountCents: discount });
    if (issue) ctx.addIssue({ code: 'custom', message: issue, path: ['discount'] });
  });

export const contractBodySchema = z
  .object({
    customerId: requiredId(CONTRACT_MESSAGES.customerRequired, 'Customer not found'),
    title: optionalText(200, 'Title'),
    description: optionalText(5000, 'Description'),
    startDate: calendarDate(CONTRACT_MESSAGES.startDateRequired),
    termMonths: z
      .union([z.number(), z.string(), z.null()], { message: CONTRACT_MESSAGES.termWhole })
      .optional()
      .transform((v) =>
        v === undefined || v === null || (typeof v === 'string' && v.trim() === '')
          ? null
          : typeof v === 'number'
            ? v
            : parseWhole(v),
      )
      .superRefine((v, ctx) => {
        const issue = v === null ? null : termIssue(v);
        if (issue) ctx.addIssue({ code: 'custom', message: issue });
      }),
    setupFee: moneyCents({
      required: CONTRACT_MESSAGES.setupFeeInvalid,
      negative: CONTRACT_MESSAGES.setupFeeNegative,
      invalid: CONTRACT_MESSAGES.setupFeeInvalid,
    })
      .nullish()
      .transform((v) => v ?? 0),
    paymentMode: z.enum(PAYMENT_MODES, { message: CONTRACT_MESSAGES.paymentModeRequired }),
    /** null, '' or 'none': no package. */
    packageId: z
      .string({ message: 'Package not found' })
      .trim()
      .nullish()
      .transform((v) => (hasPackage(v) ? v : null))
      .refine((v) => v === null || z.uuid().safeParse(v).success, 'Package not found'),
    sendToCustomer: z.boolean({ message: 'sendToCustomer must be true or false' }).default(false),
    makeActive: z.boolean({ message: 'makeActive must be true or false' }).default(false),
    /** 'active' is the same as makeActive; 'sent' the same as sendToCustomer. Other changes use the actions. */
    status: z
      .enum(['draft', 'sent', 'active'], {
        message: 'Status can only be draft, sent or active here; use the contract actions for other changes',
      })
      .optional(),
    /** Only holders of contract:assign-rep may name someone other than themselves. */
    salesRepId: z.string().uuid('Sales rep not found').nullish(),
    lineItems: z.array(apiLineSchema, { message: 'Line items must be a list' }).default([]),
  })
  .superRefine((body, ctx) => {
    if (body.packageId === null && body.lineItems.length === 0) {
      ctx.addIssue({ code: 'custom', message: CONTRACT_MESSAGES.packageOrLine, path: ['lineItems'] });
    }
    const lineTotals = body.lineItems.map((l) => l.quantity * l.unitPrice - l.discount);
    if (lineTotals.reduce((a, b) => a + b, 0) + body.setupFee > MAX_CENTS) {
      ctx.addIssue({ code: 'custom', message: CONTRACT_MESSAGES.totalTooLarge, path: ['lineItems'] });
    }
  });

/** What a client sends (amounts in dollars). */
export type ContractBodyInput = z.input<typeof contractBodySchema>;
/** What the server works with after validation (amounts in cents). */
export type ContractBody = z.output<typeof contractBodySchema>;

export const contractListQuerySchema = listQuerySchema.extend({
  /** A status, or 'all' (the filter's "All") for every status. */
  status: z
    .enum([...CONTRACT_STATUSES, 'all'], { message: `Status must be one of ${CONTRACT_STATUSES.join(', ')}` })
    .optional()
    .transform((v) => (v === 'all' ? undefined : v)),
  customerId: z.string().uuid('Not a valid customer').optional(),
  /** The sales view's "my contracts": only those the caller is the sales rep of. */
  mine: z
    .enum(['true', 'false', '1', '0'], { message: 'mine must be true or false' })
    .optional()
    .transform((v) => v === 'true' || v === '1'),
});
export type ContractListQuery = z.output<typeof contractListQuerySchema>;

export const cancelContractSchema = z.object({
  reason: z
    .string({ message: CONTRACT_MESSAGES.cancelReasonRequired })
    .trim()
    .min(1, CONTRACT_MESSAGES.cancelReasonRequired)
    .max(1000, 'The reason cannot be longer than 1000 characters'),
});
export type CancelContractInput = z.input<typeof cancelContractSchema>;

// ---------------------------------------------------------------------------------------------------------
// (d) Responses (amounts in dollars)
// ---------------------------------------------------------------------------------------------------------

export type ContractProductRef = {
  id: string;
  name: string;
  adType: string;
  defaultPrice: number;
  seasonalPrice: number | null;
  priceMetric: string;
};

export type ContractLineItem = {
  id: string;
  productId: string;
  quantity: number;
  unitPrice: number;
  discount: number;
  lineTotal: number;
  product: ContractProductRef;
};

export type ContractPackageItem = {
  id: string;
  productId: string | null;
  /** A custom item name, for items that are not a catalog product. */
  productName: string | null;
  quantity: number;
  customPrice: number | null;
  customDescription: string | null;
  notes: string | null;
  product: ContractProductRef | null;
};

export type ContractPackage = {
  id: string;
  name: string;
  description: string | null;
  price: number;
  items: ContractPackageItem[];
};

export type ContractCustomer = { id: string; name: string; email: string; company: string | null };

/** A contract as the list shows it. */
export type ContractSummary = {
  id: string;
  customerId: string;
  customerName: string | null;
  title: string | null;
  status: ContractStatus;
  description: string | null;
  /** YYYY-MM-DD */
  startDate: string;
  termMonths: number | null;
  /** YYYY-MM-DD: startDate + termMonths calendar months; null when indefinite. */
  autoStopDate: string | null;
  paymentMode: PaymentMode;
  payLinkToken: string | null;
  /** Lines + package + setup fee (ui-spec.md's contract total); totalAmount is the same figure. */
  total: number;
  totalAmount: number;
  /** Lines + package: billed every month. */
  monthlyAmount: number;
  /** The monthly amount plus the setup fee. */
  firstInvoiceAmount: number;
  /** The monthly amount for periods starting October to December. */
  seasonalMonthlyAmount: number;
  setupFee: number;
  packagePrice: number;
  lineItemsTotal: number;
  stripeSubscriptionId: string | null;
  stripePaymentLinkId: string | null;
  stripeCustomerId: string | null;
  packageId: string | null;
  salesRepId: string | null;
  salesRepName: string | null;
  cancelReason: string | null;
  createdAt: string;
  updatedAt: string;
  /** Whether the caller may edit / delete it now (the rules below and the caller's rights). */
  canEdit: boolean;
  canDelete: boolean;
};

/** A contract as GET /api/contracts/:id, create, update and every action answer it. */
export type Contract = ContractSummary & {
  customer: ContractCustomer | null;
  package: ContractPackage | null;
  lineItems: ContractLineItem[];
};

export type PaymentLinkResponse = { paymentUrl: string };

// ---------------------------------------------------------------------------------------------------------
// (e) Rules shared by client and server
// ---------------------------------------------------------------------------------------------------------

type PaymentState = {
  status: string;
  stripeSubscriptionId?: string | null;
  stripePaymentLinkId?: string | null;
};

const paymentStarted = (c: PaymentState) => Boolean(c.stripeSubscriptionId || c.stripePaymentLinkId);

/** ui-spec.md section 4: draft, or sent or active with no subscription and no payment link. */
export function canEditContract(c: PaymentState): boolean {
  return editRefusal(c) === null;
}

/** ui-spec.md section 4: canceled or draft, or active with neither payment id. */
export function canDeleteContract(c: PaymentState): boolean {
  return deleteRefusal(c) === null;
}

/** Why a contract cannot be edited, or null when it can. */
export function editRefusal(c: PaymentState): string | null {
  if (c.status === 'draft') return null;
  if (c.status === 'sent' || c.status === 'active') {
    return paymentStarted(c) ? 'This contract cannot be edited because payment processing has started.' : null;
  }
  return `This contract is ${statusWord(c.status)} and can no longer be edited.`;
}

/** Why a contract cannot be deleted, or null when it can. */
export function deleteRefusal(c: PaymentState): string | null {
  if (c.status === 'draft' || c.status === 'canceled') return null;
  if (c.status === 'active') {
    return paymentStarted(c)
      ? 'This contract cannot be deleted because payment processing has started. Cancel it instead.'
      : null;
  }
  if (c.status === 'completed') return 'This contract is completed and cannot be deleted.';
  return `This contract is ${statusWord(c.status)} and cannot be deleted. Cancel it instead.`;
}

/** The status actions after creation (product.md section 4). 'complete' is done by the billing run only. */
export const CONTRACT_TRANSITIONS = {
  send: { from: ['draft'], to: 'sent', verb: 'send', done: 'sent' },
  activate: { from: ['draft', 'sent'], to: 'active', verb: 'activate', done: 'activated' },
  pause: { from: ['active'], to: 'paused', verb: 'pause', done: 'paused' },
  resume: { from: ['paused'], to: 'active', verb: 'resume', done: 'resumed' },
  cancel: { from: ['draft', 'sent', 'active', 'paused'], to: 'canceled', verb: 'cancel', done: 'canceled' },
  complete: { from: ['active'], to: 'completed', verb: 'complete', done: 'completed' },
} as const satisfies Record<
  string,
  { from: readonly ContractStatus[]; to: ContractStatus; verb: string; done: string }
>;
export type ContractAction = keyof typeof CONTRACT_TRANSITIONS;

export function canTransition(status: string, action: ContractAction): boolean {
  return (CONTRACT_TRANSITIONS[action].from as readonly string[]).includes(status);
}

/** The actions staff can take on a contract in this status (the billing run's 'complete' left out). */
export function availableActions(status: string): ContractAction[] {
  return (Object.keys(CONTRACT_TRANSITIONS) as ContractAction[]).filter(
    (action) => action !== 'complete' && canTransition(status, action),
  );
}

/** The 409 message for a refused action, naming the current status. */
export function transitionRefusal(action: ContractAction, status: string): string {
  const rule = CONTRACT_TRANSITIONS[action];
  const from = rule.from.map((s) => statusWord(s));
  const list = from.length === 1 ? from[0] : `${from.slice(0, -1).join(', ')} or ${from[from.length - 1]}`;
  return `Cannot ${rule.verb} this contract: it is ${statusWord(status)}. Only ${list} contracts can be ${rule.done}.`;
}

/** The status a direct status change leads through: which action takes `from` to `to`, if any. */
export function actionFor(from: string, to: ContractStatus): ContractAction | null {
  for (const action of Object.keys(CONTRACT_TRANSITIONS) as ContractAction[]) {
    const rule = CONTRACT_TRANSITIONS[action];
    if (rule.to === to && canTransition(from, action) && action !== 'complete') return action;
  }
  return null;
}

/**
 * A calendar date plus whole months, clamped to the month's last day: Jan 31 + 1 month = Feb 28 (29 in
 * a leap year). The one rule for auto-stop dates and billing periods.
 */
export function addCalendarMonths(date: string, months: number): string {
  const [y, m, d] = date.slice(0, 10).split('-').map(Number);
  const monthIndex = y * 12 + (m - 1) + months;
  const year = Math.floor(monthIndex / 12);
  const month = monthIndex - year * 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(d, lastDay);
  return `${String(year).padStart(4, '0')}-${String(month + 1).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** startDate + termMonths calendar months; null when the term is indefinite. */
export function computeAutoStopDate(startDate: string, termMonths: number | null): string | null {
  return termMonths === null ? null : addCalendarMonths(startDate, termMonths);
}

// ---------------------------------------------------------------------------------------------------------
// (f) Status labels and badge colours
// ---------------------------------------------------------------------------------------------------------

export const CONTRACT_STATUS_LABELS: Record<ContractStatus, string> = {
  draft: 'Draft',
  sent: 'Sent',
  active: 'Active',
  paused: 'Paused',
  canceled: 'Canceled',
  completed: 'Completed',
};

export type BadgeTone = 'green' | 'yellow' | 'grey' | 'red' | 'blue';

/** ui-spec.md section 4: active green, sent yellow, draft grey, paused and canceled red, completed blue. */
export const CONTRACT_STATUS_TONES: Record<ContractStatus, BadgeTone> = {
  draft: 'grey',
  sent: 'yellow',
  active: 'green',
  paused: 'red',
  canceled: 'red',
  completed: 'blue',
};

export const BADGE_TONE_CLASSES: Record<BadgeTone, string> = {
  green: 'bg-green-100 text-green-800',
  yellow: 'bg-yellow-100 text-yellow-800',
  grey: 'bg-gray-100 text-gray-800',
  red: 'bg-red-100 text-red-800',
  blue: 'bg-blue-100 text-blue-800',
};

export function isContractStatus(value: unknown): value is ContractStatus {
  return typeof value === 'string' && (CONTRACT_STATUSES as readonly string[]).includes(value);
}

/** A status badge's label, tone and classes; an unknown status looks like draft. */
export function contractStatusBadge(status: string | null | undefined): {
  label: string;
  tone: BadgeTone;
  className: string;
} {
  const tone = isContractStatus(status) ? CONTRACT_STATUS_TONES[status] : CONTRACT_STATUS_TONES.draft;
  const label = isContractStatus(status)
    ? CONTRACT_STATUS_LABELS[status]
    : status
      ? status.charAt(0).toUpperCase() + status.slice(1)
      : CONTRACT_STATUS_LABELS.draft;
  return { label, tone, className: BADGE_TONE_CLASSES[tone] };
}

function statusWord(status: string): string {
  return isContractStatus(status) ? CONTRACT_STATUS_LABELS[status].toLowerCase() : status;
}
