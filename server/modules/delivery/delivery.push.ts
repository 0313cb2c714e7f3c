import { addDays } from '@shared/billing';
import {
  DELIVERY_MESSAGES,
  type DeliveryPushResult,
  type DeliveryPushRow,
  formatMonth,
} from '@shared/contracts/delivery';
import type { Db } from '../../db/client';
import { recordAudits } from '../../lib/audit';
import { businessToday } from '../../lib/business-day';
import { type AppError, badRequest } from '../../lib/errors';
import { type PeriodRow, selectPeriodsByDay, toDeliveryPeriod } from '../invoices/invoices.service';
import type { SessionUser } from '../sessions/sessions';
import { getSettings } from '../settings/settings.service';
import { periodProblem, sameTotal } from './delivery.periods';
import {
  type DayWrite,
  deleteDeliveryDays,
  lockContracts,
  type PeriodSpan,
  selectDayTotals,
  selectDeliveryDays,
  upsertDeliveryDays,
} from './delivery.repo';
import { RowErrors, resolveLine, resolveReferences, rowErrors } from './delivery.rows';
import { type DeliveryDeps, periodKey, periodsOf, periodWrite, recordPeriods } from './delivery.service';

/**
 * POST /api/delivery (product.md section 16; decision 041): an ad server pushes the CSV import's rows as
 * JSON, each the figures of one day (`date`) or the total of one billed period (`month`). The rows are
 * checked whole like a file (the import's rules and words, row numbers from 1); any bad row refuses them all
 * (400, or 409 when only settled periods are in the way) and nothing is written. A valid push is recorded in
 * ONE transaction: the days upserted (a day sent again replaces its figures), each period's delivered total
 * set to the sum of its days (or to the total given), made final by `final: true` or once its grace days
 * have run out, and settled by the contract's remedy once it has ended and is final.
 */

/** A row resolved to its contract and CPM line. */
type PushRow = {
  row: number;
  contractId: string;
  lineId: string;
  productName: string;
  day: string | null;
  month: string | null;
  impressions: number;
  clicks: number | null;
  final: boolean;
};

/** The billed periods the rows fall in (by line and month, or by line and day) and the days stored. */
type Found = {
  byMonth: Map<string, PeriodRow>;
  byDay: Map<string, PeriodRow>;
  storedDays: Map<string, { impressions: number; clicks: number | null }>;
};

type Problem = { row: number; message: string; settled: boolean };

export async function pushDelivery(
  deps: DeliveryDeps,
  actor: SessionUser,
  input: readonly DeliveryPushRow[],
): Promise<DeliveryPushResult> {
  const errors = new RowErrors();
  const refs = await resolveReferences(
    deps.db,
    input.map((r) => r.contract),
  );
  const rows: PushRow[] = [];
  const seen = new Map<string, number>();
  input.forEach((given, index) => {
    const row = index + 1;
    const target = resolveLine(refs, actor, given.contract, given.line);
    if (typeof target === 'string') {
      errors.add(row, target);
      return;
    }
    const { contract, line } = target;
    const when = given.date ?? given.month ?? '';
    const key = `${line.id}|${when}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      errors.add(row, `Row ${earlier} already gives ${line.product_name} for ${when}`);
      return;
    }
    seen.set(key, row);
    rows.push({
      row,
      contractId: contract.id,
      lineId: line.id,
      productName: line.product_name,
      day: given.date ?? null,
      month: given.date ? null : (given.month ?? null),
      impressions: given.impressions,
      clicks: given.clicks,
      final: given.final,
    });
  });

  // The periods are checked here too, so that the answer lists every bad row at once (the transaction that
  // records them checks them again, under the contracts' locks).
  const today = businessToday();
  const problems = pushProblems(rows, await findPeriods(deps.db, rows), today);
  const settledOnly = errors.size === 0 && problems.length > 0 && problems.every((p) => p.settled);
  for (const problem of problems) errors.add(problem.row, problem.message);
  if (errors.size > 0) throw rowErrors(settledOnly ? 'CONFLICT' : 'VALIDATION', errors, 'request');

  const { deliveryGraceDays } = await getSettings(deps.db, 'contracts');
  const result = await deps.db.transaction(async (tx) => {
    await lockContracts(tx, [...new Set(rows.map((r) => r.contractId))]);
    const found = await findPeriods(tx, rows);
    const refused = pushProblems(rows, found, today);
    if (refused.length > 0) {
      const again = new RowErrors();
      for (const problem of refused) again.add(problem.row, problem.message);
      throw rowErrors(refused.every((p) => p.settled) ? 'CONFLICT' : 'VALIDATION', again, 'request');
    }

    // The rows by billed period, in the order they first name it.
    const groups = new Map<
      string,
      { period: PeriodRow; total: PushRow | null; days: PushRow[]; final: boolean; dayChanges: number }
    >();
    for (const row of rows) {
      const period = periodOf(row, found)!;
      const key = periodKey(period.line_id, period.month);
      const group = groups.get(key) ?? { period, total: null, days: [], final: false, dayChanges: 0 };
      if (row.day) group.days.push(row);
      else group.total = row;
      group.final ||= row.final;
      groups.set(key, group);
    }
    // A settled period took only the figures it has (checked above): nothing of it is written.
    const open = [...groups.values()].filter((g) => g.period.settled_at === null);
    const span = (period: PeriodRow): PeriodSpan => ({
      lineId: period.line_id,
      periodStart: period.period_start,
      periodEnd: period.period_end,
    });

    // A period total replaces the period's days; days replace their own figures, then add up to the period.
    await deleteDeliveryDays(
      tx,
      open.filter((g) => g.total).map((g) => span(g.period)),
    );
    const dayWrites: DayWrite[] = open.flatMap((g) =>
      g.days.map((r) => ({ lineId: r.lineId, day: r.day!, impressions: r.impressions, clicks: r.clicks })),
    );
    const changedDays = await upsertDeliveryDays(tx, dayWrites, actor.id);
    for (const changed of changedDays) {
      const period = found.byDay.get(`${changed.line_id}|${changed.day}`)!;
      groups.get(periodKey(period.line_id, period.month))!.dayChanges += 1;
    }
    const totals = new Map(
      (
        await selectDayTotals(
          tx,
          open.filter((g) => g.days.length > 0).map((g) => span(g.period)),
        )
      ).map((t) => [periodKey(t.line_id, t.period_start.slice(0, 7)), t]),
    );

    const byKey = new Map([...groups].map(([key, g]) => [key, g.period]));
    const writes = open.map((g) => {
      const key = periodKey(g.period.line_id, g.period.month);
      const sum = totals.get(key);
      const final = g.final || addDays(g.period.period_end, deliveryGraceDays) < today;
      return g.total
        ? periodWrite(g.period, { delivered: g.total.impressions, clicks: g.total.clicks, final })
        : periodWrite(g.period, {
            delivered: Number(sum?.impressions ?? 0),
            clicks: sum?.clicks === null || sum?.clicks === undefined ? null : Number(sum.clicks),
            final,
          });
    });
    const recorded = await recordPeriods(tx, deps.baseUrl, actor.id, writes, byKey, today, (key) => ({
      source: 'push',
      daysChanged: groups.get(key)?.dayChanges ?? 0,
    }));

    // Days that changed without changing their period's total (or finality) are recorded in the trail too.
    const changedKeys = new Set(recorded.changed.map((r) => periodKey(r.line_id, r.period_start.slice(0, 7))));
    await recordAudits(
      tx,
      [...groups]
        .filter(([key, g]) => g.dayChanges > 0 && !changedKeys.has(key))
        .map(([, g]) => ({
          actorId: actor.id,
          action: 'delivery.recorded',
          entity: 'contract',
          entityId: g.period.contract_id,
          after: {
            lineId: g.period.line_id,
            periodStart: g.period.period_start,
            impressions: Number(g.period.delivered_impressions),
            source: 'push',
            daysChanged: g.dayChanges,
          },
        })),
    );

    const now = await periodsOf(
      tx,
      [...groups.values()].map((g) => ({ lineId: g.period.line_id, month: g.period.month })),
    );
    return {
      rows: input.length,
      changed: new Set([...changedKeys, ...[...groups].filter(([, g]) => g.dayChanges > 0).map(([key]) => key)]).size,
      credits: recorded.credits,
      makegoods: recorded.makegoods,
      periods: [...groups.keys()].map((key) => toDeliveryPeriod(now.get(key)!, today)),
    };
  });
  deps.mailer.kick(deps.db);
  return result;
}

/** The billed period a row falls in, if any. */
function periodOf(row: PushRow, found: Found): PeriodRow | undefined {
  return row.day ? found.byDay.get(`${row.lineId}|${row.day}`) : found.byMonth.get(`${row.lineId}|${row.month}`);
}

/** The billed periods of the rows, and the stored figures of their days: a few set-based queries. */
async function findPeriods(db: Db, rows: readonly PushRow[]): Promise<Found> {
  const monthRows = rows.filter((r) => r.month !== null);
  const dayRows = rows.filter((r) => r.day !== null);
  const byMonth = await periodsOf(
    db,
    monthRows.map((r) => ({ lineId: r.lineId, month: r.month! })),
  );
  const byDay = new Map(
    (
      await selectPeriodsByDay(
        db,
        dayRows.map((r) => ({ lineId: r.lineId, day: r.day! })),
      )
    ).map((p) => [`${p.line_id}|${p.day}`, p as PeriodRow]),
  );
  // A settled period accepts a day again only with the figures it has (a push retried): read those days.
  const settledDays = dayRows.filter((r) => byDay.get(`${r.lineId}|${r.day}`)?.settled_at);
  const storedDays = new Map(
    (
      await selectDeliveryDays(
        db,
        settledDays.map((r) => ({ lineId: r.lineId, day: r.day! })),
      )
    ).map((d) => [
      `${d.line_id}|${d.day}`,
      { impressions: Number(d.impressions), clicks: d.clicks === null ? null : Number(d.clicks) },
    ]),
  );
  return { byMonth, byDay, storedDays };
}

/**
 * What the invoices and the recorded figures refuse: a day or month the line was not billed for, a day not
 * come yet, a period not started (a total) or not ended (marked final), days and a total for one period, a
 * settled period given other figures (409: the import's message).
 */
function pushProblems(rows: readonly PushRow[], found: Found, today: string): Problem[] {
  const problems: Problem[] = [];
  const kinds = new Map<string, { row: number; total: boolean }>();
  for (const row of rows) {
    /** A push's own refusals: a day not come, a period not started or not ended, days and a total mixed. */
    const refusal = (period: PeriodRow): string | null => {
      const key = periodKey(period.line_id, period.month);
      const first = kinds.get(key);
      if (!first) kinds.set(key, { row: row.row, total: row.day === null });
      if (row.day && row.day > today) {
        return `The day ${row.day} has not come yet: delivery can be reported for days up to today (${today})`;
      }
      if (!row.day && period.period_start > today) {
        return `The period ${period.period_start} to ${period.period_end} has not started yet: its delivery can be reported from ${period.period_start}`;
      }
      if (row.final && period.period_end >= today) {
        return `The period ${period.period_start} to ${period.period_end} has not ended yet: its figures can be final from ${addDays(period.period_end, 1)}`;
      }
      if (first && first.total !== (row.day === null)) {
        const what = first.total ? 'the total' : 'daily figures';
        return `Row ${first.row} gives ${what} of ${period.product_name} for ${formatMonth(period.month)}: send either its daily figures or its total, not both`;
      }
      return null;
    };
    const when = row.day ? { day: row.day } : { month: row.month! };
    const problem = periodProblem(periodOf(row, found), when, refusal, (period) => sameFigures(row, period, found));
    if (problem) problems.push({ row: row.row, ...problem });
  }
  return problems;
}

/** A row for a settled period that changes nothing: its day, or its total, as recorded. */
function sameFigures(row: PushRow, period: PeriodRow, found: Found): boolean {
  if (row.day) {
    const stored = found.storedDays.get(`${row.lineId}|${row.day}`);
    return stored !== undefined && stored.impressions === row.impressions && stored.clicks === row.clicks;
  }
  return sameTotal(period, row);
}

/**
 * The route's body failed its schema: the same answer as a bad row of a file, row by row ("row 1": the
 * reasons), or a plain 400 for a body that is not `{ rows: [...] }` at all.
 */
export function pushValidationError(validation: readonly { instancePath?: string; message?: string }[]): AppError {
  const errors = new RowErrors();
  const general: Record<string, string[]> = {};
  for (const issue of validation) {
    const message = issue.message ?? 'Invalid value';
    const path = issue.instancePath ?? '';
    const row = /^\/rows\/(\d+)(\/|$)/.exec(path);
    if (row) {
      errors.add(Number(row[1]) + 1, message);
    } else {
      const key = path.replace(/^\//, '').replaceAll('/', '.') || 'body';
      general[key] = [...(general[key] ?? []), message];
    }
  }
  const messages = Object.values(general).flat();
  if (messages.length > 0 || errors.size === 0) {
    return badRequest(messages[0] ?? DELIVERY_MESSAGES.pushBody, general);
  }
  return rowErrors('VALIDATION', errors, 'request');
}
