import { addDays } from '@shared/billing';
import { setupCardSchema } from '@shared/contracts/autopay';
import { TEST_CARDS } from '@shared/contracts/checkout';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { autopayAttempts, contracts, customers } from '../db/schema';
import type { Mailer } from '../lib/mailer';
import { runAutopayCharges } from '../modules/autopay/autopay-charges.service';
import { sendExpiryNotices } from '../modules/autopay/expiry-notices.service';
import { completeSetup } from '../modules/autopay/payment-methods.service';
import { createSetupLink } from '../modules/autopay/setup-links';

/**
 * The demo's autopay (product.md section 18), made by the product's own paths as the billing seed steps through
 * the days: each card is saved with consent on the set-up page (a link, the card, "I agree"), and the charge run
 * pays the invoices of autopay customers on their due dates.
 *
 * - Lakeside Honda saved a Mastercard when its two-year plan started: every monthly invoice since was charged on
 *   its due date. The card expires at the end of this month: the expiry notice is in the outbox.
 * - Maple Street Diner saved a Visa when its sponsorship started: charged every month.
 * - Bella Notte Trattoria saved a card whose bank declined the first charge (insufficient funds, a soft
 *   decline): the next day they saved another Visa on the set-up page of the e-mail, which retried the invoice
 *   at once: attempt 1 failed, attempt 2 succeeded.
 * - Sugarplum Bakery saved a card five weeks ago that turned out expired (a hard decline): its latest invoice
 *   failed, the card is marked expired, and the e-mail with a link to add a new card waits for them.
 */

type DemoSave = {
  customer: string;
  /** The contract whose start the card is saved on, or days before today. */
  on: { contractStart: string } | { daysAgo: number };
  cardNumber: string;
  /** Months after the save the card expires, or 'this month' (today's month). */
  expires: number | 'this month';
  ip: string;
  userAgent: string;
};

const SAFARI =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15';
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

const SAVES: DemoSave[] = [
  {
    customer: 'Lakeside Honda',
    on: { contractStart: 'Two-year visibility plan' },
    cardNumber: TEST_CARDS.mastercard,
    expires: 'this month',
    ip: '203.0.113.24',
    userAgent: CHROME,
  },
  {
    customer: 'Maple Street Diner',
    on: { contractStart: 'Comfort food category sponsorship' },
    cardNumber: TEST_CARDS.visa,
    expires: 30,
    ip: '198.51.100.73',
    userAgent: IPHONE,
  },
  {
    customer: 'Bella Notte Trattoria',
    on: { contractStart: 'Date-night banner at a negotiated rate' },
    cardNumber: TEST_CARDS.insufficientFunds,
    expires: 26,
    ip: '192.0.2.145',
    userAgent: SAFARI,
  },
  {
    customer: 'Sugarplum Bakery',
    on: { daysAgo: 35 },
    cardNumber: TEST_CARDS.expired,
    expires: 14,
    ip: '203.0.113.201',
    userAgent: CHROME,
  },
];

/** The customer whose first charge is declined saves this card the next day. */
const RECOVERY = { customer: 'Bella Notte Trattoria', cardNumber: TEST_CARDS.visa, expires: 36 } as const;

/** The time of day the charge run records its attempts on a demo day (its first hourly run). */
const CHARGE_TIME = 'T07:05:00Z';

export type DemoAutopay = {
  /** Whether autopay pays this customer's invoices (its card is saved): the seed's own payments leave them. */
  pays(customerId: string): boolean;
  /** Before the day's billing run: the cards saved that day. */
  saveCards(day: string): Promise<void>;
  /** After it: the charge run of the day, the retry after a decline, the expiry notices. */
  charge(day: string): Promise<void>;
};

export async function prepareDemoAutopay(
  db: Db,
  options: { mailer: Mailer; baseUrl: string; businessName: string; today: string },
): Promise<DemoAutopay> {
  const deps = { db, mailer: options.mailer, baseUrl: options.baseUrl, businessName: options.businessName };
  const names = [...SAVES.map((s) => s.customer)];
  const rows = await db
    .select({ id: customers.id, name: customers.name, contactPerson: customers.contactPerson })
    .from(customers)
    .where(inArray(customers.name, names));
  const byName = new Map(rows.map((row) => [row.name, row]));
  const starts = await db
    .select({ description: contracts.description, startDate: contracts.startDate })
    .from(contracts)
    .where(
      inArray(
        contracts.description,
        SAVES.flatMap((s) => ('contractStart' in s.on ? [s.on.contractStart] : [])),
      ),
    );
  const startOf = new Map(starts.map((c) => [c.description ?? '', c.startDate]));

  const planned = SAVES.flatMap((save) => {
    const customer = byName.get(save.customer);
    const on =
      'contractStart' in save.on ? startOf.get(save.on.contractStart) : addDays(options.today, -save.on.daysAgo);
    return customer && on && on <= options.today ? [{ ...save, customer, on }] : [];
  });
  const saved = new Set<string>();
  const recovery = byName.get(RECOVERY.customer);
  let recoverOn: string | null = null;
  let recovered = false;

  async function save(
    customer: { id: string; name: string; contactPerson: string | null },
    card: { cardNumber: string; expiry: string; ip: string; userAgent: string },
    day: string,
    time: string,
  ) {
    // The set-up page's own path: a link for the customer, the card with consent.
    const link = await createSetupLink(db, {
      baseUrl: options.baseUrl,
      customerId: customer.id,
      purpose: 'email',
      createdBy: null,
    });
    const token = link.url.slice(link.url.lastIndexOf('/') + 1);
    const fields = setupCardSchema.parse({
      cardNumber: card.cardNumber,
      expiry: card.expiry,
      cvc: '123',
      name: customer.contactPerson ?? customer.name,
      consent: true,
      makeDefault: true,
    });
    await completeSetup(
      deps,
      token,
      fields,
      { ip: card.ip, userAgent: card.userAgent },
      {
        today: day,
        at: new Date(`${day}${time}`),
      },
    );
    saved.add(customer.id);
  }

  return {
    pays: (customerId) => saved.has(customerId),
    async saveCards(day) {
      for (const plan of planned.filter((p) => p.on === day)) {
        await save(
          plan.customer,
          {
            cardNumber: plan.cardNumber,
            expiry: expiryOf(
              plan.expires === 'this month' ? options.today : day,
              plan.expires === 'this month' ? 0 : plan.expires,
            ),
            ip: plan.ip,
            userAgent: plan.userAgent,
          },
          day,
          'T19:42:00Z',
        );
      }
      if (recovery && recoverOn === day) {
        recoverOn = null;
        const first = planned.find((p) => p.customer.id === recovery.id);
        // A new card on the set-up page of the decline e-mail: the failed invoice is retried at once.
        await save(
          recovery,
          {
            cardNumber: RECOVERY.cardNumber,
            expiry: expiryOf(day, RECOVERY.expires),
            ip: first?.ip ?? '192.0.2.145',
            userAgent: first?.userAgent ?? SAFARI,
          },
          day,
          'T12:16:00Z',
        );
      }
    },
    async charge(day) {
      // Nothing to charge before the first card is saved.
      if (saved.size === 0) return;
      await runAutopayCharges(deps, { today: day, at: new Date(`${day}${CHARGE_TIME}`) });
      if (recovery && saved.has(recovery.id) && !recovered && recoverOn === null && addDays(day, 1) <= options.today) {
        const [declined] = await db
          .select({ id: autopayAttempts.id })
          .from(autopayAttempts)
          .where(and(eq(autopayAttempts.customerId, recovery.id), eq(autopayAttempts.status, 'failed')))
          .limit(1);
        const [succeeded] = await db
          .select({ id: autopayAttempts.id })
          .from(autopayAttempts)
          .where(and(eq(autopayAttempts.customerId, recovery.id), eq(autopayAttempts.status, 'succeeded')))
          .limit(1);
        if (succeeded) recovered = true;
        else if (declined) recoverOn = addDays(day, 1);
      }
      // The hourly job's notices of cards expiring within 30 days (only the last weeks reach one).
      if (day >= addDays(options.today, -7)) await sendExpiryNotices(deps, { today: day });
    },
  };
}

/** "MM / YY" of the month `months` after `day`'s. */
function expiryOf(day: string, months: number): string {
  const [year, month] = day.split('-').map(Number) as [number, number];
  const index = year * 12 + (month - 1) + months;
  return `${String((index % 12) + 1).padStart(2, '0')} / ${String(Math.floor(index / 12) % 100).padStart(2, '0')}`;
}
