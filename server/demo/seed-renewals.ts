import { addDays } from '@shared/billing';
import { contractBodySchema } from '@shared/contracts/contract-api';
import { addCalendarMonths } from '@shared/contracts/contract-lifecycle';
import { amountDueCents } from '@shared/invoice-amounts';
import { centsToPlain } from '@shared/money';
import { and, asc, eq, inArray, notInArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { customers, invoices, products, users } from '../db/schema';
import { businessToday } from '../lib/business-day';
import { createMailer } from '../lib/mailer';
import type { Storage } from '../lib/storage';
import { renewContract, sendRenewalNotices } from '../modules/contracts/contract-renewals.service';
import { createContract } from '../modules/contracts/contracts.service';
import { applyPayment } from '../modules/payments/payments.service';

/**
 * Renewals (product.md section 15), made the way staff make them: the first sales rep's running three-month
 * contracts ending 55, 25 and 5 days from today (so at the 60-, 30- and 7-day steps), their notices sent by the
 * renewal-notices job's own function, and one more ending in 40 days already renewed into a draft; their invoices
 * are paid by wire. Not the client-portal customers'. Dates are
 * relative to the business day the demo is seeded on.
 */
export async function seedRenewals(
  db: Db,
  options: { storage: Storage; today?: string; baseUrl?: string },
): Promise<void> {
  const today = options.today ?? businessToday();
  const baseUrl = options.baseUrl ?? 'http://localhost:3000';
  const deps = {
    db,
    mailer: createMailer({ SMTP_URL: undefined, MAIL_FROM: 'AdCRM <billing@adcrm.local>' }),
    baseUrl,
    storage: options.storage,
  };
  const [rep] = await db.select().from(users).where(eq(users.email, 'sales@demo.test'));
  // Not the client-portal customers: their screens show what the other seeds made for them.
  const portalCustomers = (
    await db.select({ id: users.customerId }).from(users).where(eq(users.role, 'client'))
  ).flatMap((u) => (u.id ? [u.id] : []));
  const lineProducts = await db
    .select()
    .from(products)
    .where(
      and(
        inArray(products.adType, ['pre_roll', 'banner', 'timed_qr']),
        eq(products.priceMetric, 'monthly'),
        eq(products.inventoryRequired, false),
        eq(products.isActive, true),
      ),
    )
    .orderBy(asc(products.name));
  // Customers past the two client-portal ones, by name: steady accounts whose campaigns come up for renewal.
  const accounts = await db
    .select()
    .from(customers)
    .where(portalCustomers.length ? notInArray(customers.id, portalCustomers) : undefined)
    .orderBy(asc(customers.name))
    .limit(8);
  if (!rep || lineProducts.length < 2 || accounts.length < 4) return;

  const plans = [
    { endsIn: 55, title: 'Spring drive-time renewal', customer: accounts[accounts.length - 1] },
    { endsIn: 25, title: 'Weekend banners', customer: accounts[accounts.length - 2] },
    { endsIn: 5, title: 'Store opening pre-roll', customer: accounts[accounts.length - 3] },
    { endsIn: 40, title: 'Community events season', customer: accounts[accounts.length - 4] },
  ];
  const made: string[] = [];
  for (const [index, plan] of plans.entries()) {
    const first = lineProducts[index % lineProducts.length];
    const second = lineProducts[(index + 1) % lineProducts.length];
    const body = contractBodySchema.parse({
      customerId: plan.customer.id,
      title: plan.title,
      description: `${plan.title}: three months of ${first.name.toLowerCase()} and ${second.name.toLowerCase()}`,
      startDate: addCalendarMonths(addDays(today, plan.endsIn), -3),
      termMonths: 3,
      setupFee: 0,
      paymentMode: 'portal',
      packageId: null,
      makeActive: true,
      lineItems: [
        { productId: first.id, quantity: 1, unitPrice: centsToPlain(first.defaultPriceCents), discount: 0 },
        { productId: second.id, quantity: 2, unitPrice: centsToPlain(second.defaultPriceCents), discount: '25.00' },
      ],
    });
    made.push((await createContract(deps, rep, body)).id);
  }
  // Steady accounts: each invoice the activation issued is paid by wire on its due date (today at the latest).
  const issued = await db
    .select()
    .from(invoices)
    .where(inArray(invoices.contractId, made))
    .orderBy(asc(invoices.number));
  for (const invoice of issued) {
    const due = amountDueCents(invoice);
    if (due <= 0) continue;
    const [paidOn] = [invoice.dueDate, today].sort();
    await db.transaction((tx) =>
      applyPayment(tx, {
        invoiceId: invoice.id,
        amountCents: due,
        method: 'wire',
        provider: 'manual',
        reference: `Wire ${invoice.number.slice(4)}`,
        paidAt: new Date(`${paidOn}T10:00:00Z`),
      }),
    );
  }
  await renewContract(deps, rep, made[3]);
  await sendRenewalNotices(db, { baseUrl, today });
}
