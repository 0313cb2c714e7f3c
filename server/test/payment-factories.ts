import { randomBytes } from 'node:crypto';
import { TEST_CARDS } from '@shared/contracts/checkout';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client';
import { contracts } from '../db/schema';
import { createBillableContract } from './billing-factories';

/** Contracts with a pay link, and requests to the public payment routes, for the payments suites. */

export const newToken = () => randomBytes(24).toString('base64url');

export async function createPayLinkContract(
  db: Db,
  options: Parameters<typeof createBillableContract>[1],
): Promise<Awaited<ReturnType<typeof createBillableContract>> & { token: string }> {
  const created = await createBillableContract(db, { paymentMode: 'pay_link', ...options });
  const token = newToken();
  const [contract] = await db
    .update(contracts)
    .set({ payLinkToken: token, stripePaymentLinkId: `plink_${token.slice(0, 12)}` })
    .where(eq(contracts.id, created.contract.id))
    .returning();
  return { ...created, contract, token };
}

/** A distinct client address per caller, so that the per-address rate limits of one test do not reach another. */
let addressSeq = 0;
export const nextAddress = () => {
  addressSeq += 1;
  return `10.${(addressSeq >> 16) & 255}.${(addressSeq >> 8) & 255}.${addressSeq & 255}`;
};

const nextYear = () => String((new Date().getUTCFullYear() + 2) % 100).padStart(2, '0');

export const card = (number: string = TEST_CARDS.visa) => ({
  cardNumber: number.replace(/(\d{4})(?=\d)/g, '$1 '),
  expiry: `12 / ${nextYear()}`,
  cvc: '123',
  name: 'Ada Lovelace',
});

/** The public routes as a signed-out browser calls them (from its own address). */
export function publicClient(app: FastifyInstance, remoteAddress = nextAddress()) {
  return {
    getPayLink: (token: string) => app.inject({ method: 'GET', url: `/api/pay/${token}`, remoteAddress }),
    openCheckout: (token: string) => app.inject({ method: 'POST', url: `/api/pay/${token}/checkout`, remoteAddress }),
    getCheckout: (token: string) => app.inject({ method: 'GET', url: `/api/checkout/${token}`, remoteAddress }),
    pay: (token: string, body: object) =>
      app.inject({ method: 'POST', url: `/api/checkout/${token}/pay`, payload: body, remoteAddress }),
  };
}

/** The checkout token from a built-in checkout URL (https://origin/checkout/{token}). */
export const checkoutToken = (checkoutUrl: string) => new URL(checkoutUrl).pathname.split('/').pop()!;
