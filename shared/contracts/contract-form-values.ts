/**
 * The contract form's values: defaults, conversion from and to the API, and the live totals. No zod here,
 * so the form can paint before its schema (contract-form.ts) has loaded.
 */
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
import type { ContractFormLine, ContractFormValues } from './contract-form';
import type { Contract } from './contract-responses';
import { hasPackage, NO_PACKAGE, type PaymentMode, parseWhole, quantityIssue } from './contract-vocabulary';
import type { UnderDeliveryRemedy } from './delivery-vocabulary';
import type { PriceMetric } from './product-vocabulary';

/** A line counts once it has a product, a quantity and a unit price (ui-spec.md section 5). */
export function isCompleteFormLine(line: Partial<ContractFormLine>): boolean {
  return Boolean(line.productId?.trim() && line.quantity?.trim() && line.unitPrice?.trim());
}

/** A new, empty line: quantity 1, unit price empty, discount 0, no in-season price, the contract's flight. */
export const emptyFormLine = (): ContractFormLine => ({
  productId: '',
  quantity: '1',
  unitPrice: '',
  discount: '0',
  seasonalPrice: '',
  flightStart: '',
  flightEnd: '',
});

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
    underDeliveryRemedy: 'credit',
    billToCustomerId: '',
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
    underDeliveryRemedy: contract.underDeliveryRemedy,
    // Billed to the customer itself: that choice, kept; billed to its agency: the default again (the server keeps
    // the agency and its terms unless the customer or the start date changes).
    billToCustomerId: contract.billToCustomerId === contract.customerId ? contract.customerId : '',
    title: contract.title ?? '',
    sendToCustomer: false,
    makeActive: false,
    lineItems: contract.lineItems.length
      ? contract.lineItems.map((line) => ({
          productId: line.productId,
          quantity: String(line.quantity),
          unitPrice: plainAmount(line.unitPrice),
          discount: plainAmount(line.discount),
          seasonalPrice: line.seasonalPrice === null ? '' : plainAmount(line.seasonalPrice),
          // A flight from the contract's start follows the start date when it changes.
          flightStart: line.flightStart === contract.startDate.slice(0, 10) ? '' : line.flightStart,
          flightEnd: line.flightEnd ?? '',
        }))
      : [emptyFormLine()],
  };
}

export type ContractPayloadLine = {
  productId: string;
  quantity: number;
  unitPrice: number;
  discount: number;
  /** null: no in-season price for this line; left out (an API client): the product's seasonal price. */
  seasonalPrice?: number | null;
  /** null or left out: the contract's start date. */
  flightStart?: string | null;
  /** null or left out: until the contract ends (a flat line: its product's default duration). */
  flightEnd?: string | null;
};

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
  underDeliveryRemedy: UnderDeliveryRemedy;
  packageId: string | null;
  /** null: the default (the customer's agency of record on the start date, else the customer). */
  billToCustomerId: string | null;
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
    underDeliveryRemedy: values.underDeliveryRemedy ?? 'credit',
    packageId: hasPackage(values.packageId) ? values.packageId : null,
    billToCustomerId: values.billToCustomerId?.trim() || null,
    sendToCustomer: values.sendToCustomer ?? true,
    makeActive: values.makeActive ?? false,
    lineItems: (values.lineItems ?? []).filter(isCompleteFormLine).map(toPayloadLine),
  };
  if (values.title?.trim()) payload.title = values.title.trim();
  if (payload.makeActive) payload.status = 'active';
  return payload;
}

/** One complete form line as the API takes it. */
export function toPayloadLine(line: Partial<ContractFormLine>): ContractPayloadLine {
  return {
    productId: line.productId!.trim(),
    quantity: Number(line.quantity!.trim()),
    unitPrice: amountOrZero(line.unitPrice),
    discount: amountOrZero(line.discount),
    // A value the form holds is sent ('' as null: none, or the contract's dates); one it lacks is left out.
    ...(line.seasonalPrice !== undefined && {
      seasonalPrice: line.seasonalPrice.trim() === '' ? null : amountOrZero(line.seasonalPrice),
    }),
    ...(line.flightStart !== undefined && { flightStart: dateOrNull(line.flightStart) }),
    ...(line.flightEnd !== undefined && { flightEnd: dateOrNull(line.flightEnd) }),
  };
}

function dateOrNull(text: string): string | null {
  const day = text.trim();
  return day === '' ? null : day.slice(0, 10);
}

function amountOrZero(text: string | undefined): number {
  const cents = text === undefined || text.trim() === '' ? 0 : parseMoney(text);
  return cents === null ? 0 : centsToAmount(cents);
}

/** What the summary needs of a line's product: its metric, default duration and inventory flag, its name. */
export type FormProductFacts = {
  name: string;
  priceMetric: PriceMetric;
  defaultDuration: number | null;
  inventoryRequired?: boolean;
};

/** A complete form line as numbers, with its flight as typed ('' for none). */
export type CountedFormLine = {
  productId: string;
  quantity: number;
  unitPriceCents: Cents;
  discountCents: Cents;
  seasonalPriceCents: Cents | null;
  flightStart: string;
  flightEnd: string;
};

/**
 * The form summary's ui-spec figures (ui-spec.md section 2): each row's line total (null while it cannot be
 * computed) and the totals over the complete lines with the chosen package's price; `counted` are those
 * lines as numbers, for what the contract will bill (contract-form-figures.ts, loaded with the summary's
 * billing preview).
 */
export function formTotals(
  values: Pick<ContractFormValues, 'lineItems' | 'setupFee'>,
  options: { packagePriceCents?: Cents } = {},
) {
  const rows = (values.lineItems ?? []).map((line) => {
    const quantity = parseWhole(line.quantity ?? '');
    const unitPriceCents = parseMoney(line.unitPrice ?? '');
    const discountCents = (line.discount ?? '').trim() === '' ? 0 : parseMoney(line.discount ?? '');
    if (quantityIssue(quantity) || unitPriceCents === null || unitPriceCents < 0) return null;
    if (discountCents === null || discountCents < 0) return null;
    if (lineAmountCents({ quantity, unitPriceCents }) > MAX_CENTS || discountCents > MAX_CENTS) return null;
    const seasonalText = (line.seasonalPrice ?? '').trim();
    const seasonalPriceCents = seasonalText === '' ? null : parseMoney(seasonalText);
    return {
      quantity,
      unitPriceCents,
      discountCents,
      productId: line.productId ?? '',
      // An in-season price still being typed (or invalid) counts as none until it is an amount.
      seasonalPriceCents:
        seasonalPriceCents !== null && seasonalPriceCents >= 0 && seasonalPriceCents <= MAX_CENTS
          ? seasonalPriceCents
          : null,
      flightStart: (line.flightStart ?? '').trim(),
      flightEnd: (line.flightEnd ?? '').trim(),
    };
  });
  const setupFeeText = (values.setupFee ?? '').trim();
  const setupFeeParsed = setupFeeText === '' ? 0 : (parseMoney(setupFeeText) ?? 0);
  const setupFeeCents = setupFeeParsed >= 0 && setupFeeParsed <= MAX_CENTS ? setupFeeParsed : 0;
  const counted: CountedFormLine[] = rows
    .filter((row, i) => row !== null && isCompleteFormLine(values.lineItems![i]))
    .map((row) => row!);
  const totals = computeContractTotals({
    lineItems: counted,
    packagePriceCents: options.packagePriceCents ?? 0,
    setupFeeCents,
  });
  const rowTotals = rows.map((row) => (row ? lineTotalCents(row) : null));
  return { rowTotals, ...totals, counted };
}
