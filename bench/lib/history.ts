/**
 * The table of docs/performance.md as the record of every goal: each row keeps the date and commit of the run
 * that last measured it, a run of some groups (BENCH_ONLY) replaces only its own rows, and a row that got worse
 * by more than a quarter since the table's previous figure is reported as a regression.
 */
import type { BenchRow } from './table';

/** A row's figure as one number and which way is better, read from its ratio or its own figure. */
export type Measure = { value: number; higherIsBetter: boolean };

/** A worsening beyond this share of the previous figure is a regression (25%). */
export const REGRESSION_SHARE = 0.25;

const leadingNumber = (text: string): number | null => {
  const match = /^\s*(-?[\d,]*\.?\d+)/.exec(text);
  if (!match) return null;
  const value = Number(match[1].replaceAll(',', ''));
  return Number.isFinite(value) ? value : null;
};

/**
 * The number a row's goal is about, and its direction, from the goal's first comparison: ">=" means higher is
 * better, "<=" or "<" lower. The number is the row's ratio when it has one (the median, before the range),
 * else the p95 in its own figure when the goal is a p95, else the leading number of its own figure.
 */
export function rowMeasure(row: BenchRow): Measure | null {
  if (row.met === null) return null;
  const comparison = /(>=|<=|<|>)/.exec(row.goal);
  if (!comparison) return null;
  const higherIsBetter = comparison[1].startsWith('>');
  const ratio = leadingNumber(row.ratio);
  if (ratio !== null) return { value: ratio, higherIsBetter };
  if (/p95/.test(row.goal)) {
    const p95 = /p95 ([\d,]*\.?\d+)/.exec(row.ours);
    if (p95) return { value: Number(p95[1].replaceAll(',', '')), higherIsBetter: false };
  }
  // "contract-edit: 180.1 kB (...)": the figure after the label.
  const own = leadingNumber(row.ours) ?? leadingNumber(row.ours.slice(row.ours.indexOf(':') + 1));
  return own === null ? null : { value: own, higherIsBetter };
}

export type Regression = { name: string; previous: number; current: number; share: number; measured?: string };

/** The rows of `current` whose figure is worse than the same row of `previous` by more than REGRESSION_SHARE. */
export function regressions(previous: BenchRow[], current: BenchRow[]): Regression[] {
  const before = new Map(previous.map((row) => [row.name, row]));
  const found: Regression[] = [];
  for (const row of current) {
    const old = before.get(row.name);
    const now = rowMeasure(row);
    const then = old && rowMeasure(old);
    if (!now || !then || then.value === 0 || now.higherIsBetter !== then.higherIsBetter) continue;
    const share = now.higherIsBetter ? (then.value - now.value) / then.value : (now.value - then.value) / then.value;
    if (share > REGRESSION_SHARE) {
      found.push({ name: row.name, previous: then.value, current: now.value, share, measured: old.measured });
    }
  }
  return found;
}

/**
 * The table after a run: every row the run measured, in the run's order, where the previous table had it or
 * after the previous table's rows; the rows it did not measure stay as they were, with their own dates. A run
 * of every group replaces the table.
 */
export function mergeRows(previous: BenchRow[], current: BenchRow[], everyGroup: boolean): BenchRow[] {
  if (everyGroup) return current;
  const fresh = new Map(current.map((row) => [row.name, row]));
  const merged = previous.map((row) => fresh.get(row.name) ?? row);
  const known = new Set(previous.map((row) => row.name));
  return [...merged, ...current.filter((row) => !known.has(row.name))];
}

const cellText = (cell: string) => cell.trim().replaceAll('\\|', '|');

/**
 * Reads back a table written by markdownTable (bench/lib/table.ts) with its notes ("- row: note" lines). A
 * table written before rows carried their own date has one "Measured <date> UTC at commit <sha>" header: its
 * rows take that.
 */
export function parseTable(section: string): BenchRow[] {
  const header = /Measured (\d{4}-\d{2}-\d{2}) [\d:]+ UTC at commit (\w+)/.exec(section);
  const fallback = header ? `${header[1]}, ${header[2]}` : undefined;
  const rows: BenchRow[] = [];
  const notes = new Map<string, string>();
  let columns: string[] | null = null;
  for (const line of section.split('\n')) {
    if (line.startsWith('| row |')) {
      columns = line
        .split(/(?<!\\)\|/)
        .slice(1, -1)
        .map((cell) => cell.trim());
      continue;
    }
    if (columns && line.startsWith('|') && !line.startsWith('|---')) {
      const cells = line
        .split(/(?<!\\)\|/)
        .slice(1, -1)
        .map(cellText);
      const at = (name: string) => cells[columns!.indexOf(name)] ?? '';
      const met = at('met');
      rows.push({
        name: at('row'),
        ours: at('ours'),
        baseline: at('baseline'),
        ratio: at('ratio'),
        goal: at('goal'),
        met: met === '—' ? null : met === 'yes',
        measured: columns.includes('measured') ? at('measured') : fallback,
      });
      continue;
    }
    const note = /^- (.+?): (.+)$/.exec(line);
    if (note) notes.set(note[1], note[2]);
  }
  for (const row of rows) {
    const note = notes.get(row.name);
    if (note) row.note = note;
  }
  return rows;
}
