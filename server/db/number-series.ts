import { sql } from 'drizzle-orm';
import type { Db } from './client';

/** The gapless series: invoices, credit notes and accounting export batches (decisions 023 and 043). */
export type NumberSeries = 'INV' | 'CN' | 'EXP';

/** "CN-2026-000042": at least six digits, more past 999,999 (never cut). */
export function documentNumber(series: NumberSeries, year: number, value: number): string {
  return `${series}-${year}-${String(value).padStart(6, '0')}`;
}

/**
 * Takes the next number of a series for the UTC year of `at`, inside the caller's transaction: the upsert
 * locks the series' row until that transaction ends, so concurrent issuers number one after the other
 * and a rollback gives the number back. (The billing run numbers its invoices the same way, in SQL.)
 */
export async function takeNextNumber(tx: Db, series: NumberSeries, at: Date = new Date()): Promise<string> {
  const year = at.getUTCFullYear();
  const result = await tx.execute(sql`
    insert into number_series (series, year, last_value) values (${series}, ${year}, 1)
    on conflict (series, year) do update set last_value = number_series.last_value + 1
    returning last_value`);
  const [row] = (result as unknown as { rows: { last_value: string | number }[] }).rows;
  return documentNumber(series, year, Number(row.last_value));
}
