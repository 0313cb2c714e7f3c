import { amountDueCents } from '@shared/invoice-amounts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../test/app';
import type { Database } from './client';
import { sqlAmountDue, sqlPayable } from './invoice-amounts';

/** The SQL twin answers what shared/invoice-amounts.ts answers, on the same hand-made table. */
const CASES: [status: string, totalCents: number, amountPaidCents: number, creditedCents: number, dueCents: number][] =
  [
    ['pending', 100_00, 0, 0, 100_00],
    ['pending', 100_00, 40_00, 0, 60_00],
    ['failed', 100_00, 99_99, 0, 1],
    ['pending', 100_00, 120_00, 0, 0],
    ['pending', 100_00, 40_00, 25_00, 35_00],
    ['pending', 100_00, 40_00, 70_00, 0],
    ['paid', 100_00, 100_00, 0, 0],
    ['void', 100_00, 40_00, 60_00, 0],
  ];

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

describe('sqlAmountDue', () => {
  it('agrees with amountDueCents on every case', async () => {
    const values = sql.join(
      CASES.map(
        ([status, total, paid, credited]) => sql`(${status}, ${total}::bigint, ${paid}::bigint, ${credited}::bigint)`,
      ),
      sql`, `,
    );
    const result = await database.db.execute(sql`
      select ${sqlAmountDue('i')}::bigint as due, ${sqlPayable('i')} as payable
      from (values ${values}) as i(status, total_cents, amount_paid_cents, credited_cents)`);
    const rows = (result as unknown as { rows: { due: string | number; payable: boolean }[] }).rows;
    expect(rows.map((r) => Number(r.due))).toEqual(CASES.map(([, , , , due]) => due));
    expect(rows.map((r) => Number(r.due))).toEqual(
      CASES.map(([status, totalCents, amountPaidCents, creditedCents]) =>
        amountDueCents({ status, totalCents, amountPaidCents, creditedCents }),
      ),
    );
    expect(rows.map((r) => r.payable)).toEqual([true, true, true, true, true, true, false, false]);
  });
});
