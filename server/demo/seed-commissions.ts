import { addDays } from '@shared/billing';
import { amountToCents } from '@shared/money';
import { and, asc, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { commissions, contracts, invoices, users } from '../db/schema';
import { businessToday } from '../lib/business-day';
import { createMailer } from '../lib/mailer';
import {
  approvePayout,
  disbursePayout,
  type PayoutDeps,
  rejectPayout,
  requestPayout,
} from '../modules/commissions/commissions.service';
import { voidInvoice } from '../modules/payments/refunds.service';

/**
 * The demo's commission history, made by the real code paths after the billing history (seed-billing.ts,
 * whose payments already earned each rep's commission through the payments core): for both demo reps a
 * series of payout requests over the last months, reviewed by finance through the payout service:
 * disbursed in full, approved for less and disbursed, rejected, approved and not yet paid (the first rep
 * only) and one still pending; then a refunded invoice (an adjusted commission, through the void route's
 * service). What is left stays available. Each request asks for part of what had been earned by its date.
 */
export async function seedCommissions(db: Db, options: { today?: string; baseUrl?: string } = {}): Promise<void> {
  const today = options.today ?? businessToday();
  const mailer = createMailer({ SMTP_URL: undefined, MAIL_FROM: 'AdCRM <billing@adcrm.local>' });
  const [finance] = await db.select().from(users).where(eq(users.email, 'finance@demo.test'));
  const reps = await db
    .select()
    .from(users)
    .where(inArray(users.email, ['sales@demo.test', 'sales2@demo.test']))
    .orderBy(desc(users.email)); // sales@ first, then sales2@
  if (!finance || !reps.length) return;

  for (const [index, rep] of reps.entries()) {
    /** A change dated `daysAgo` days before today (at an office hour). */
    const deps = (daysAgo: number, hour = 10): PayoutDeps => ({
      db,
      mailer,
      baseUrl: options.baseUrl ?? 'http://localhost:3000',
      now: () => new Date(`${addDays(today, -daysAgo)}T${String(hour).padStart(2, '0')}:${15 + index * 7}:00Z`),
    });
    let requestedSoFar = 0;
    /** Part of the commission earned before that day and not yet requested, in cents (0 when too little). */
    const share = async (daysAgo: number, fraction: number) => {
      const earned = await earnedBefore(db, rep.id, addDays(today, -daysAgo));
      const cents = Math.min(Math.floor((earned - requestedSoFar) * fraction), await availableNow(db, rep.id));
      if (cents < 100) return 0;
      requestedSoFar += cents;
      return cents;
    };
    const request = async (daysAgo: number, fraction: number) => {
      const cents = await share(daysAgo, fraction);
      return cents ? requestPayout(deps(daysAgo), rep, { requestedAmount: cents }) : null;
    };

    // Paid in full: requested about four months ago, approved and disbursed within the week.
    const first = await request(120, 0.7);
    if (first) {
      await approvePayout(deps(118), finance, first.id, { approvedAmount: amountToCents(first.requestedAmount) });
      await disbursePayout(deps(114, 15), finance, first.id);
    }
    // Approved for less (the rest returned to available), then disbursed.
    const second = await request(60, 0.8);
    if (second) {
      const approvedCents = Math.round(amountToCents(second.requestedAmount) * 0.75);
      await approvePayout(deps(58), finance, second.id, { approvedAmount: approvedCents });
      await disbursePayout(deps(55, 15), finance, second.id);
    }
    // Rejected: everything returned to available.
    const third = await request(30, 0.5);
    if (third) {
      await rejectPayout(deps(29), finance, third.id, {
        reason: 'Two of these invoices are under dispute; please request again once they are settled.',
      });
      requestedSoFar -= amountToCents(third.requestedAmount);
    }
    // Approved, waiting to be paid out (the first rep), and one request waiting for review.
    if (index === 0) {
      const fourth = await request(9, 0.4);
      if (fourth) {
        await approvePayout(deps(7), finance, fourth.id, { approvedAmount: amountToCents(fourth.requestedAmount) });
      }
    }
    await request(3, 0.35);

    // A recent refund: the commission earned on that invoice is adjusted away.
    await refundOneInvoice(db, mailer, finance, rep.id, today);
  }
}

/** What the rep could request right now (available net of adjustments), in cents. */
async function availableNow(db: Db, repId: string): Promise<number> {
  const [row] = await db
    .select({ cents: sql<string>`coalesce(sum(${commissions.amountCents}), 0)` })
    .from(commissions)
    .where(and(eq(commissions.repId, repId), inArray(commissions.status, ['available', 'adjusted'])));
  return Number(row.cents);
}

/** Commission the rep earned (net) before a day, in cents. */
async function earnedBefore(db: Db, repId: string, day: string): Promise<number> {
  const [row] = await db
    .select({ cents: sql<string>`coalesce(sum(${commissions.amountCents}), 0)` })
    .from(commissions)
    .where(and(eq(commissions.repId, repId), lt(commissions.earnedAt, new Date(`${day}T00:00:00Z`))));
  return Number(row.cents);
}

/**
 * The rep's most recently paid invoice of a still-running contract is refunded (voided) by finance: the
 * commission earned on it is adjusted away.
 */
async function refundOneInvoice(
  db: Db,
  mailer: ReturnType<typeof createMailer>,
  finance: typeof users.$inferSelect,
  repId: string,
  today: string,
): Promise<void> {
  const [paid] = await db
    .select({ id: invoices.id })
    .from(invoices)
    .innerJoin(contracts, eq(contracts.id, invoices.contractId))
    .innerJoin(commissions, eq(commissions.invoiceId, invoices.id))
    .where(
      and(
        eq(contracts.salesRepId, repId),
        eq(invoices.status, 'paid'),
        eq(contracts.status, 'active'),
        lt(invoices.periodStart, addDays(today, -20)),
      ),
    )
    .orderBy(desc(invoices.periodStart), asc(invoices.number))
    .limit(1);
  if (!paid) return;
  await voidInvoice(
    { db, mailer, baseUrl: 'http://localhost:3000' },
    finance,
    paid.id,
    'Refunded: the campaign did not run this month (ad server outage).',
  );
}
