import type {
  Forecast,
  ForecastMonth,
  ForecastQuery,
  ForecastRow,
  ForecastTargetsValues,
} from '@shared/contracts/forecast';
import { monthsFrom } from '@shared/forecast';
import { centsToAmount, divideRound, plainAmount } from '@shared/money';
import { can } from '@shared/permissions';
import type { Db } from '../../db/client';
import { recordAudit } from '../../lib/audit';
import { businessToday } from '../../lib/business-day';
import { badRequest } from '../../lib/errors';
import { csvCell } from '../commissions/commissions.csv';
import type { SessionUser } from '../sessions/sessions';
import { forecastMonthsByRep, type MonthFigures } from './forecast.months';
import { deleteTargets, selectSellers, selectTargets, upsertTargets } from './forecast.repo';

type Actor = SessionUser;

/** The daily job's refresh of the stored months (jobs.ts). */
export { refreshForecastMonths } from './forecast.months';

/** Cents of one rep and month, as they add up. */
type Figures = MonthFigures;

/** Attainment: booked over target in percent with one decimal (half away from zero), null without a target. */
function attainmentOf(bookedCents: number, targetCents: number | null): number | null {
  if (targetCents === null || targetCents === 0) return null;
  return divideRound(bookedCents * 1000, targetCents) / 10;
}

function monthOf(month: string, f: Figures | undefined, targetCents: number | null): ForecastMonth {
  const booked = f?.booked ?? 0;
  return {
    month,
    booked: centsToAmount(booked),
    weighted: centsToAmount(f?.weighted ?? 0),
    bestCase: centsToAmount(booked + (f?.pipeline ?? 0)),
    target: targetCents === null ? null : centsToAmount(targetCents),
    attainment: attainmentOf(booked, targetCents),
  };
}

/**
 * GET /api/forecast: the next `months` months from the current one, a row per rep (a rep sees only their own):
 * booked from the billing engine's schedule of signed and active contracts, the open deals' weighted amount and
 * whole amount spread over their flight by days (shared/forecast), all three as stored by rep and month
 * (forecast.months.ts); the targets, attainment; and the totals. A fixed number of statements whatever the
 * number of reps and months.
 */
export async function getForecast(
  db: Db,
  actor: Actor,
  query: ForecastQuery,
  today = businessToday(),
): Promise<Forecast> {
  const ownerId = can(actor, 'deal:any') ? query.ownerId : actor.id;
  const months = monthsFrom(today.slice(0, 7), query.months);
  const from = `${months[0]}-01`;
  const [stored, targets] = await Promise.all([
    forecastMonthsByRep(db, { months, ownerId }),
    selectTargets(db, { from, to: `${months[months.length - 1]}-01`, ownerId }),
  ]);

  const figures: ReadonlyMap<string, ReadonlyMap<string, Figures>> = stored;
  const targetOf = new Map(targets.map((t) => [`${t.ownerId}:${t.month.slice(0, 7)}`, t.amountCents]));

  const owners = new Set([...figures.keys(), ...targets.map((t) => t.ownerId)]);
  if (ownerId) owners.add(ownerId);
  const sellers = await selectSellers(db, [...owners]);
  const shown = sellers.filter((s) => (ownerId ? s.id === ownerId : true));
  const rows: ForecastRow[] = shown
    .map((seller) => ({
      ownerId: seller.id,
      ownerName: `${seller.firstName} ${seller.lastName}`.trim(),
      months: months.map((month) =>
        monthOf(month, figures.get(seller.id)?.get(month), targetOf.get(`${seller.id}:${month}`) ?? null),
      ),
    }))
    .sort((a, b) => a.ownerName.localeCompare(b.ownerName) || a.ownerId.localeCompare(b.ownerId));

  const totals = months.map((month) => {
    const sum: Figures = { booked: 0, weighted: 0, pipeline: 0 };
    let target: number | null = null;
    for (const row of shown) {
      const f = figures.get(row.id)?.get(month);
      if (f) {
        sum.booked += f.booked;
        sum.weighted += f.weighted;
        sum.pipeline += f.pipeline;
      }
      const t = targetOf.get(`${row.id}:${month}`);
      if (t !== undefined) target = (target ?? 0) + t;
    }
    return monthOf(month, sum, target);
  });
  return { months, rows, totals };
}

/**
 * PUT /api/forecast/targets: each (rep, month) target set or, given as null, removed, for people who sell; one
 * upsert and one delete, audited.
 */
export async function saveTargets(db: Db, actor: Actor, input: ForecastTargetsValues): Promise<{ saved: number }> {
  const owners = [...new Set(input.targets.map((t) => t.ownerId))];
  const sellers = new Set(
    (await selectSellers(db, owners)).filter((s) => ['sales', 'sales_manager'].includes(s.role)).map((s) => s.id),
  );
  const fieldErrors: Record<string, string[]> = {};
  input.targets.forEach((target, index) => {
    if (!sellers.has(target.ownerId)) fieldErrors[`targets.${index}.ownerId`] = ['Choose a sales rep or sales manager'];
  });
  if (Object.keys(fieldErrors).length) throw badRequest('Choose a sales rep or sales manager', fieldErrors);
  // The last of a (rep, month) given twice counts.
  const given = [...new Map(input.targets.map((t) => [`${t.ownerId}:${t.month}`, t])).values()].map((t) => ({
    ownerId: t.ownerId,
    month: `${t.month}-01`,
    amountCents: t.amount,
  }));
  const set = given.flatMap((t) => (t.amountCents === null ? [] : [{ ...t, amountCents: t.amountCents }]));
  const removed = given.filter((t) => t.amountCents === null);
  await db.transaction(async (tx) => {
    if (set.length) await upsertTargets(tx, set, actor.id);
    if (removed.length) await deleteTargets(tx, removed);
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'forecast.targets_updated',
      entity: 'settings',
      entityId: 'forecast',
      after: {
        targets: given.map((r) => ({ repId: r.ownerId, month: r.month.slice(0, 7), amountCents: r.amountCents })),
      },
    });
  });
  return { saved: given.length };
}

/** The forecast as CSV: a line per rep and month, then the totals. */
export function forecastCsv(forecast: Forecast): string {
  const cell = (value: string) => csvCell(value);
  const money = (n: number) => plainAmount(n);
  const lines = [['Rep', 'Month', 'Booked', 'Weighted pipeline', 'Best case', 'Target', 'Attainment %']];
  const push = (name: string, m: ForecastMonth) =>
    lines.push([
      name,
      m.month,
      money(m.booked),
      money(m.weighted),
      money(m.bestCase),
      m.target === null ? '' : money(m.target),
      m.attainment === null ? '' : String(m.attainment),
    ]);
  for (const row of forecast.rows) for (const m of row.months) push(row.ownerName, m);
  for (const m of forecast.totals) push('All reps', m);
  return `${lines.map((line) => line.map(cell).join(',')).join('\n')}\n`;
}
