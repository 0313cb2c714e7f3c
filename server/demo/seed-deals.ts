import { addDays } from '@shared/billing';
import type { DealCreateValues } from '@shared/contracts/deals';
import { and, asc, eq, inArray, notInArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { customers, deals, insertionOrders, products, users } from '../db/schema';
import { businessToday } from '../lib/business-day';
import { createMailer } from '../lib/mailer';
import type { Storage } from '../lib/storage';
import { transitionContract } from '../modules/contracts/contracts.service';
import { followContracts } from '../modules/deals/deals.follow';
import { createDeal, createDealContract, getPipelineSettings, loseDeal } from '../modules/deals/deals.service';
import { runRenewalDeals } from '../modules/deals/renewal-deals.service';
import { saveTargets } from '../modules/forecast/forecast.service';
import { acceptInsertionOrder } from '../modules/insertion-orders/insertion-orders.service';

const DAY_MS = 86_400_000;

/** The browser the demo's customer signs an insertion order from (kept on the signed record). */
const BROWSER = {
  ip: '203.0.113.31',
  userAgent:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
};

/**
 * The pipeline (product.md section 19), made through the product's own paths: for each of the two sales reps,
 * deals in every stage (new leads, one of them stale; qualified ones; a contract drafted, one sent, one whose
 * insertion order is signed: Won; two lost with their reasons), one prospect, the renewal deals of the contracts the renewals seed
 * brought to their first notice, and the manager's monthly targets for the next six months. Dates count from
 * the business day the demo is seeded on.
 */
export async function seedDeals(
  db: Db,
  options: { storage: Storage; today?: string; baseUrl?: string },
): Promise<void> {
  followContracts();
  const today = options.today ?? businessToday();
  const deps = {
    db,
    mailer: createMailer({ SMTP_URL: undefined, MAIL_FROM: 'AdCRM <billing@adcrm.local>' }),
    baseUrl: options.baseUrl ?? 'http://localhost:3000',
    storage: options.storage,
  };
  const people = await db
    .select()
    .from(users)
    .where(inArray(users.email, ['sales@demo.test', 'sales2@demo.test', 'manager@demo.test']));
  const byEmail = new Map(people.map((user) => [user.email, user]));
  const manager = byEmail.get('manager@demo.test');
  const reps = [byEmail.get('sales@demo.test'), byEmail.get('sales2@demo.test')].filter((rep) => rep !== undefined);
  const portalCustomers = (
    await db.select({ id: users.customerId }).from(users).where(eq(users.role, 'client'))
  ).flatMap((u) => (u.id ? [u.id] : []));
  const accounts = await db
    .select()
    .from(customers)
    .where(portalCustomers.length ? notInArray(customers.id, portalCustomers) : undefined)
    .orderBy(asc(customers.name))
    .limit(12);
  const lineProducts = await db
    .select()
    .from(products)
    .where(and(eq(products.priceMetric, 'monthly'), eq(products.inventoryRequired, false), eq(products.isActive, true)))
    .orderBy(asc(products.name))
    .limit(4);
  if (!manager || reps.length < 2 || accounts.length < 8 || lineProducts.length < 2) return;
  const { stages } = await getPipelineSettings(db);
  const stage = (name: string) => stages.find((s) => s.name === name)?.id;

  const monthAhead = (months: number, day = 1) => {
    const [y, m] = today.split('-').map(Number);
    const n = y * 12 + (m - 1) + months;
    return `${Math.floor(n / 12)}-${String((n % 12) + 1).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  };
  const line = (index: number, quantity = 1) => {
    const product = lineProducts[index % lineProducts.length];
    return { productId: product.id, quantity, unitPrice: product.defaultPriceCents };
  };
  const deal = (rep: (typeof reps)[number], fields: Partial<DealCreateValues> & { title: string; amount: number }) =>
    createDeal(db, rep, {
      customerId: null,
      prospect: null,
      ownerId: null,
      stageId: null,
      expectedCloseDate: null,
      flightStart: null,
      flightEnd: null,
      probability: null,
      source: 'outbound',
      nextStep: null,
      lines: [],
      ...fields,
    });

  for (const [r, rep] of reps.entries()) {
    const account = (i: number) => accounts[(i + r * 5) % accounts.length].id;
    const [a, b] = r === 0 ? ['Spring', 'Summer'] : ['Harbor', 'Festival'];
    const stale = await deal(rep, {
      customerId: account(0),
      title: `${a} radio flight`,
      amount: 4_800_00,
      expectedCloseDate: monthAhead(1, 15),
      flightStart: monthAhead(2),
      flightEnd: monthAhead(4, 28),
      source: 'inbound',
      nextStep: 'Send the media kit',
    });
    await deal(rep, {
      prospect:
        r === 0
          ? { name: 'Pinecrest Dental', email: 'office@pinecrest-dental.example' }
          : { name: 'Lighthouse Books', email: 'hello@lighthouse-books.example' },
      title: 'First campaign',
      amount: 1_500_00,
      expectedCloseDate: monthAhead(2, 1),
      source: 'referral',
      nextStep: 'Intro call',
    });
    await deal(rep, {
      customerId: account(1),
      title: `${b} newsletter sponsorship`,
      amount: 7_500_00,
      stageId: stage('Qualified'),
      expectedCloseDate: monthAhead(1, 20),
      flightStart: monthAhead(2, 10),
      flightEnd: monthAhead(5, 9),
      nextStep: 'Proposal by Friday',
    });
    await deal(rep, {
      customerId: account(2),
      title: `${a} homepage takeover`,
      amount: 12_000_00,
      stageId: stage('Qualified'),
      probability: 40,
      expectedCloseDate: monthAhead(3, 1),
      flightStart: monthAhead(3, 1),
      flightEnd: monthAhead(3, 28),
    });
    // A proposal (its contract drafted), one sent as an insertion order, one whose insertion order is signed:
    // new customers of the reps' (prospects), so that the demo's existing accounts keep their own history.
    const prospect = (name: string) => ({
      name,
      email: `${name
        .toLowerCase()
        .replace(/[^a-z]+/g, '-')
        .replace(/^-|-$/g, '')}@prospects.example`,
    });
    const names =
      r === 0
        ? ['Bayside Cycles', 'Copperleaf Spa', 'Driftwood Cafe']
        : ['Elm Street Vets', 'Fairway Golf', 'Granite Gym'];
    const proposal = await deal(rep, {
      prospect: prospect(names[0]),
      title: `${b} pre-roll package`,
      amount: 6_000_00,
      expectedCloseDate: monthAhead(1, 5),
      flightStart: monthAhead(1, 10),
      flightEnd: monthAhead(4, 9),
      lines: [line(0, 2), line(1)],
    });
    await createDealContract(deps, rep, proposal.id);
    const sent = await deal(rep, {
      prospect: prospect(names[1]),
      title: `${a} banner rotation`,
      amount: 3_600_00,
      expectedCloseDate: addDays(today, 10),
      // Starting today, as the contracts it was sold with: the pay link's first invoice is this month's.
      flightStart: today,
      flightEnd: monthAhead(3, 28),
      lines: [line(1, 3)],
    });
    const sentContract = await createDealContract(deps, rep, sent.id);
    await transitionContract(deps, rep, sentContract.contractId!, 'send');
    const won = await deal(rep, {
      prospect: prospect(names[2]),
      title: `${b} sponsor spots`,
      amount: 2_400_00,
      expectedCloseDate: today,
      flightStart: today,
      flightEnd: monthAhead(1, 28),
      lines: [line(2)],
    });
    const wonContract = await createDealContract(deps, rep, won.id);
    await transitionContract(deps, rep, wonContract.contractId!, 'send');
    const [io] = await db
      .select({ token: insertionOrders.token })
      .from(insertionOrders)
      .where(eq(insertionOrders.contractId, wonContract.contractId!));
    await acceptInsertionOrder(deps, io.token, { signerName: `${names[2]} owner`, agree: true }, BROWSER);
    for (const [i, reason] of ['Budget', 'Chose a competitor'].entries()) {
      const lost = await deal(rep, {
        customerId: account(6 + i),
        title: i === 0 ? `${a} billboard add-on` : `${b} podcast reads`,
        amount: (2 + i) * 1_250_00,
        expectedCloseDate: addDays(today, -10 - i * 7),
      });
      await loseDeal(db, rep, lost.id, { reason });
    }
    // The stale lead: nothing has happened on it for three weeks (the demo's history, backdated).
    await db
      .update(deals)
      .set({ lastActivityAt: new Date(Date.now() - 21 * DAY_MS), createdAt: new Date(Date.now() - 30 * DAY_MS) })
      .where(eq(deals.id, stale.id));
  }

  // The renewal deals of the contracts the renewals seed brought to their first notice, and Renew's draft linked.
  await runRenewalDeals(db, { today });

  const months = Array.from({ length: 6 }, (_, i) => monthAhead(i).slice(0, 7));
  await saveTargets(db, manager, {
    targets: reps.flatMap((rep, r) =>
      months.map((month) => ({ ownerId: rep.id, month, amount: r === 0 ? 15_000_00 : 12_000_00 })),
    ),
  });
}
