import { type Adjustment, amendmentAdjustments, type BillableLine } from '@shared/billing';
import type { AddContractLine } from '@shared/contracts/contract-api';
import { amendmentRefusal, computeAutoStopDate } from '@shared/contracts/contract-lifecycle';
import type { AmendmentNextInvoice, AmendmentPreview, Contract } from '@shared/contracts/contract-responses';
import { CONTRACT_MESSAGES, flightIssues, shortContractId } from '@shared/contracts/contract-vocabulary';
import type { PriceMetric } from '@shared/contracts/product-vocabulary';
import { centsToAmount, formatCents, lineTotalCents } from '@shared/money';
import type { Db } from '../../db/client';
import { recordAudit } from '../../lib/audit';
import { businessToday } from '../../lib/business-day';
import { assertNoFieldErrors, badRequest, conflict, notFound } from '../../lib/errors';
import { notify } from '../../lib/notify';
import {
  invoicedPeriodsFrom,
  lastInvoicedPeriod,
  nextScheduledCharges,
  type ScheduledCharge,
} from '../billing/billing.service';
import { supersedeInsertionOrder } from '../insertion-orders/insertion-orders.service';
import { assertUnitsAvailable } from '../inventory/inventory.service';
import type { SessionUser } from '../sessions/sessions';
import { storedFigures } from './contracts.figures';
import {
  type ContractRow,
  endLineFlight,
  insertAdjustments,
  insertLineItem,
  selectLineItems,
  selectProducts,
  updateContractRow,
} from './contracts.repo';
import {
  assertInventoryFlights,
  assertLineAmounts,
  type ContractDeps,
  getContract,
  lineSnapshot,
  lockWritable,
} from './contracts.service';

/**
 * Amendments of a running contract (product.md section 11): once its edit is locked (payment processing has
 * started), staff allowed to act on it add a line from today or end a line from today. Nothing already
 * invoiced changes: the part of an invoiced period an amendment adds or removes becomes a pending charge or
 * credit (contract_adjustments, computed by shared/billing.ts amendmentAdjustments) that the next invoice
 * carries. Each runs in one transaction under the contract's row lock, so amendments, edits, status changes
 * and billing of one contract happen one after the other. Audited; the rep and finance are notified.
 */

type Actor = SessionUser;
/** The caller sends the queued notice e-mails after the commit (the routes kick the mailer). */
type AmendmentDeps = Pick<ContractDeps, 'db' | 'baseUrl'>;
type LineRow = Awaited<ReturnType<typeof selectLineItems>>[number];
/** An amendment done (not yet committed): the contract's row with its refreshed figures, and its adjustments. */
type Amended = { after: ContractRow; adjustments: Adjustment[] };

export async function addContractLine(
  deps: AmendmentDeps,
  actor: Actor,
  contractId: string,
  body: AddContractLine,
  today: string = businessToday(),
): Promise<Contract> {
  await deps.db.transaction((tx) => addLine(tx, deps.baseUrl, actor, contractId, body, today));
  return getContract(deps.db, actor, contractId, deps.baseUrl);
}

export async function endContractLine(
  deps: AmendmentDeps,
  actor: Actor,
  contractId: string,
  lineId: string,
  body: { endDate: string | null },
  today: string = businessToday(),
): Promise<Contract> {
  await deps.db.transaction((tx) => endLine(tx, deps.baseUrl, actor, contractId, lineId, body, today));
  return getContract(deps.db, actor, contractId, deps.baseUrl);
}

/** What adding this line would do (AmendmentPreview): the amendment itself, rolled back. */
export function previewAddContractLine(
  deps: AmendmentDeps,
  actor: Actor,
  contractId: string,
  body: AddContractLine,
  today: string = businessToday(),
): Promise<AmendmentPreview> {
  return preview(deps, actor, contractId, (tx) => addLine(tx, deps.baseUrl, actor, contractId, body, today));
}

/** What ending this line would do (AmendmentPreview): the amendment itself, rolled back. */
export function previewEndContractLine(
  deps: AmendmentDeps,
  actor: Actor,
  contractId: string,
  lineId: string,
  body: { endDate: string | null },
  today: string = businessToday(),
): Promise<AmendmentPreview> {
  return preview(deps, actor, contractId, (tx) => endLine(tx, deps.baseUrl, actor, contractId, lineId, body, today));
}

/** Thrown to roll a preview's transaction back, carrying what the amendment would have done. */
class RolledBack extends Error {
  constructor(readonly preview: AmendmentPreview) {
    super('Amendment preview rolled back');
  }
}

/**
 * A preview runs the amendment exactly as confirming does (the same checks, the same engine, the same row
 * lock), reads the figures the contract would then show (its monthly amounts, and its next invoice as the
 * billing run will issue it: billing.service nextScheduledCharges) and rolls everything back: nothing is
 * written, no one is told.
 */
async function preview(
  deps: AmendmentDeps,
  actor: Actor,
  contractId: string,
  amend: (tx: Db) => Promise<Amended>,
): Promise<AmendmentPreview> {
  try {
    await deps.db.transaction(async (tx) => {
      // The contract as it is (under its row lock, which the amendment then takes again in this transaction).
      const before = await lockAmendable(tx, actor, contractId);
      const [current] = await nextScheduledCharges(tx, [before]);
      const { after, adjustments } = await amend(tx);
      const [next] = await nextScheduledCharges(tx, [after]);
      const adjustmentsTotal = adjustments.reduce((sum, a) => sum + a.amountCents, 0);
      throw new RolledBack({
        adjustments: adjustments.map((a) => ({
          description: a.description,
          coversStart: a.coversStart,
          coversEnd: a.coversEnd,
          amount: centsToAmount(a.amountCents),
        })),
        adjustmentsTotal: centsToAmount(adjustmentsTotal),
        nextInvoice: next ? nextInvoiceOf(next) : null,
        currentNextInvoice: current ? nextInvoiceOf(current) : null,
        monthlyAmount: centsToAmount(after.monthlyAmountCents),
        seasonalMonthlyAmount: centsToAmount(after.seasonalMonthlyAmountCents),
        currentMonthlyAmount: centsToAmount(before.monthlyAmountCents),
        currentSeasonalMonthlyAmount: centsToAmount(before.seasonalMonthlyAmountCents),
      });
    });
  } catch (error) {
    if (error instanceof RolledBack) return error.preview;
    throw error;
  }
  throw new Error('An amendment preview must roll back');
}

const nextInvoiceOf = (charge: ScheduledCharge): AmendmentNextInvoice => ({
  periodStart: charge.periodStart,
  dueDate: charge.dueDate,
  total: centsToAmount(charge.totalCents),
});

async function addLine(
  tx: Db,
  baseUrl: string,
  actor: Actor,
  contractId: string,
  body: AddContractLine,
  today: string,
): Promise<Amended> {
  const contract = await lockAmendable(tx, actor, contractId);
  const [product] = await selectProducts(tx, [body.productId]);
  if (!product) throw badRequest('Product not found', { productId: ['Product not found'] });
  if (!product.isActive) {
    const message = `${product.name} is archived and cannot be added to a contract`;
    throw badRequest(message, { productId: [message] });
  }
  // Blank: from today, or from the contract's start when it has not started yet (paid ahead of its start).
  const flightStart = body.flightStart ?? (contract.startDate > today ? contract.startDate : today);
  if (flightStart < today) {
    throw badRequest(CONTRACT_MESSAGES.amendmentInPast, { flightStart: [CONTRACT_MESSAGES.amendmentInPast] });
  }
  const termEnd = computeAutoStopDate(contract.startDate, contract.termMonths);
  const issues = flightIssues({ flightStart, flightEnd: body.flightEnd }, { startDate: contract.startDate, termEnd });
  assertNoFieldErrors(Object.fromEntries(Object.entries(issues).map(([field, message]) => [field, [message]])));
  const snapshot = lineSnapshot({ ...body, flightStart }, product, { startDate: contract.startDate, termEnd });
  assertInventoryFlights([{ flightEnd: snapshot.flightEnd, product }], () => 'flightEnd');
  assertLineAmounts(
    [
      {
        quantity: body.quantity,
        unitPriceCents: body.unitPrice,
        discountCents: body.discount,
        seasonalPriceCents: snapshot.seasonalPriceCents,
      },
    ],
    () => 'discount',
  );
  const line = await insertLineItem(tx, {
    contractId,
    productId: product.id,
    quantity: body.quantity,
    unitPriceCents: body.unitPrice,
    discountCents: body.discount,
    lineTotalCents: lineTotalCents({
      quantity: body.quantity,
      unitPriceCents: body.unitPrice,
      discountCents: body.discount,
    }),
    ...snapshot,
  });
  // Amendments book by their dates: the added line's days must fit (ending a line releases its days).
  await assertUnitsAvailable(tx, contractId, { today, lineId: line.id, actor });
  const added = billable(line, product.name);
  const adjustments = amendmentAdjustments(null, added, await invoicedPeriodsFrom(tx, contractId, flightStart));
  const row = await settle(tx, baseUrl, actor, contract, today, {
    lineId: line.id,
    adjustments,
    action: 'contract.line_added',
    after: { line },
    change: `${product.name} added from ${flightStart}`,
  });
  return { after: row, adjustments };
}

async function endLine(
  tx: Db,
  baseUrl: string,
  actor: Actor,
  contractId: string,
  lineId: string,
  body: { endDate: string | null },
  today: string,
): Promise<Amended> {
  const endDate = body.endDate ?? today;
  if (endDate < today)
    throw badRequest(CONTRACT_MESSAGES.lineEndInPast, { endDate: [CONTRACT_MESSAGES.lineEndInPast] });
  const contract = await lockAmendable(tx, actor, contractId);
  const lines = await selectLineItems(tx, contractId);
  const before = lines.find((line) => line.id === lineId);
  if (!before) throw notFound('Line');
  if (endDate < before.flightStart) {
    throw badRequest(CONTRACT_MESSAGES.lineEndBeforeFlight, { endDate: [CONTRACT_MESSAGES.lineEndBeforeFlight] });
  }
  const termEnd = computeAutoStopDate(contract.startDate, contract.termMonths);
  if (termEnd !== null && endDate >= termEnd) {
    throw badRequest(CONTRACT_MESSAGES.flightAfterTerm, { endDate: [CONTRACT_MESSAGES.flightAfterTerm] });
  }
  const ended = await endLineFlight(tx, contractId, lineId, endDate);
  if (!ended) throw conflict(`This line already ends on ${before.flightEnd}`);
  const [product] = await selectProducts(tx, [before.productId]);
  const name = product?.name ?? 'Line';
  const adjustments = amendmentAdjustments(
    billable(before, name),
    billable(ended, name),
    await invoicedPeriodsFrom(tx, contractId, endDate),
  );
  const row = await settle(tx, baseUrl, actor, contract, today, {
    lineId,
    adjustments,
    action: 'contract.line_ended',
    before: { line: before },
    after: { line: ended },
    change: `${name} ends on ${endDate}`,
  });
  return { after: row, adjustments };
}

/**
 * What every amendment does once its line is written: store the adjustments, refresh the contract's figures,
 * write the audit event and tell the rep and finance.
 */
async function settle(
  tx: Db,
  baseUrl: string,
  actor: Actor,
  contract: ContractRow,
  today: string,
  amendment: {
    lineId: string;
    adjustments: Adjustment[];
    action: 'contract.line_added' | 'contract.line_ended';
    before?: Record<string, unknown>;
    after: Record<string, unknown>;
    change: string;
  },
): Promise<ContractRow> {
  const { lineId, adjustments } = amendment;
  await insertAdjustments(
    tx,
    adjustments.map((a) => ({ ...a, contractId: contract.id, lineId, createdBy: actor.id })),
  );
  const row = await refreshFigures(tx, contract, today);
  // A sent contract's insertion order no longer matches it: the next send makes its next version.
  if (contract.status === 'sent') await supersedeInsertionOrder(tx, { contractId: contract.id, actorId: actor.id });
  await recordAudit(tx, {
    actorId: actor.id,
    action: amendment.action,
    entity: 'contract',
    entityId: contract.id,
    before: amendment.before,
    after: { ...amendment.after, adjustments, monthlyAmountCents: row.monthlyAmountCents },
  });
  await notifyAmended(tx, baseUrl, row, amendment.change, adjustments);
  return row;
}

async function lockAmendable(tx: Db, actor: Actor, contractId: string): Promise<ContractRow> {
  const contract = await lockWritable(tx, actor, contractId);
  const refusal = amendmentRefusal(contract);
  if (refusal) throw conflict(refusal);
  return contract;
}

function billable(line: LineRow, description: string): BillableLine {
  return {
    description,
    productId: line.productId,
    priceMetric: line.priceMetric as PriceMetric,
    quantity: line.quantity,
    unitPriceCents: line.unitPriceCents,
    discountCents: line.discountCents,
    seasonalPriceCents: line.seasonalPriceCents,
    flightStart: line.flightStart,
    flightEnd: line.flightEnd,
  };
}

/**
 * The contract's stored figures after an amendment (contracts.figures.ts): the totals over the lines still
 * running from the contract's next period on (a line that has ended no longer counts); the package and setup
 * fee as they are.
 */
async function refreshFigures(tx: Db, contract: ContractRow, today: string): Promise<ContractRow> {
  const lastInvoicedIndex = await lastInvoicedPeriod(tx, contract.id);
  const lines = (await selectLineItems(tx, contract.id)).map((line) => billable(line, ''));
  return updateContractRow(
    tx,
    contract.id,
    storedFigures(contract, lines, { today, lastInvoicedIndex, count: 'lines still running' }),
  );
}

/** "Contract amended", to its rep and to finance, with what changed and what the next invoice will carry. */
async function notifyAmended(
  tx: Db,
  baseUrl: string,
  contract: ContractRow,
  change: string,
  adjustments: { amountCents: number }[],
): Promise<void> {
  const name =
    contract.title?.trim() ||
    contract.description?.trim().slice(0, 60) ||
    `Contract #${shortContractId(contract.id, 6)}`;
  const net = adjustments.reduce((sum, a) => sum + a.amountCents, 0);
  const carried =
    net === 0 ? '' : ` The next invoice carries a ${net > 0 ? 'charge' : 'credit'} of ${formatCents(Math.abs(net))}.`;
  const body = `${name}: ${change}.${carried}`;
  const link = `/contracts/${contract.id}`;
  await notify(tx, {
    to: { userIds: contract.salesRepId ? [contract.salesRepId] : [], roles: ['finance'] },
    type: 'contract_amended',
    title: 'Contract amended',
    body,
    link,
    entity: 'contract',
    entityId: contract.id,
    email: { subject: `Contract amended: ${name}`, text: `${body}\n\n${baseUrl}${link}` },
  });
}
