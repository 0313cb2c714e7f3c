import { toNestErrors } from '@hookform/resolvers';
import {
  type Deal,
  type DealFormValues,
  type DealPatchInput,
  type DealPayload,
  type DealSource,
  dealFormSchema,
} from '@shared/contracts/deals';
import type { FieldError, Resolver } from 'react-hook-form';

/** One product line as the form holds it: text throughout; productId '' until chosen. */
export type LineRow = { productId: string; quantity: string; unitPrice: string };

/** The deal dialog's fields: an existing customer, or a prospect the deal creates (name and e-mail). */
export type DealFormState = {
  customerMode: 'existing' | 'prospect';
  customerId: string;
  /** The chosen customer's name, shown in the picker. */
  customerName: string;
  prospectName: string;
  prospectEmail: string;
  title: string;
  ownerId: string;
  stageId: string;
  amount: string;
  expectedCloseDate: string;
  flightStart: string;
  flightEnd: string;
  /** '' is the stage's default. */
  probability: string;
  source: DealSource;
  nextStep: string;
  lines: LineRow[];
};

export const emptyLineRow = (): LineRow => ({ productId: '', quantity: '1', unitPrice: '' });

/** A new deal: outbound, in the first open stage, for the signed-in rep unless a manager picks another. */
export function newDealState(stageId: string): DealFormState {
  return {
    customerMode: 'existing',
    customerId: '',
    customerName: '',
    prospectName: '',
    prospectEmail: '',
    title: '',
    ownerId: '',
    stageId,
    amount: '',
    expectedCloseDate: '',
    flightStart: '',
    flightEnd: '',
    probability: '',
    source: 'outbound',
    nextStep: '',
    lines: [],
  };
}

export function toFormState(deal: Deal): DealFormState {
  return {
    customerMode: 'existing',
    customerId: deal.customerId,
    customerName: deal.customerName,
    prospectName: '',
    prospectEmail: '',
    title: deal.title,
    ownerId: deal.ownerId,
    stageId: deal.stageId,
    amount: String(deal.amount),
    expectedCloseDate: deal.expectedCloseDate ?? '',
    flightStart: deal.flightStart ?? '',
    flightEnd: deal.flightEnd ?? '',
    probability: deal.probabilityOverridden ? String(deal.probability) : '',
    source: deal.source,
    nextStep: deal.nextStep ?? '',
    lines: deal.lines.map((line) => ({
      productId: line.productId,
      quantity: String(line.quantity),
      unitPrice: String(line.unitPrice),
    })),
  };
}

/** A line with no product chosen is left out (an empty row the rep added and did not fill). */
const isChosen = (row: LineRow) => row.productId !== '';

function toSchemaInput(values: DealFormState, kept: LineRow[]): DealFormValues {
  const prospect = values.customerMode === 'prospect';
  return {
    customerId: prospect ? null : values.customerId || null,
    prospect: prospect ? { name: values.prospectName, email: values.prospectEmail } : null,
    title: values.title,
    ownerId: values.ownerId || null,
    stageId: values.stageId || null,
    amount: values.amount,
    expectedCloseDate: values.expectedCloseDate,
    flightStart: values.flightStart,
    flightEnd: values.flightEnd,
    probability: values.probability,
    source: values.source,
    nextStep: values.nextStep,
    lines: kept.map((row) => ({ productId: row.productId, quantity: row.quantity, unitPrice: row.unitPrice })),
  };
}

/** Where a message of the schema goes in the form: the prospect's fields, a line's row as it stands in the form. */
function formPath(path: PropertyKey[], kept: { index: number }[]): string {
  const [head, second, ...rest] = path.map((part) => (typeof part === 'symbol' ? String(part) : part));
  if (head === 'prospect') return second === 'email' ? 'prospectEmail' : 'prospectName';
  if (head === 'lines' && typeof second === 'number') {
    return ['lines', kept[second]?.index ?? second, ...rest].join('.');
  }
  return [head, second, ...rest].filter((part) => part !== undefined).join('.');
}

/**
 * Validates with dealFormSchema, the API's own rules, over the lines that will be sent; its output is the JSON body
 * of POST /api/deals (money in dollars).
 */
export const dealFormResolver: Resolver<DealFormState, unknown, DealPayload> = (values, _context, options) => {
  const kept = values.lines.map((row, index) => ({ row, index })).filter(({ row }) => isChosen(row));
  const result = dealFormSchema.safeParse(
    toSchemaInput(
      values,
      kept.map(({ row }) => row),
    ),
  );
  if (result.success) return { values: result.data, errors: {} };
  const flat: Record<string, FieldError> = {};
  for (const issue of result.error.issues) {
    const key = formPath(issue.path, kept);
    if (!(key in flat)) flat[key] = { type: issue.code, message: issue.message };
  }
  return { values: {}, errors: toNestErrors<DealFormState>(flat, options) };
};

/**
 * PATCH /api/deals/:id of an edit: the fields, the owner only for those who may choose it, the stage only when it
 * changed (a change of stage is a move), and the version the dialog opened with.
 */
export function toPatch(values: DealPayload, deal: Deal, canChooseOwner: boolean): DealPatchInput {
  return {
    ...(values.customerId && values.customerId !== deal.customerId ? { customerId: values.customerId } : {}),
    title: values.title,
    ...(canChooseOwner && values.ownerId && values.ownerId !== deal.ownerId ? { ownerId: values.ownerId } : {}),
    ...(values.stageId && values.stageId !== deal.stageId ? { stageId: values.stageId } : {}),
    amount: values.amount,
    expectedCloseDate: values.expectedCloseDate,
    flightStart: values.flightStart,
    flightEnd: values.flightEnd,
    probability: values.probability,
    source: values.source,
    nextStep: values.nextStep,
    lines: values.lines,
    version: deal.version,
  };
}
