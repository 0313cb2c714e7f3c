import { randomBytes } from 'node:crypto';
import { addDays } from '@shared/billing';
import { addCalendarMonths, computeAutoStopDate } from '@shared/contracts/contract-lifecycle';
import type { ContractStatus, PaymentMode } from '@shared/contracts/contract-vocabulary';
import { amountToCents, lineTotalCents } from '@shared/money';
import { inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { auditEvents, contractLineItems, contracts, packages, products } from '../db/schema';
import { storedFigures } from '../modules/contracts/contracts.figures';
import { lineSnapshot } from '../modules/contracts/contracts.service';
import type { DemoCatalog } from './seed-catalog';
import type { DemoPeople } from './seed-users';

type Rep = 'sales' | 'sales2' | 'manager';
type Line = [product: string, quantity: number, discount?: string, unitPrice?: string];

/**
 * One demo contract. `customer` indexes DemoCatalog.customerIds (0 and 1 are the two client-portal
 * customers); `start` is the start month relative to the current month; `pkg` indexes packageIds;
 * lines are [product key, quantity, discount, negotiated unit price (default: the product's price)].
 * `paid` marks a contract whose payment processing has started (subscription or payment link recorded).
 */
type Plan = {
  customer: number;
  rep: Rep;
  status: ContractStatus;
  mode: PaymentMode;
  start: number;
  day?: number;
  /** Starts this many days before today instead (start and day are then ignored). */
  daysAgo?: number;
  term: number | null;
  pkg?: number;
  lines?: Line[];
  setupFee?: string;
  title?: string;
  description: string;
  paid?: boolean;
  /** Never paid (seed-billing.ts): dunning chases its invoices. */
  unpaid?: boolean;
  /** How under-delivery of its CPM lines is settled (default: a credit note). */
  remedy?: 'makegood';
  cancelReason?: string;
  /**
   * Flights by line index: from `fromMonth` months (and `fromDay` days) after the contract's start, for
   * `months` months (open-ended without). Lines without one run from the start, as long as the contract.
   */
  flights?: Record<number, { fromMonth?: number; fromDay?: number; months?: number }>;
};

const PLANS: Plan[] = [
  // North Pole Toys & Games: what a holiday campaign buys. Pre-roll by the thousand impressions all term, a
  // banner from mid-month for three months (its first and last months prorated), and the CTN movie-night
  // special, a flat fee billed once in the month its flight starts. A timed QR code is added while it runs
  // (seed-amendments.ts).
  {
    customer: 4,
    rep: 'sales',
    status: 'active',
    mode: 'portal',
    start: -1,
    day: 1,
    term: 6,
    lines: [
      ['pre_roll_cpm', 150],
      ['banner', 1],
      ['ctn_special', 1, '250.00'],
    ],
    flights: { 1: { fromDay: 14, months: 3 }, 2: { fromMonth: 2 } },
    title: 'North Pole: winter movie nights',
    description: 'CPM pre-roll all season, a mid-month banner flight and the CTN movie-night special',
    paid: true,
  },
  // Holiday Lights Co. (client@demo.test)
  {
    customer: 0,
    rep: 'sales',
    status: 'active',
    mode: 'portal',
    start: -3,
    day: 1,
    term: 12,
    pkg: 0,
    setupFee: '250.00',
    title: 'Holiday Lights: season launch',
    description: 'Holiday Starter package for the winter light show',
    paid: true,
  },
  {
    customer: 0,
    rep: 'sales',
    status: 'active',
    mode: 'pay_link',
    start: -2,
    day: 15,
    term: 6,
    lines: [
      ['pre_roll', 1],
      ['timed_qr', 2, '50.00'],
    ],
    description: 'Pre-roll with QR codes to the ticket page',
    paid: true,
  },
  {
    customer: 0,
    rep: 'sales',
    status: 'paused',
    mode: 'portal',
    start: -5,
    day: 1,
    term: 12,
    lines: [['banner', 2]],
    description: 'Homepage banners, paused while creatives are redone',
    paid: true,
  },
  {
    customer: 0,
    rep: 'sales',
    status: 'completed',
    mode: 'portal',
    start: -15,
    day: 1,
    term: 12,
    lines: [
      ['retired_banner', 1],
      ['post_roll', 1],
    ],
    description: 'Last year’s skyscraper banner and post-roll tag',
    paid: true,
  },
  {
    customer: 0,
    rep: 'sales',
    status: 'sent',
    mode: 'portal',
    start: 1,
    day: 1,
    term: 3,
    lines: [['ad_on_pause', 1]],
    description: 'Ad on pause for the New Year sale',
  },
  // Frost & Pine Outfitters (client2@demo.test)
  {
    customer: 1,
    rep: 'sales2',
    status: 'active',
    mode: 'portal',
    start: -4,
    day: 10,
    term: 12,
    lines: [
      ['banner', 1],
      ['overlay', 120, '100.00'],
    ],
    setupFee: '150.00',
    title: 'Frost & Pine ski season',
    description: 'Banner plus 120k overlay impressions a month',
    paid: true,
    remedy: 'makegood',
  },
  {
    customer: 1,
    rep: 'sales2',
    status: 'sent',
    mode: 'pay_link',
    start: 1,
    day: 1,
    term: 4,
    lines: [['mid_roll', 1]],
    description: 'Mid-roll spot for the spring gear sale',
  },
  {
    customer: 1,
    rep: 'sales2',
    status: 'canceled',
    mode: 'pay_link',
    start: -6,
    day: 1,
    term: 6,
    lines: [['in_category', 1]],
    description: 'Outdoor adventures category sponsorship',
    cancelReason: 'Customer moved the budget to in-store events',
  },
  {
    customer: 1,
    rep: 'sales2',
    status: 'draft',
    mode: 'portal',
    start: 2,
    day: 1,
    term: 12,
    pkg: 2,
    description: 'Year-round visibility proposal',
  },
  // Other customers
  {
    customer: 2,
    rep: 'sales',
    status: 'active',
    mode: 'pay_link',
    start: -1,
    day: 20,
    term: 2,
    lines: [
      ['pre_roll', 1, '200.00'],
      ['banner', 1],
    ],
    description: 'Choose-and-cut season push',
    paid: true,
  },
  {
    customer: 3,
    rep: 'sales',
    status: 'active',
    mode: 'portal',
    start: -2,
    day: 1,
    term: null,
    lines: [
      ['banner', 1],
      ['timed_qr', 1],
    ],
    description: 'Ongoing banner and QR for holiday pre-orders',
  },
  {
    customer: 4,
    rep: 'sales',
    status: 'active',
    mode: 'portal',
    start: -3,
    day: 5,
    term: 12,
    pkg: 1,
    setupFee: '500.00',
    title: 'North Pole Toys: Seasonal Blockbuster',
    description: 'CTN movie special sponsorship with pre-roll rotation',
    paid: true,
  },
  {
    customer: 5,
    rep: 'sales2',
    status: 'active',
    mode: 'pay_link',
    start: -1,
    day: 1,
    term: 3,
    lines: [
      ['mid_roll', 2, '150.00'],
      ['ad_on_pause', 1],
    ],
    description: 'Year-end sales event',
    paid: true,
  },
  {
    customer: 6,
    rep: 'sales2',
    status: 'active',
    mode: 'portal',
    start: -7,
    day: 1,
    term: 24,
    pkg: 2,
    description: 'Two-year visibility plan',
    paid: true,
  },
  {
    customer: 7,
    rep: 'sales',
    status: 'active',
    mode: 'portal',
    start: -2,
    day: 12,
    term: 6,
    lines: [['in_category', 1, '80.00']],
    description: 'Comfort food category sponsorship',
  },
  {
    customer: 8,
    rep: 'sales2',
    status: 'active',
    mode: 'pay_link',
    start: -1,
    day: 3,
    term: 12,
    lines: [
      ['banner', 1, '0.00', '420.00'],
      ['post_roll', 1],
    ],
    description: 'Date-night banner at a negotiated rate',
    paid: true,
  },
  {
    customer: 9,
    rep: 'manager',
    status: 'active',
    mode: 'portal',
    start: -2,
    day: 1,
    term: 3,
    lines: [['ctn_special', 1, '250.00']],
    setupFee: '300.00',
    description: 'Harvest festival movie night special',
    paid: true,
  },
  {
    customer: 10,
    rep: 'sales',
    status: 'active',
    mode: 'pay_link',
    start: -1,
    day: 25,
    term: 2,
    lines: [
      ['overlay', 250],
      ['pre_roll', 1],
    ],
    description: 'Haunted attraction overlay blitz',
    paid: true,
  },
  {
    customer: 11,
    rep: 'sales2',
    status: 'active',
    mode: 'portal',
    start: 0,
    day: 1,
    term: 12,
    lines: [
      ['banner', 1],
      ['ad_on_pause', 1, '70.00'],
    ],
    description: 'Home décor holiday collection',
  },
  {
    customer: 12,
    rep: 'manager',
    status: 'active',
    mode: 'pay_link',
    start: -4,
    day: 1,
    term: null,
    pkg: 0,
    description: 'Gift shop holiday starter, month to month',
    paid: true,
  },
  {
    customer: 13,
    rep: 'sales',
    status: 'active',
    mode: 'portal',
    start: -6,
    day: 15,
    term: 12,
    lines: [
      ['in_category', 1],
      ['timed_qr', 1],
    ],
    description: 'Spring planting category sponsorship',
    paid: true,
  },
  // Sent, waiting for the customer
  {
    customer: 14,
    rep: 'sales',
    status: 'sent',
    mode: 'pay_link',
    start: 0,
    day: 15,
    term: 6,
    lines: [
      ['pre_roll', 1],
      ['banner', 1],
    ],
    setupFee: '100.00',
    description: 'Thanksgiving grocery campaign',
  },
  {
    customer: 15,
    rep: 'sales2',
    status: 'sent',
    mode: 'pay_link',
    start: 1,
    day: 1,
    term: 12,
    pkg: 2,
    description: 'Cabin season visibility',
  },
  {
    customer: 16,
    rep: 'sales',
    status: 'sent',
    mode: 'pay_link',
    start: 0,
    day: 20,
    term: 3,
    lines: [
      ['timed_qr', 2],
      ['post_roll', 1, '25.00'],
    ],
    description: 'Peppermint latte launch',
  },
  // Drafts
  {
    customer: 17,
    rep: 'sales2',
    status: 'draft',
    mode: 'portal',
    start: 1,
    day: 1,
    term: 12,
    pkg: 1,
    setupFee: '500.00',
    description: 'Dealer holiday blockbuster proposal',
  },
  {
    customer: 18,
    rep: 'sales',
    status: 'draft',
    mode: 'pay_link',
    start: 1,
    day: 15,
    term: 2,
    lines: [
      ['ctn_special', 1],
      ['mid_roll', 1],
    ],
    description: 'Premiere week sponsorship',
  },
  {
    customer: 19,
    rep: 'sales',
    status: 'draft',
    mode: 'portal',
    start: 2,
    day: 1,
    term: null,
    lines: [['banner', 1]],
    description: 'Spa gift-card banner',
  },
  {
    customer: 3,
    rep: 'sales2',
    status: 'draft',
    mode: 'pay_link',
    start: 1,
    day: 1,
    term: 1,
    lines: [['overlay', 80]],
    description: 'Valentine’s overlay test',
  },
  {
    customer: 5,
    rep: 'manager',
    status: 'draft',
    mode: 'portal',
    start: 2,
    day: 10,
    term: 6,
    pkg: 2,
    lines: [['timed_qr', 1]],
    description: 'Spring truck month with QR test drive booking',
  },
  // Unpaid, one at each dunning stage today (product.md section 14): their customers never pay, and the
  // billing run and dunning replayed by seed-billing.ts take them there. Due 1 day ago (not reminded yet),
  // 6 days ago (the first reminder, at due + 3), 13 days ago (the second, at due + 10) and 28 days ago
  // (paused for non-payment at due + 21; its next period waits for the resume).
  {
    customer: 14,
    rep: 'sales',
    status: 'active',
    mode: 'portal',
    start: 0,
    daysAgo: 8,
    term: 3,
    lines: [['banner', 1]],
    description: 'Weekly specials banner, first invoice just overdue',
    unpaid: true,
  },
  {
    customer: 15,
    rep: 'sales2',
    status: 'active',
    mode: 'pay_link',
    start: 0,
    daysAgo: 13,
    term: 3,
    lines: [['mid_roll', 1]],
    description: 'Winter furniture sale mid-roll, reminded once',
    unpaid: true,
  },
  {
    customer: 17,
    rep: 'sales',
    status: 'active',
    mode: 'portal',
    start: 0,
    daysAgo: 20,
    term: 6,
    lines: [['banner', 1]],
    description: 'Dealer service banner, reminded twice',
    unpaid: true,
  },
  {
    customer: 19,
    rep: 'manager',
    status: 'active',
    mode: 'portal',
    start: 0,
    daysAgo: 35,
    term: 6,
    lines: [['overlay', 40]],
    description: 'Gift-card season overlay, paused for non-payment',
    unpaid: true,
  },
  // Paused
  {
    customer: 7,
    rep: 'sales2',
    status: 'paused',
    mode: 'pay_link',
    start: -4,
    day: 1,
    term: 12,
    lines: [['ad_on_pause', 1]],
    description: 'Breakfast menu pause ad; payment failed',
    paid: true,
  },
  {
    customer: 11,
    rep: 'sales',
    status: 'paused',
    mode: 'portal',
    start: -3,
    day: 8,
    term: null,
    lines: [['mid_roll', 1, '50.00']],
    description: 'Mid-roll, paused at the customer’s request',
    paid: true,
  },
  {
    customer: 16,
    rep: 'manager',
    status: 'paused',
    mode: 'portal',
    start: -5,
    day: 1,
    term: 12,
    pkg: 0,
    description: 'Coffee shop starter, paused for renovation',
  },
  // Canceled
  {
    customer: 2,
    rep: 'sales',
    status: 'canceled',
    mode: 'portal',
    start: -8,
    day: 1,
    term: 12,
    lines: [['in_category', 1]],
    description: 'Garden category sponsorship',
    cancelReason: 'Business sold to a new owner',
    paid: true,
  },
  {
    customer: 6,
    rep: 'sales2',
    status: 'canceled',
    mode: 'pay_link',
    start: 0,
    day: 1,
    term: 3,
    lines: [['pre_roll', 1]],
    description: 'Service department pre-roll',
    cancelReason: 'Never paid; replaced by the visibility plan',
  },
  {
    customer: 9,
    rep: 'sales',
    status: 'canceled',
    mode: 'portal',
    start: -3,
    day: 1,
    term: 6,
    pkg: 0,
    description: 'Duplicate of the harvest special',
    cancelReason: 'Created twice by mistake',
  },
  {
    customer: 14,
    rep: 'manager',
    status: 'canceled',
    mode: 'pay_link',
    start: -2,
    day: 1,
    term: 2,
    lines: [['banner', 1]],
    description: 'Weekly circular banner',
    cancelReason: 'Customer chose print circulars instead',
  },
  // Completed
  {
    customer: 4,
    rep: 'sales',
    status: 'completed',
    mode: 'pay_link',
    start: -14,
    day: 1,
    term: 12,
    lines: [
      ['pre_roll', 1],
      ['ctn_special', 1, '500.00'],
    ],
    description: 'Last season’s toy drive special',
    paid: true,
  },
  {
    customer: 8,
    rep: 'sales2',
    status: 'completed',
    mode: 'portal',
    start: -16,
    day: 1,
    term: 12,
    lines: [['banner', 1]],
    description: 'Restaurant week banner year',
    paid: true,
  },
  {
    customer: 12,
    rep: 'manager',
    status: 'completed',
    mode: 'portal',
    start: -13,
    day: 1,
    term: 6,
    pkg: 0,
    description: 'First holiday starter run',
    paid: true,
  },
  {
    customer: 13,
    rep: 'sales',
    status: 'completed',
    mode: 'pay_link',
    start: -10,
    day: 1,
    term: 3,
    lines: [['timed_qr', 1]],
    description: 'Spring QR pilot',
    paid: true,
  },
];

const REP_EMAILS: Record<Rep, string> = {
  sales: 'sales@demo.test',
  sales2: 'sales2@demo.test',
  manager: 'manager@demo.test',
};

const DAY = 24 * 60 * 60 * 1000;

/** The contracts whose customers never pay (seed-billing.ts), by description. */
export const UNPAID_DESCRIPTIONS: ReadonlySet<string> = new Set(
  PLANS.filter((plan) => plan.unpaid).map((plan) => plan.description),
);

/**
 * About forty contracts across every status and both payment modes, with packages and line items, owned
 * by the two sales reps and the manager; several for each client-portal customer. Figures come from
 * shared/contract-totals like the API's. The same plans on every start; dates follow the current month
 * so the demo always looks current.
 */
export async function seedContracts(db: Db, data: DemoCatalog & DemoPeople): Promise<void> {
  const productRows = await db
    .select()
    .from(products)
    .where(inArray(products.id, Object.values(data.productIds)));
  const productsById = new Map(productRows.map((p) => [p.id, p]));
  const packageRows = await db.select().from(packages).where(inArray(packages.id, data.packageIds));
  const packagePrice = new Map(packageRows.map((p) => [p.id, p.priceCents]));

  const now = new Date();
  const thisMonth = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}-01`;

  await db.transaction(async (tx) => {
    for (const [index, plan] of PLANS.entries()) {
      const salesRepId = data.userIds[REP_EMAILS[plan.rep]];
      const packageId = plan.pkg === undefined ? null : data.packageIds[plan.pkg];
      const lines = (plan.lines ?? []).map(([key, quantity, discount, unitPrice]) => {
        const product = productsById.get(data.productIds[key])!;
        return {
          product,
          quantity,
          unitPriceCents: unitPrice ? amountToCents(unitPrice) : product.defaultPriceCents,
          discountCents: discount ? amountToCents(discount) : 0,
        };
      });
      const startDate =
        plan.daysAgo !== undefined
          ? addDays(now.toISOString().slice(0, 10), -plan.daysAgo)
          : `${addCalendarMonths(thisMonth, plan.start).slice(0, 8)}${String(plan.day ?? 1).padStart(2, '0')}`;
      // Each line keeps what it was sold with, as the contract API stores it.
      const termEnd = computeAutoStopDate(startDate, plan.term);
      const snapshots = lines.map((line, i) => {
        const flight = plan.flights?.[i];
        const flightStart = flight
          ? addDays(addCalendarMonths(startDate, flight.fromMonth ?? 0), flight.fromDay ?? 0)
          : null;
        const flightEnd =
          flight?.months && flightStart ? addDays(addCalendarMonths(flightStart, flight.months), -1) : null;
        return lineSnapshot(
          {
            productId: line.product.id,
            quantity: line.quantity,
            unitPrice: line.unitPriceCents,
            discount: line.discountCents,
            flightStart,
            flightEnd,
          },
          line.product,
          { startDate, termEnd },
        );
      });
      const figures = storedFigures(
        {
          startDate,
          autoStopDate: termEnd,
          status: plan.status,
          packageId,
          packagePriceCents: packageId ? packagePrice.get(packageId)! : 0,
          setupFeeCents: plan.setupFee ? amountToCents(plan.setupFee) : 0,
        },
        lines.map((l, i) => ({ description: l.product.name, productId: l.product.id, ...l, ...snapshots[i] })),
        { today: now.toISOString().slice(0, 10), count: 'every line' },
      );

      const start = new Date(`${startDate}T09:00:00Z`);
      // Written ten days before the start, or in the last weeks for contracts starting later.
      const createdAt = new Date(
        Math.min(start.getTime() - 10 * DAY, now.getTime() - (PLANS.length - index + 5) * DAY),
      );
      const sentAt = plan.status === 'draft' ? null : new Date(createdAt.getTime() + DAY);
      const activatedAt =
        ['active', 'paused', 'completed'].includes(plan.status) || (plan.status === 'canceled' && plan.paid)
          ? new Date(Math.min(start.getTime(), now.getTime()))
          : null;
      const canceledAt =
        plan.status === 'canceled'
          ? new Date(
              Math.max(
                (activatedAt ?? sentAt ?? createdAt).getTime() + DAY,
                Math.min(start.getTime() + 40 * DAY, now.getTime() - DAY),
              ),
            )
          : null;
      const completedAt =
        plan.status === 'completed' ? new Date(`${computeAutoStopDate(startDate, plan.term)}T09:00:00Z`) : null;
      const hasPayLink = plan.mode === 'pay_link' && plan.status !== 'draft';
      const seq = String(index + 1).padStart(3, '0');

      const [row] = await tx
        .insert(contracts)
        .values({
          customerId: data.customerIds[plan.customer],
          salesRepId,
          title: plan.title ?? null,
          description: plan.description,
          status: plan.status,
          startDate,
          termMonths: plan.term,
          autoStopDate: computeAutoStopDate(startDate, plan.term),
          paymentMode: plan.mode,
          underDeliveryRemedy: plan.remedy ?? 'credit',
          payLinkToken: hasPayLink ? randomBytes(24).toString('base64url') : null,
          packageId,
          ...figures,
          // The built-in provider's ids: a sent pay link means its payment link exists; a paid portal
          // contract has a subscription and a provider customer.
          stripePaymentLinkId: hasPayLink ? `plink_demo_${seq}` : null,
          stripeSubscriptionId: plan.paid && plan.mode === 'portal' ? `sub_demo_${seq}` : null,
          stripeCustomerId: plan.paid ? `cus_demo_${String(plan.customer + 1).padStart(3, '0')}` : null,
          cancelReason: plan.cancelReason ?? null,
          sentAt,
          activatedAt,
          canceledAt,
          createdBy: salesRepId,
          createdAt,
          updatedAt: completedAt ?? canceledAt ?? activatedAt ?? sentAt ?? createdAt,
        })
        .returning({ id: contracts.id });

      if (lines.length) {
        await tx.insert(contractLineItems).values(
          lines.map((line, position) => ({
            contractId: row.id,
            productId: line.product.id,
            quantity: line.quantity,
            unitPriceCents: line.unitPriceCents,
            discountCents: line.discountCents,
            lineTotalCents: lineTotalCents(line),
            ...snapshots[position],
            position,
          })),
        );
      }

      const events: { action: string; at: Date; after: unknown }[] = [
        { action: 'contract.created', at: createdAt, after: { status: 'draft', totalCents: figures.totalCents } },
      ];
      if (sentAt) events.push({ action: 'contract.sent', at: sentAt, after: { status: 'sent' } });
      if (activatedAt) events.push({ action: 'contract.activated', at: activatedAt, after: { status: 'active' } });
      if (plan.status === 'paused') {
        events.push({ action: 'contract.paused', at: new Date(now.getTime() - 2 * DAY), after: { status: 'paused' } });
      }
      if (completedAt) events.push({ action: 'contract.completed', at: completedAt, after: { status: 'completed' } });
      if (canceledAt) {
        events.push({
          action: 'contract.canceled',
          at: canceledAt,
          after: { status: 'canceled', cancelReason: plan.cancelReason },
        });
      }
      await tx.insert(auditEvents).values(
        events.map((event) => ({
          actorId: salesRepId,
          action: event.action,
          entity: 'contract',
          entityId: row.id,
          after: event.after,
          createdAt: event.at,
        })),
      );
    }
  });
}
