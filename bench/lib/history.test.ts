import { describe, expect, it } from 'vitest';
import { mergeRows, parseTable, regressions, rowMeasure } from './history';
import { type BenchRow, markdownTable } from './table';

// A table as an earlier run wrote it: one "Measured" header for every row, no "measured" column.
const oldSection = `Measured 2026-11-26 23:45 UTC at commit db18682 on 2 cores (AMD EPYC), load average at the start 1.7.

| row | ours | baseline | ratio | goal | met |
|---|---|---|---|---|---|
| GET /api/auth/me, 50 connections | 6,471 (5,858-7,084) req/s, p95 12 (10-14) ms | node:http + pg: 8,376 req/s | 0.78 (0.73-0.83) | >= 0.85, p95 < 50 ms | **no** |
| Signed-in screens, first load (gzip, heaviest) | contract-edit: 180.1 kB (lightest 96.6 kB) | — | — | <= 170 kB each | **no** |
| Lab LCP, dashboard (signed in) (Chromium, 40 ms / 10 Mbit/s) | 648 (552-680) ms | bare template: 252 ms | 2.39 (2.34-2.57) | <= 1.5x | **no** |
| Billing run, 100,000 active contracts due | 3,625 invoices/s | floor: 11,379 invoices/s | 3.14 (2.98-3.29)x the floor's time | <= 3x the floor, >= 5,000 invoices/s | **no** |
| Reports current_year, manager (all contracts) | p50 47.7 ms, p95 57.8 ms | — | — | p95 < 50 ms | **no** |
| Contract list on PGlite vs PostgreSQL, 10 connections | 151 req/s | ours on PostgreSQL: 587 req/s | 0.26 (0.23-0.28) | — (one PGlite connection serves all) | — |
| A row with a \\| in its name | 1 ms | — | — | < 5 ms | yes |

- Reports current_year, manager (all contracts): 60 sequential requests in process
`;

const row = (name: string, ratio: string, goal: string, ours = '—'): BenchRow => ({
  name,
  ours,
  baseline: '—',
  ratio,
  goal,
  met: true,
});

describe('the bench table as a record', () => {
  it('reads an older table, its header date standing for every row, its notes joined to their rows', () => {
    const rows = parseTable(oldSection);
    expect(rows.map((r) => [r.name, r.ratio, r.met, r.measured])).toEqual([
      ['GET /api/auth/me, 50 connections', '0.78 (0.73-0.83)', false, '2026-11-26, db18682'],
      ['Signed-in screens, first load (gzip, heaviest)', '—', false, '2026-11-26, db18682'],
      [
        'Lab LCP, dashboard (signed in) (Chromium, 40 ms / 10 Mbit/s)',
        '2.39 (2.34-2.57)',
        false,
        '2026-11-26, db18682',
      ],
      ['Billing run, 100,000 active contracts due', "3.14 (2.98-3.29)x the floor's time", false, '2026-11-26, db18682'],
      ['Reports current_year, manager (all contracts)', '—', false, '2026-11-26, db18682'],
      ['Contract list on PGlite vs PostgreSQL, 10 connections', '0.26 (0.23-0.28)', null, '2026-11-26, db18682'],
      ['A row with a | in its name', '—', true, '2026-11-26, db18682'],
    ]);
    expect(rows[4].note).toBe('60 sequential requests in process');
  });

  it('reads back what it writes, with each row its own date', () => {
    const rows: BenchRow[] = [
      { ...row('Search | mix', '0.61 (0.5-0.7)', '>= 0.5'), measured: '2026-11-28, abc1234', met: false },
      { ...row('Health', '—', 'p95 < 50 ms', 'p50 0.3 ms, p95 1.2 ms'), measured: '2026-11-27, 0000001' },
    ];
    expect(parseTable(`The latest run: ...\n\n${markdownTable(rows)}\n`)).toEqual(rows);
  });

  it('takes the figure a goal is about, and its direction', () => {
    const rows = parseTable(oldSection);
    expect(rows.map(rowMeasure)).toEqual([
      { value: 0.78, higherIsBetter: true },
      { value: 180.1, higherIsBetter: false },
      { value: 2.39, higherIsBetter: false },
      { value: 3.14, higherIsBetter: false },
      { value: 57.8, higherIsBetter: false },
      null, // no goal
      { value: 1, higherIsBetter: false },
    ]);
  });

  it('warns of a row worse by more than 25%, either way round, and of nothing else', () => {
    const previous = [
      row('ratio up', '0.80', '>= 0.5'),
      row('ratio slightly down', '0.80', '>= 0.5'),
      row('ratio far down', '0.80', '>= 0.5'),
      row('time up a little', '—', 'p95 < 50 ms', 'p50 10 ms, p95 40 ms'),
      row('time far up', '—', 'p95 < 50 ms', 'p50 10 ms, p95 40 ms'),
      row('new goal', '2.00', '<= 3x'),
    ];
    const current = [
      row('ratio up', '1.20', '>= 0.5'),
      row('ratio slightly down', '0.61', '>= 0.5'), // 23.75% worse
      row('ratio far down', '0.59', '>= 0.5'), // 26.25% worse
      row('time up a little', '—', 'p95 < 50 ms', 'p50 10 ms, p95 49 ms'), // 22.5% worse
      row('time far up', '—', 'p95 < 50 ms', 'p50 10 ms, p95 51 ms'), // 27.5% worse
      row('a row never measured before', '0.10', '>= 0.5'),
    ];
    expect(regressions(previous, current).map((r) => [r.name, r.previous, r.current])).toEqual([
      ['ratio far down', 0.8, 0.59],
      ['time far up', 40, 51],
    ]);
  });

  it('keeps the rows a run of some groups did not measure, in their place', () => {
    const previous = [row('a', '1', '>= 1'), row('b', '1', '>= 1'), row('c', '1', '>= 1')];
    const current = [row('b', '2', '>= 1'), row('d', '2', '>= 1')];
    expect(mergeRows(previous, current, false).map((r) => `${r.name}${r.ratio}`)).toEqual(['a1', 'b2', 'c1', 'd2']);
    expect(mergeRows(previous, current, true).map((r) => `${r.name}${r.ratio}`)).toEqual(['b2', 'd2']);
  });
});
