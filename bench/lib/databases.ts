/**
 * The benchmark databases' names. BENCH_DB_PREFIX gives a checkout its own databases, so two benchmark runs on
 * one machine do not share data. A module of its own, without side effects: bench/data.ts imports the companion
 * benchmarks (reports, billing, inventory) while its own top-level await runs, so they cannot import it back.
 */
export const BENCH_DB_PREFIX = process.env.BENCH_DB_PREFIX ?? 'adcrm_bench';

/** The contract list's database of this many contracts. */
export const benchDatabaseName = (contracts: number) => `${BENCH_DB_PREFIX}_${contracts}`;

/** A companion benchmark's own database (billing, reports, e-mail, delivery), under the same prefix. */
export const benchDb = (name: string) => `${BENCH_DB_PREFIX}_${name}`;
