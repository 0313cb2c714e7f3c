import { type ContractBody, contractBodySchema } from '@shared/contracts/contract-api';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { customers, products, users } from '../db/schema';
import { businessToday } from '../lib/business-day';
import { createMailer } from '../lib/mailer';
import type { Storage } from '../lib/storage';
import { createContract } from '../modules/contracts/contracts.service';

/**
 * The holiday season's inventory, sold the way staff sell it (product.md section 13): contracts created
 * through the contract service, which holds (sent) or books (active) their units and refuses what does
 * not fit. In December of the current year:
 * - the Homepage Takeover (1 a day) is booked for Christmas week by North Pole Toys & Games and held the
 *   week before by Sparkle Home Décor; a draft for Christmas week saved anyway shows the conflict;
 * - the Holiday Pre-roll (3 a day) is booked December 1-14 by North Pole (a second contract) and Holiday
 *   Lights Co. and held December 8-21 by Candlewick Gift Shop: December 8-14 are sold out.
 */
export async function seedInventory(
  db: Db,
  options: { storage: Storage; baseUrl?: string; today?: string },
): Promise<void> {
  const year = (options.today ?? businessToday()).slice(0, 4);
  const dec = (day: number) => `${year}-12-${String(day).padStart(2, '0')}`;
  const deps = {
    db,
    mailer: createMailer({ SMTP_URL: undefined, MAIL_FROM: 'AdCRM <billing@adcrm.local>' }),
    baseUrl: options.baseUrl ?? 'http://localhost:3000',
    storage: options.storage,
  };
  const productId = async (name: string) =>
    (await db.select({ id: products.id }).from(products).where(eq(products.name, name)))[0].id;
  const customerId = async (name: string) =>
    (await db.select({ id: customers.id }).from(customers).where(eq(customers.name, name)))[0].id;
  const user = async (email: string) => (await db.select().from(users).where(eq(users.email, email)))[0];
  const [takeover, preRoll] = [await productId('Homepage Takeover'), await productId('Holiday Pre-roll')];
  const [rep, rep2] = [await user('sales@demo.test'), await user('sales2@demo.test')];

  const sell = async (
    seller: typeof rep,
    customer: string,
    title: string,
    lines: { productId: string; from: number; to: number; unitPrice: number }[],
    status: 'draft' | 'sent' | 'active',
  ) => {
    const body: ContractBody = contractBodySchema.parse({
      customerId: await customerId(customer),
      title,
      description: `${title} (holiday inventory)`,
      startDate: dec(1),
      termMonths: 1,
      paymentMode: 'portal',
      setupFee: 0,
      sendToCustomer: status === 'sent',
      makeActive: status === 'active',
      lineItems: lines.map((line) => ({
        productId: line.productId,
        quantity: 1,
        unitPrice: line.unitPrice,
        discount: 0,
        flightStart: dec(line.from),
        flightEnd: dec(line.to),
      })),
    });
    await createContract(deps, seller, body);
  };

  // [seller, customer, title, status, lines: [product, first day, last day of December, unit price]]
  type Sale = [typeof rep, string, string, 'draft' | 'sent' | 'active', [string, number, number, number][]];
  const sales: Sale[] = [
    [rep, 'North Pole Toys & Games', 'North Pole: Christmas week takeover', 'active', [[takeover, 20, 26, 9500]]],
    [rep, 'Holiday Lights Co.', 'Holiday Lights: December pre-roll', 'active', [[preRoll, 1, 14, 1800]]],
    [rep, 'North Pole Toys & Games', 'North Pole: December pre-roll', 'active', [[preRoll, 1, 14, 1800]]],
    [rep2, 'Candlewick Gift Shop', 'Candlewick: last shopping weeks', 'sent', [[preRoll, 8, 21, 1750]]],
    [rep2, 'Sparkle Home Décor', 'Sparkle: takeover before Christmas', 'sent', [[takeover, 13, 19, 9000]]],
    // Christmas week is taken: the draft saves, and its form shows the conflict until the dates change.
    [rep2, 'Golden Harvest Grocers', 'Golden Harvest: Christmas week, waiting', 'draft', [[takeover, 20, 26, 9500]]],
  ];
  for (const [seller, customer, title, status, lines] of sales) {
    const flights = lines.map(([productId, from, to, unitPrice]) => ({ productId, from, to, unitPrice }));
    await sell(seller, customer, title, flights, status);
  }
}
