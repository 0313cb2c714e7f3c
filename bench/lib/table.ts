/**
 * One row of the benchmark table. Companion benchmarks (bench/billing.ts, bench/reports.ts) return rows of
 * this shape from `export async function bench(context: BenchContext): Promise<BenchRow[]>`.
 */
export type BenchRow = {
  name: string;
  /** Our figure, e.g. "1,139 req/s (1,050-1,201), p95 12 ms". */
  ours: string;
  /** The baseline's figure, measured in the same run. */
  baseline: string;
  /** ours / baseline (or the row's own comparison), e.g. "0.91 (0.88-0.95)". */
  ratio: string;
  goal: string;
  /** null: no goal (reported only). */
  met: boolean | null;
  /** Why a goal was missed and what would close it, or how the row was measured. */
  note?: string;
  /** When and at which commit the row was measured ("2026-11-28 10:15, 9616f99"); set by bench/run.ts. */
  measured?: string;
};

export type BenchContext = {
  /** postgres://... of the server the benchmark databases live on (bench/data.ts builds them). */
  pgUrl: string;
  /** Alternating rounds to run (ours, baseline, ours, ...). */
  rounds: number;
  /** A short run while working: fewer rounds and smaller volumes where the module offers them. */
  quick: boolean;
  seed: number;
};

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

export function markdownTable(rows: BenchRow[]): string {
  const lines = [
    '| row | ours | baseline | ratio | goal | met | measured |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${cell(r.name)} | ${cell(r.ours)} | ${cell(r.baseline)} | ${cell(r.ratio)} | ${cell(r.goal)} | ${
          r.met === null ? '—' : r.met ? 'yes' : '**no**'
        } | ${cell(r.measured ?? '')} |`,
    ),
  ];
  return lines.join('\n');
}
