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
