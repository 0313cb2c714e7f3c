import { addDays } from '@shared/billing';
import { addContractLineSchema, type ContractBody, contractBodySchema } from '@shared/contracts/contract-api';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { customers, insertionOrders, products, users } from '../db/schema';
import { businessToday } from '../lib/business-day';
import { createMailer } from '../lib/mailer';
import type { Storage } from '../lib/storage';
import { addContractLine } from '../modules/contracts/contract-amendments.service';
import { createContract, transitionContract } from '../modules/contracts/contracts.service';
import {
  acceptInsertionOrder,
  declineInsertionOrder,
  type IoDeps,
} from '../modules/insertion-orders/insertion-orders.service';

/**
 * Insertion orders as customers answer them (product.md section 15), made through the product's own services:
 * contracts sent by the rep (each send renders and stores its IO), then
 * - Frost & Pine Outfitters signs theirs (accepted by its contact's name, from a browser);
 * - Sugarplum Bakery has not answered yet (version 1 awaiting signature);
 * - Maple Street Diner declines, with its reason;
 * - Jingle Java Coffee's contract is amended after the first send (version 1 superseded) and sent again:
 *   version 2 awaits signature.
 * All pay by link; none is paid yet, so the pay pages show the IO step first.
 */
export async function seedInsertionOrders(
  db: Db,
  options: { storage: Storage; baseUrl?: string; today?: string },
): Promise<void> {
  const today = options.today ?? businessToday();
  const deps: IoDeps = {
    db,
    mailer: createMailer({ SMTP_URL: undefined, MAIL_FROM: 'AdCRM <billing@adcrm.local>' }),
    storage: options.storage,
    baseUrl: options.baseUrl ?? 'http://localhost:3000',
  };
  const [rep] = await db.select().from(users).where(eq(users.email, 'sales@demo.test'));
  const customer = async (name: string) => (await db.select().from(customers).where(eq(customers.name, name)))[0];
  const product = async (name: string) => (await db.select().from(products).where(eq(products.name, name)))[0];
  const [banner, preRoll, overlay] = [
    await product('Homepage Banner (728x90)'),
    await product('Holiday Pre-roll Video (15s)'),
    await product('Lower-third Overlay'),
  ];
  // Next month's first day: not billed yet, so the figures are the ones the customer agrees to.
  const start = `${addDays(`${today.slice(0, 7)}-01`, 40).slice(0, 7)}-01`;
  const browser = {
    ip: '203.0.113.24',
    userAgent:
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  };

  type Line = { productId: string; quantity: number; unitPrice: number; discount: number };
  const send = async (customerName: string, title: string, lines: Line[]) => {
    const body: ContractBody = contractBodySchema.parse({
      customerId: (await customer(customerName)).id,
      title,
      startDate: start,
      termMonths: 6,
      paymentMode: 'pay_link',
      setupFee: 150,
      sendToCustomer: true,
      makeActive: false,
      lineItems: lines,
    });
    return createContract(deps, rep, body);
  };
  const tokenOf = async (contractId: string, version: number) =>
    (
      await db
        .select({ token: insertionOrders.token })
        .from(insertionOrders)
        .where(and(eq(insertionOrders.contractId, contractId), eq(insertionOrders.version, version)))
    )[0].token;

  const signed = await send('Frost & Pine Outfitters', 'Winter gear spotlight', [
    { productId: banner.id, quantity: 1, unitPrice: 450, discount: 0 },
    { productId: preRoll.id, quantity: 2, unitPrice: 300, discount: 50 },
  ]);
  const frost = await customer('Frost & Pine Outfitters');
  await acceptInsertionOrder(
    deps,
    await tokenOf(signed.id, 1),
    { signerName: frost.contactPerson ?? frost.name, agree: true },
    browser,
  );

  await send('Sugarplum Bakery', 'Holiday cookie countdown', [
    { productId: overlay.id, quantity: 3, unitPrice: 120, discount: 0 },
  ]);

  const declined = await send('Maple Street Diner', 'Breakfast special pre-roll', [
    { productId: preRoll.id, quantity: 1, unitPrice: 300, discount: 0 },
  ]);
  await declineInsertionOrder(
    deps,
    await tokenOf(declined.id, 1),
    { reason: 'We are moving this budget to the spring menu launch; please send a March start instead.' },
    browser,
  );

  const revised = await send('Jingle Java Coffee', 'Peppermint latte launch', [
    { productId: banner.id, quantity: 1, unitPrice: 450, discount: 25 },
  ]);
  // The customer asked for an overlay too: the amendment supersedes version 1, the rep sends version 2.
  await addContractLine(
    deps,
    rep,
    revised.id,
    addContractLineSchema.parse({
      productId: overlay.id,
      quantity: 2,
      unitPrice: 120,
      discount: 0,
      flightStart: start,
    }),
  );
  await transitionContract(deps, rep, revised.id, 'send');
}
