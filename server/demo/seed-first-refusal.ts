import { addDays } from '@shared/billing';
import { type ContractBody, contractBodySchema } from '@shared/contracts/contract-api';
import { addCalendarMonths } from '@shared/contracts/contract-lifecycle';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { contracts, customers, products, users } from '../db/schema';
import { businessToday } from '../lib/business-day';
import { createMailer } from '../lib/mailer';
import type { Storage } from '../lib/storage';
import { createContract } from '../modules/contracts/contracts.service';
import { getAvailability, runRenewalHolds } from '../modules/inventory/inventory.service';

/**
 * Right of first refusal (product.md section 15), left by the renewal-holds job itself, with dates relative
 * to the demo's business day:
 * - a live hold: Jingle Java Coffee's contract (Jordan's) starts in a week for a month, so it is due for
 *   renewal; its three days of Holiday Pre-roll (the first three in a row with a slot free, from 8 days on)
 *   are held for its renewal on the same days next year, until 30 days before them;
 * - a lapsed hold: Cozy Cabin Furniture's year of Homepage Takeover (Taylor's) ended 5 days ago; the week it
 *   ran last year, 20 days from now this year, was held for its renewal from 15 days ago until 10 days ago,
 *   30 days before that week, and then released to everyone (Taylor was told). The contract stands completed.
 */
export async function seedFirstRefusal(
  db: Db,
  options: { storage: Storage; baseUrl?: string; today?: string },
): Promise<void> {
  const today = options.today ?? businessToday();
  const baseUrl = options.baseUrl ?? 'http://localhost:3000';
  const deps = {
    db,
    mailer: createMailer({ SMTP_URL: undefined, MAIL_FROM: 'AdCRM <billing@adcrm.local>' }),
    baseUrl,
    storage: options.storage,
  };
  const productId = async (name: string) =>
    (await db.select({ id: products.id }).from(products).where(eq(products.name, name)))[0].id;
  const customerId = async (name: string) =>
    (await db.select({ id: customers.id }).from(customers).where(eq(customers.name, name)))[0].id;
  const user = async (email: string) => (await db.select().from(users).where(eq(users.email, email)))[0];
  const [takeover, preRoll] = [await productId('Homepage Takeover'), await productId('Holiday Pre-roll')];
  const [rep, rep2] = [await user('sales@demo.test'), await user('sales2@demo.test')];

  const contract = (
    customer: string,
    title: string,
    startDate: string,
    termMonths: number,
    line: { productId: string; flightStart: string; flightEnd: string; unitPrice: number },
    makeActive: boolean,
  ): Promise<ContractBody> =>
    customerId(customer).then((id) =>
      contractBodySchema.parse({
        customerId: id,
        title,
        description: `${title} (first refusal on its renewal)`,
        startDate,
        termMonths,
        paymentMode: 'portal',
        setupFee: 0,
        makeActive,
        lineItems: [{ ...line, quantity: 1, discount: 0 }],
      }),
    );

  // The lapsed hold: a year that ended 5 days ago. Saved as a draft (a year's invoices are not the point
  // here) and set running, as it was when its hold started.
  const lapsedEnd = addDays(today, -5);
  const lastYearWeek = addCalendarMonths(addDays(today, 20), -12);
  const lapsed = await createContract(
    deps,
    rep2,
    await contract(
      'Cozy Cabin Furniture',
      'Cozy Cabin: a year on the homepage',
      addCalendarMonths(lapsedEnd, -12),
      12,
      { productId: takeover, flightStart: lastYearWeek, flightEnd: addDays(lastYearWeek, 6), unitPrice: 9000 },
      false,
    ),
  );
  await db.update(contracts).set({ status: 'active' }).where(eq(contracts.id, lapsed.id));
  await runRenewalHolds(db, { baseUrl, today: addDays(today, -15), contractIds: [lapsed.id] });

  // The live hold: a month from next week, with three days in a row where a pre-roll slot is free.
  const { days } = await getAvailability(db, preRoll, { from: addDays(today, 8), to: addDays(today, 28) });
  const first = days.findIndex((_, i) => i + 2 < days.length && days.slice(i, i + 3).every((d) => d.available > 0));
  const start = days[Math.max(first, 0)].date;
  await createContract(
    deps,
    rep,
    await contract(
      'Jingle Java Coffee',
      'Jingle Java: pre-roll before the holidays',
      addDays(today, 7),
      1,
      { productId: preRoll, flightStart: start, flightEnd: addDays(start, 2), unitPrice: 1800 },
      true,
    ),
  );

  // Today's run: starts the live hold (and any other that is due) and releases the lapsed one.
  await runRenewalHolds(db, { baseUrl, today });
  await db.update(contracts).set({ status: 'completed' }).where(eq(contracts.id, lapsed.id));
}
