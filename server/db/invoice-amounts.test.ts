import {
  amountDueCents,
  creditableCents,
  isPayable,
  isVoidable,
  refundableCents,
  settles,
  uncreditedCents,
} from '@shared/invoice-amounts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../lib/db-rows';
import { openTestDatabase } from '../test/app';
import type { Database } from './client';
import {
  sqlAmountDue,
  sqlCreditable,
  sqlPayable,
  sqlRefundable,
  sqlSettles,
  sqlUncredited,
  sqlVoidable,
} from './invoice-amounts';

/** The SQL twins answer what shared/invoice-amounts.ts answers, on the same hand-made table. */
type Case = {
  status: string;
  total: number;
  paid: number;
  credited: number;
  due: number;
  payable: boolean;
  voidable: boolean;
  uncredited: number;
  creditable: number;
  refundable: number;
  settles: boolean;
};

// biome-ignore format: one case a line reads as a table
const CASES: Case[] = [
  { status: 'pending', total: 100_00, paid: 0, credited: 0, due: 100_00, payable: true, voidable: true, uncredited: 100_00, creditable: 100_00, refundable: 0, settles: false },
  { status: 'pending', total: 100_00, paid: 40_00, credited: 0, due: 60_00, payable: true, voidable: true, uncredited: 100_00, creditable: 100_00, refundable: 40_00, settles: false },
  { status: 'failed', total: 100_00, paid: 99_99, credited: 0, due: 1, payable: true, voidable: true, uncredited: 100_00, creditable: 100_00, refundable: 99_99, settles: false },
  { status: 'pending', total: 100_00, paid: 120_00, credited: 0, due: 0, payable: true, voidable: true, uncredited: 100_00, creditable: 100_00, refundable: 100_00, settles: true },
  { status: 'pending', total: 100_00, paid: 40_00, credited: 25_00, due: 35_00, payable: true, voidable: true, uncredited: 75_00, creditable: 75_00, refundable: 40_00, settles: false },
  { status: 'pending', total: 100_00, paid: 40_00, credited: 70_00, due: 0, payable: true, voidable: true, uncredited: 30_00, creditable: 30_00, refundable: 30_00, settles: true },
  { status: 'paid', total: 100_00, paid: 100_00, credited: 0, due: 0, payable: false, voidable: true, uncredited: 100_00, creditable: 100_00, refundable: 100_00, settles: true },
  { status: 'paid', total: 100_00, paid: 100_00, credited: 30_00, due: 0, payable: false, voidable: true, uncredited: 70_00, creditable: 70_00, refundable: 70_00, settles: true },
  { status: 'paid', total: 0, paid: 0, credited: 0, due: 0, payable: false, voidable: true, uncredited: 0, creditable: 0, refundable: 0, settles: true },
  { status: 'void', total: 100_00, paid: 40_00, credited: 60_00, due: 0, payable: false, voidable: false, uncredited: 40_00, creditable: 0, refundable: 40_00, settles: true },
  { status: 'void', total: 100_00, paid: 0, credited: 100_00, due: 0, payable: false, voidable: false, uncredited: 0, creditable: 0, refundable: 0, settles: true },
];

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

type Answer = {
  due: string | number;
  payable: boolean;
  voidable: boolean;
  uncredited: string | number;
  creditable: string | number;
  refundable: string | number;
  settles: boolean;
  settles_with_payment: boolean;
  due_with_payment: string | number;
};

async function answers(): Promise<Answer[]> {
  const values = sql.join(
    CASES.map((c) => sql`(${c.status}, ${c.total}::bigint, ${c.paid}::bigint, ${c.credited}::bigint)`),
    sql`, `,
  );
  // The same rules over expressions: the row as a payment of 1 cent would leave it.
  const withPayment = { alias: 'i', amountPaidCents: sql`(i.amount_paid_cents + 1)` };
  return rowsOf<Answer>(
    await database.db.execute(sql`
      select ${sqlAmountDue('i')}::bigint as due, ${sqlPayable('i')} as payable, ${sqlVoidable('i')} as voidable,
             ${sqlUncredited('i')}::bigint as uncredited, ${sqlCreditable('i')}::bigint as creditable,
             ${sqlRefundable('i')}::bigint as refundable, ${sqlSettles('i')} as settles,
             ${sqlSettles(withPayment)} as settles_with_payment, ${sqlAmountDue(withPayment)}::bigint as due_with_payment
      from (values ${values}) as i(status, total_cents, amount_paid_cents, credited_cents)`),
  );
}

describe('the SQL twins of the invoice rules', () => {
  it('answer the table', async () => {
    const rows = await answers();
    expect(
      rows.map((r) => ({
        due: Number(r.due),
        payable: r.payable,
        voidable: r.voidable,
        uncredited: Number(r.uncredited),
        creditable: Number(r.creditable),
        refundable: Number(r.refundable),
        settles: r.settles,
      })),
    ).toEqual(CASES.map(({ status, total, paid, credited, ...expected }) => expected));
  });

  it('read expressions given for a row being written', async () => {
    const rows = await answers();
    // One more cent paid settles exactly the rows whose paid + credited is at least total - 1.
    expect(rows.map((r) => r.settles_with_payment)).toEqual(CASES.map((c) => c.paid + 1 + c.credited >= c.total));
    expect(rows.map((r) => Number(r.due_with_payment))).toEqual(
      CASES.map((c) => (c.payable ? Math.max(0, c.due - 1) : 0)),
    );
  });

  it('agree with the TypeScript rules on the same table', () => {
    const ts = CASES.map((c) => {
      const invoice = { status: c.status, totalCents: c.total, amountPaidCents: c.paid, creditedCents: c.credited };
      return {
        due: amountDueCents(invoice),
        payable: isPayable(c.status),
        voidable: isVoidable(c.status),
        uncredited: uncreditedCents(invoice),
        creditable: creditableCents(invoice),
        refundable: refundableCents(invoice),
        settles: settles(invoice),
      };
    });
    expect(ts).toEqual(CASES.map(({ status, total, paid, credited, ...expected }) => expected));
  });
});
