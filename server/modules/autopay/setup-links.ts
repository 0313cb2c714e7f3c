import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../db/client';
import { setupLink } from '../../lib/capability-links';
import { insertSetupLink } from './autopay.repo';

/**
 * Set-up links (product.md section 18): a capability to save a payment method for one customer, 7 days, once.
 * The token (256 random bits) travels only in the e-mail or the client's own redirect; only its SHA-256 is kept.
 */

export const SETUP_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** The portal's own "Add a payment method": the signed-in client is sent there at once. */
export const PORTAL_SETUP_TTL_MS = 60 * 60 * 1000;

export const hashSetupToken = (token: string) => createHash('sha256').update(token).digest('hex');

export async function createSetupLink(
  tx: Db,
  input: { baseUrl: string; customerId: string; purpose: 'email' | 'portal'; createdBy: string | null },
): Promise<{ id: string; url: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + (input.purpose === 'portal' ? PORTAL_SETUP_TTL_MS : SETUP_LINK_TTL_MS));
  const row = await insertSetupLink(tx, {
    tokenHash: hashSetupToken(token),
    customerId: input.customerId,
    purpose: input.purpose,
    createdBy: input.createdBy,
    expiresAt,
  });
  return { id: row.id, url: setupLink(input.baseUrl, token), expiresAt };
}
