import { toNestErrors } from '@hookform/resolvers';
import type { Forecast, ForecastTargetsInput } from '@shared/contracts/forecast';
import { forecastTargetsSchema } from '@shared/contracts/forecast';
import { centsToAmount, plainAmount } from '@shared/money';
import type { FieldError, Resolver, ResolverResult } from 'react-hook-form';

/** A person whose targets a manager sets: a rep or a sales manager. */
export type RepOption = { id: string; name: string };

/** One rep's month as the dialog holds it: the amount as typed ('' for none yet). */
export type TargetCell = { ownerId: string; month: string; amount: string };
export type TargetsFormState = { targets: TargetCell[] };

/** What a valid form sends (PUT /api/forecast/targets, money in dollars), and which cells it came from. */
export type TargetsPayload = { body: ForecastTargetsInput; cells: number[] };

/**
 * The reps the dialog offers, by name: the people who sell (the page passes them) and anyone the forecast has a
 * row for (an inactive rep who still has targets, say).
 */
export function repsOf(people: RepOption[], forecast: Forecast | undefined): RepOption[] {
  const reps = new Map(people.map((rep) => [rep.id, rep]));
  for (const row of forecast?.rows ?? []) {
    if (!reps.has(row.ownerId)) reps.set(row.ownerId, { id: row.ownerId, name: row.ownerName });
  }
  return [...reps.values()].sort((a, b) => a.name.localeCompare(b.name, 'en-US') || a.id.localeCompare(b.id));
}

/** A cell per rep and month, with the target the forecast has for it now ("15000.00"), else ''. */
export function targetCells(reps: RepOption[], months: string[], forecast: Forecast | undefined): TargetCell[] {
  const current = new Map<string, number>();
  for (const row of forecast?.rows ?? []) {
    for (const month of row.months)
      if (month.target !== null) current.set(`${row.ownerId}:${month.month}`, month.target);
  }
  return reps.flatMap((rep) =>
    months.map((month) => {
      const target = current.get(`${rep.id}:${month}`);
      return { ownerId: rep.id, month, amount: target === undefined ? '' : plainAmount(target) };
    }),
  );
}

/** The cells changed from what the dialog opened with: only those are sent (the others stay as they are). */
export function changedCells(cells: TargetCell[], initial: TargetCell[]): number[] {
  return cells.flatMap((cell, index) => (cell.amount.trim() === (initial[index]?.amount ?? '') ? [] : [index]));
}

/**
 * Validates the changed cells with forecastTargetsSchema, the API's own rules and messages: a changed cell's
 * message goes under it, "Set at least one target" (nothing changed) on the form. The output is the body of
 * PUT /api/forecast/targets with money in dollars, and the cells it came from (for the server's messages).
 */
export const targetsResolver =
  (initial: TargetCell[]): Resolver<TargetsFormState, unknown, TargetsPayload> =>
  (values, _context, options): ResolverResult<TargetsFormState, TargetsPayload> => {
    const cells = changedCells(values.targets, initial);
    const result = forecastTargetsSchema.safeParse({
      targets: cells.map((index) => {
        const { ownerId, month, amount } = values.targets[index];
        // A cell emptied removes the month's target.
        return { ownerId, month, amount: amount.trim() === '' ? null : amount.trim() };
      }),
    });
    if (result.success) {
      return {
        values: {
          body: {
            targets: result.data.targets.map((target) => ({
              ...target,
              amount: target.amount === null ? null : centsToAmount(target.amount),
            })),
          },
          cells,
        },
        errors: {},
      };
    }
    const flat: Record<string, FieldError> = {};
    for (const issue of result.error.issues) {
      // A cell's every message (its amount's, or a rep or month the schema refuses) shows under its one input.
      const [head, position] = issue.path;
      const key = head === 'targets' && typeof position === 'number' ? `targets.${cells[position]}.amount` : 'root';
      if (!(key in flat)) flat[key] = { type: issue.code, message: issue.message };
    }
    return { values: {}, errors: toNestErrors<TargetsFormState>(flat, options) };
  };

/**
 * The server's messages of a refused save (`targets.2.ownerId`: the second cell sent) as [cell, message]: each
 * shows under the cell it is about.
 */
export function serverCellErrors(
  fieldErrors: Record<string, string[]> | undefined,
  cells: number[],
): [number, string][] {
  const found: [number, string][] = [];
  for (const [path, messages] of Object.entries(fieldErrors ?? {})) {
    const match = /^targets\.(\d+)(\.|$)/.exec(path);
    const cell = match ? cells[Number(match[1])] : undefined;
    if (cell !== undefined && messages[0]) found.push([cell, messages[0]]);
  }
  return found;
}
