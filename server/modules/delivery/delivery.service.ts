import type { ListQuery } from '@shared/contracts/common';
import { canRecordDelivery, canSeeContract } from '@shared/contracts/contract-access';
import {
  DELIVERY_MESSAGES,
  type DeliveryBody,
  type DeliveryImportResult,
  type DeliveryPeriod,
  formatMonth,
  MONTH_PATTERN,
  PACING_ALERT_PERCENT,
} from '@shared/contracts/delivery';
import { applyRate, shareOfCents } from '@shared/money';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { contracts } from '../../db/schema';
import { recordAudits } from '../../lib/audit';
import { businessToday } from '../../lib/business-day';
import { type AppError, badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import type { Mailer } from '../../lib/mailer';
import { notify } from '../../lib/notify';
import { creditInvoice } from '../credit-notes/credit-notes.service';
import {
  liveBooking,
  type PeriodRow,
  selectPeriodPage,
  selectPeriodsByKey,
  toDeliveryPeriod,
} from '../invoices/invoices.service';
import type { SessionUser } from '../sessions/sessions';
import { getSettings } from '../settings/settings.service';
import { emitWebhookEvent } from '../webhooks/webhook-events';
import {
  deliveredText,
  formatImpressions,
  notEndedMessage,
  periodLabel,
  periodProblem,
  sameTotal,
} from './delivery.periods';
import {
  type DeliveryWrite,
  finaliseAfterGrace,
  linkCreditNote,
  lockContracts,
  lockContractsToReconcile,
  type SettledDelivery,
  selectContract,
  selectInvoiceForCredit,
  selectLine,
  settleUnderDelivered,
  upsertDeliveries,
  type WrittenDelivery,
} from './delivery.repo';

/**
 * Delivery and proof of performance (product.md sections 12 and 16): staff record what each CPM line
 * delivered in a billed period once it has ended (one period from the contract page, or many from a CSV
 * import: the same path, final at once); an ad server pushes daily figures or period totals
 * (delivery.push.ts), final when it says so or once the period's grace days have run out (reconcileDelivery,
 * the hourly job). An under-delivered period that has ended and is final is settled once, by the contract's
 * remedy (recordPeriods). See docs/decisions/026-delivery.md and 041-delivery-push.md.
 */

export type DeliveryDeps = { db: Db; mailer: Mailer; baseUrl: string };

/** One period's figures to record, resolved to its contract and line. */
export type DeliveryEntry = {
  contractId: string;
  lineId: string;
  month: string;
  impressions: number;
  clicks: number | null;
  /** The CSV line it came from (an import). */
  row?: number;
};

export type DeliveryOutcome = DeliveryImportResult & { changed: WrittenDelivery[] };

type ContractRow = typeof contracts.$inferSelect;

async function findVisible(db: Db, actor: SessionUser, contractId: string): Promise<ContractRow> {
  const contract = await selectContract(db, contractId);
  if (!contract || !canSeeContract(actor, contract)) throw notFound('Contract');
  return contract;
}

/** GET /api/contracts/{id}/delivery: staff who may read the contract, and its client. */
export async function listContractDelivery(
  db: Db,
  actor: SessionUser,
  contractId: string,
  page: ListQuery,
): Promise<{ rows: DeliveryPeriod[]; total: number }> {
  await findVisible(db, actor, contractId);
  const result = await selectPeriodPage(db, sql`i.contract_id = ${contractId}`, page);
  const today = businessToday();
  return { total: result.total, rows: result.rows.map((row) => toDeliveryPeriod(row, today)) };
}

/** GET /api/client/performance: the delivery recorded for the client's own (sent) contracts, newest first. */
export async function listClientDelivery(
  db: Db,
  actor: SessionUser,
  page: ListQuery,
): Promise<{ rows: DeliveryPeriod[]; total: number }> {
  if (!actor.customerId) return { rows: [], total: 0 };
  // The client's scope is what is billed to its customer (an agency: its advertisers' contracts; decision 060).
  const where = sql`i.bill_to_customer_id = ${actor.customerId} and c.status <> 'draft' and d.id is not null`;
  const result = await selectPeriodPage(db, where, page);
  const today = businessToday();
  return { total: result.total, rows: result.rows.map((row) => toDeliveryPeriod(row, today)) };
}

/**
 * PUT /api/contracts/{id}/delivery/{lineId}/{month}: staff who may change the contract record (or correct)
 * a period's delivery. 400 for a line that is not CPM, a period not billed or not ended; 409 once settled.
 */
export async function recordDelivery(
  deps: DeliveryDeps,
  actor: SessionUser,
  contractId: string,
  lineId: string,
  month: string,
  body: DeliveryBody,
): Promise<DeliveryPeriod> {
  if (!MONTH_PATTERN.test(month)) throw badRequest(DELIVERY_MESSAGES.month, { month: [DELIVERY_MESSAGES.month] });
  const contract = await findVisible(deps.db, actor, contractId);
  if (!canRecordDelivery(actor, contract)) {
    throw forbidden("You don't have permission to record delivery for this contract");
  }
  const line = await selectLine(deps.db, lineId);
  if (!line || line.contractId !== contractId) throw notFound('Line');
  if (line.priceMetric !== 'cpm') throw badRequest(NOT_CPM);

  const entry: DeliveryEntry = { contractId, lineId, month, impressions: body.impressions, clicks: body.clicks };
  await applyDelivery(deps, actor, [entry], (problems) => {
    const [problem] = problems;
    if (problem.settled) return conflict(problem.message);
    return badRequest(problem.message, { month: [problem.message] });
  });
  const [row] = await selectPeriodsByKey(deps.db, [{ lineId, month }]);
  return toDeliveryPeriod(row, businessToday());
}

const NOT_CPM = 'Delivery is recorded for CPM lines only: this line is not billed per 1,000 impressions';

/** A row the database's facts refuse: the period is not billed, not ended, or settled with other figures. */
export type DeliveryProblem = { entry: DeliveryEntry; message: string; settled: boolean };

/**
 * Records delivery for entries already checked for shape, contract access and line (CPM, of its contract),
 * in ONE transaction: the contracts locked in id order (the first lock of every money path, so concurrent
 * imports, payments and billing wait for each other), the periods checked against the invoices, then one
 * upsert, then the settlement of the under-delivered periods (one conditional UPDATE), each with its remedy.
 * Figures staff record or import are final: a period short of booked is settled at once (decision 041).
 * Any refused entry refuses them all (`refuse` builds the error); nothing is written then.
 */
export async function applyDelivery(
  deps: DeliveryDeps,
  actor: SessionUser,
  entries: readonly DeliveryEntry[],
  refuse: (problems: DeliveryProblem[]) => AppError,
): Promise<DeliveryOutcome> {
  const today = businessToday();
  const outcome = await deps.db.transaction(async (tx) => {
    await lockContracts(tx, [...new Set(entries.map((e) => e.contractId))]);
    const byKey = await periodsOf(tx, entries);
    const problems = periodProblems(entries, byKey, today);
    if (problems.length > 0) throw refuse(problems);

    const writes = entries.map((entry) =>
      periodWrite(byKey.get(periodKey(entry.lineId, entry.month))!, {
        delivered: entry.impressions,
        clicks: entry.clicks,
        final: true,
      }),
    );
    const recorded = await recordPeriods(tx, deps.baseUrl, actor.id, writes, byKey, today);
    return {
      rows: entries.length,
      recorded: recorded.changed.length,
      unchanged: entries.length - recorded.changed.length,
      credits: recorded.credits,
      makegoods: recorded.makegoods,
      changed: recorded.changed,
    };
  });
  deps.mailer.kick(deps.db);
  return outcome;
}

/** A billed period's key: its line and the month it starts in. */
export const periodKey = (lineId: string, month: string) => `${lineId}|${month}`;
const keyOfRow = (row: { line_id: string; period_start: string }) =>
  periodKey(row.line_id, row.period_start.slice(0, 7));

/** What to write for a billed period: its invoice's booking and the figures given. */
export function periodWrite(
  period: PeriodRow,
  figures: { delivered: number; clicks: number | null; final: boolean },
): DeliveryWrite {
  const booking = liveBooking(period);
  return {
    contractId: period.contract_id,
    lineId: period.line_id,
    invoiceId: period.invoice_id,
    periodStart: period.period_start,
    periodEnd: period.period_end,
    booked: booking.booked,
    makegood: booking.makegood,
    ...figures,
  };
}

/** What one recording changed: the periods written, those settled and their remedies. */
export type RecordedPeriods = {
  changed: WrittenDelivery[];
  settled: SettledDelivery[];
  credits: number;
  makegoods: number;
};

/**
 * The recording every path shares, inside the caller's transaction (its contracts locked, its periods
 * checked): ONE upsert of the periods' figures, then the settlement of those that changed and are now ended,
 * final and short of booked (one conditional UPDATE), each with its remedy; the rep's notices; one audit event
 * per period changed and per period settled (`detail` adds to a period's event, by period key).
 */
export async function recordPeriods(
  tx: Db,
  baseUrl: string,
  actorId: string | null,
  writes: readonly DeliveryWrite[],
  byKey: Map<string, PeriodRow>,
  today: string,
  detail: (key: string) => Record<string, unknown> = () => ({}),
): Promise<RecordedPeriods> {
  const changed = await upsertDeliveries(tx, writes, actorId);
  const settled = await settleUnderDelivered(tx, { deliveryIds: changed.map((row) => row.id) }, today);
  const credits = await settleRemedies(tx, baseUrl, actorId, settled, byKey);
  // Below 90% of booked at period end: the rep hears of it once the figures are final.
  await noticeUnderPace(
    tx,
    baseUrl,
    changed.filter((row) => row.final_at !== null),
    byKey,
  );
  await recordAudits(tx, [
    ...changed.map((row) => ({
      actorId,
      action: 'delivery.recorded',
      entity: 'contract',
      entityId: byKey.get(keyOfRow(row))!.contract_id,
      before:
        row.before_delivered === null
          ? null
          : {
              impressions: Number(row.before_delivered),
              clicks: nullableNumber(row.before_clicks),
              final: row.before_final === true,
            },
      after: {
        lineId: row.line_id,
        periodStart: row.period_start,
        booked: Number(row.booked_impressions),
        impressions: Number(row.delivered_impressions),
        clicks: nullableNumber(row.clicks),
        final: row.final_at !== null,
        ...detail(keyOfRow(row)),
      },
    })),
    ...settledAudits(actorId, settled),
  ]);
  return {
    changed,
    settled,
    credits,
    makegoods: settled.filter((row) => row.remedy === 'makegood').length,
  };
}

const settledAudits = (actorId: string | null, settled: readonly SettledDelivery[]) =>
  settled.map((row) => ({
    actorId,
    action: 'delivery.settled',
    entity: 'contract',
    entityId: row.contract_id,
    after: {
      lineId: row.line_id,
      periodStart: row.period_start,
      remedy: row.remedy,
      shortfall: Number(row.shortfall_impressions),
    },
  }));

/**
 * Each settled period's remedy (a credit note, or the rep told of a makegood), then their `delivery.reconciled`
 * events. Answers the credit notes issued.
 */
async function settleRemedies(
  tx: Db,
  baseUrl: string,
  actorId: string | null,
  settled: readonly SettledDelivery[],
  byKey: Map<string, PeriodRow>,
): Promise<number> {
  let credits = 0;
  for (const row of settled) {
    const period = byKey.get(keyOfRow(row))!;
    if (row.remedy === 'credit' && (await creditShortfall(tx, baseUrl, actorId, row, period))) credits += 1;
    await noticeSettlement(tx, baseUrl, row, period);
  }
  // Other systems hear of each settled period, with its remedy and credit note (webhooks).
  await emitWebhookEvent(tx, 'delivery.reconciled', { ids: settled.map((row) => row.id) });
  return credits;
}

export type ReconcileResult = { finalised: number; settled: number; credits: number; makegoods: number };

/**
 * The delivery reconciliation (a job, hourly; decision 041): the periods whose grace days have run out (end +
 * the contract settings' deliveryGraceDays before `asOf`) become final, and those that have ended, are final
 * and fall short of booked are settled by their contract's remedy, in ONE transaction: their contracts locked
 * in id order, one conditional UPDATE making periods final, one settling them (settled_at is null decides, so
 * each period settles once whatever runs at once), an audit event for each.
 */
export async function reconcileDelivery(deps: DeliveryDeps, options: { asOf?: string } = {}): Promise<ReconcileResult> {
  const today = options.asOf ?? businessToday();
  const { deliveryGraceDays } = await getSettings(deps.db, 'contracts');
  const result = await deps.db.transaction(async (tx) => {
    const contractIds = await lockContractsToReconcile(tx, today, deliveryGraceDays);
    if (contractIds.length === 0) return { finalised: 0, settled: 0, credits: 0, makegoods: 0 };
    const finalised = await finaliseAfterGrace(tx, contractIds, today, deliveryGraceDays);
    const settled = await settleUnderDelivered(tx, { contractIds }, today);
    const byKey = await periodsOf(tx, [
      ...finalised.map((row) => ({ lineId: row.line_id, month: row.period_start.slice(0, 7) })),
      ...settled.map((row) => ({ lineId: row.line_id, month: row.period_start.slice(0, 7) })),
    ]);
    const credits = await settleRemedies(tx, deps.baseUrl, null, settled, byKey);
    await noticeUnderPace(tx, deps.baseUrl, finalised, byKey);
    await recordAudits(tx, [
      ...finalised.map((row) => ({
        actorId: null,
        action: 'delivery.final',
        entity: 'contract',
        entityId: row.contract_id,
        after: {
          lineId: row.line_id,
          periodStart: row.period_start,
          booked: Number(row.booked_impressions),
          impressions: Number(row.delivered_impressions),
          clicks: nullableNumber(row.clicks),
          graceDays: deliveryGraceDays,
        },
      })),
      ...settledAudits(null, settled),
    ]);
    return {
      finalised: finalised.length,
      settled: settled.length,
      credits,
      makegoods: settled.filter((row) => row.remedy === 'makegood').length,
    };
  });
  if (result.settled > 0 || result.finalised > 0) deps.mailer.kick(deps.db);
  return result;
}

/** The billed CPM periods of the entries, by line and month. */
export async function periodsOf(
  db: Db,
  keys: readonly { lineId: string; month: string }[],
): Promise<Map<string, PeriodRow>> {
  const periods = await selectPeriodsByKey(db, keys);
  return new Map(periods.map((p) => [periodKey(p.line_id, p.month), p]));
}

/** What the invoices refuse: a month the line was not billed in, a period not ended, a settled one changed. */
export function periodProblems(
  entries: readonly DeliveryEntry[],
  byKey: Map<string, PeriodRow>,
  today: string,
): DeliveryProblem[] {
  const problems: DeliveryProblem[] = [];
  for (const entry of entries) {
    const problem = periodProblem(
      byKey.get(periodKey(entry.lineId, entry.month)),
      { month: entry.month },
      (period) => notEndedMessage(period, today),
      (period) => sameTotal(period, entry),
    );
    if (problem) problems.push({ entry, ...problem });
  }
  return problems;
}

const nullableNumber = (value: string | number | null) => (value === null ? null : Number(value));

/**
 * A credit remedy: (booked - delivered) / 1000 x the rate billed that period, i.e. the line's billed amount x
 * shortfall / the impressions it billed (free makegood impressions are worth nothing), at most that amount;
 * plus the invoice's tax when its prices are before tax. At most what the invoice can still be credited.
 * Answers whether a credit note was issued (a void invoice, or a credit that rounds to nothing, has none).
 */
async function creditShortfall(
  tx: Db,
  baseUrl: string,
  actorId: string | null,
  row: SettledDelivery,
  period: PeriodRow,
): Promise<boolean> {
  const billed = liveBooking(period).paid;
  const amountCents = Number(period.amount_cents);
  const shortfall = Number(row.shortfall_impressions);
  if (billed <= 0 || amountCents <= 0) return false;
  const netCents = Math.min(amountCents, shareOfCents(amountCents, shortfall, billed));
  const invoice = await selectInvoiceForCredit(tx, row.invoice_id);
  if (!invoice || invoice.status === 'void') return false;
  const grossCents = invoice.taxIncluded ? netCents : netCents + applyRate(netCents, invoice.taxRateBp);
  const creditCents = Math.min(grossCents, invoice.totalCents - invoice.creditedCents);
  if (creditCents <= 0) return false;
  const delivered = Number(row.delivered_impressions);
  const booked = Number(row.booked_impressions);
  const note = await creditInvoice(
    tx,
    baseUrl,
    {
      invoiceId: row.invoice_id,
      kind: 'delivery',
      reason: `Under-delivery of ${periodLabel(period)}: ${deliveredText(delivered, booked)} delivered`,
      amountCents: creditCents,
      actorId,
    },
    { type: 'delivery_remedy', title: 'Under-delivery credited' },
  );
  if (!note) throw conflict('The invoice changed while the under-delivery was being credited. Please try again.');
  await linkCreditNote(tx, row.id, note.id);
  return true;
}

/** The rep hears of a makegood (a credit's notice is the credit note's own, sent with it). */
async function noticeSettlement(tx: Db, baseUrl: string, row: SettledDelivery, period: PeriodRow): Promise<void> {
  if (row.remedy !== 'makegood') return;
  const shortfall = formatImpressions(Number(row.shortfall_impressions));
  const body = `${period.customer_name}: ${shortfall} free impressions of ${period.product_name} will run in the line's next period (${formatMonth(period.month)} delivered ${deliveredText(Number(row.delivered_impressions), Number(row.booked_impressions))}).`;
  const link = `/contracts/${row.contract_id}`;
  await notify(tx, {
    to: { userIds: period.sales_rep_id ? [period.sales_rep_id] : [] },
    type: 'delivery_remedy',
    title: 'Makegood scheduled',
    body,
    link,
    entity: 'contract',
    entityId: row.contract_id,
    dedupeKey: `delivery-remedy:${row.id}`,
    email: { subject: `Makegood scheduled: ${period.product_name}`, text: `${body}\n\n${baseUrl}${link}` },
  });
}

/** The rep hears of each period whose final figures are below 90% of booked (once per period). */
async function noticeUnderPace(
  tx: Db,
  baseUrl: string,
  rows: readonly {
    id: string;
    line_id: string;
    period_start: string;
    booked_impressions: string | number;
    delivered_impressions: string | number;
  }[],
  byKey: Map<string, PeriodRow>,
): Promise<void> {
  for (const row of rows) {
    const delivered = Number(row.delivered_impressions);
    const booked = Number(row.booked_impressions);
    if (delivered * 100 >= booked * PACING_ALERT_PERCENT) continue;
    const period = byKey.get(keyOfRow(row))!;
    if (!period.sales_rep_id) continue;
    const body = `${period.customer_name}: ${periodLabel(period)} delivered ${deliveredText(delivered, booked)}, below ${PACING_ALERT_PERCENT}% of booked.`;
    const link = `/contracts/${period.contract_id}`;
    await notify(tx, {
      to: { userIds: [period.sales_rep_id] },
      type: 'delivery_under_pace',
      title: `Delivery below ${PACING_ALERT_PERCENT}%`,
      body,
      link,
      entity: 'contract',
      entityId: period.contract_id,
      dedupeKey: `delivery-pace:${row.id}`,
      email: {
        subject: `Delivery below ${PACING_ALERT_PERCENT}%: ${period.product_name}`,
        text: `${body}\n\n${baseUrl}${link}`,
      },
    });
  }
}
