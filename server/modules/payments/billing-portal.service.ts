import { BILLING_PORTAL_MESSAGES, type BillingPortal, portalContractPath } from '@shared/contracts/checkout';
import { canReadContract, clientOwnsContract } from '@shared/contracts/contract-access';
import type { Db } from '../../db/client';
import { AppError, conflict, notFound } from '../../lib/errors';
import type { SessionUser } from '../sessions/sessions';
import { selectContractPaymentAccount } from './payments.repo';
import type { PaymentProviders } from './providers';

export type BillingPortalDeps = { db: Db; providers: PaymentProviders; baseUrl: string };

/**
 * The customer portal of a portal-mode contract (product.md section 1: Stripe's Customer Portal when Stripe is
 * configured). Who asks decides where the session returns to:
 * - the contract's client (POST /api/client/contracts/{id}/billing-portal), back to its contract page;
 * - staff who may read the contract (POST /api/contracts/{id}/billing-portal), back to the staff's contract page:
 *   to open it with the customer on the phone, or to get the portal page's address to send.
 * With Stripe configured and a Stripe customer on the contract: a new billing-portal session's URL. Otherwise the
 * product's own portal page of the contract, where the client signs in to pay its invoices. Any other
 * contract answers 404; a pay-link contract 409 (its customer pays by link, with no portal account).
 */
export async function openBillingPortal(
  deps: BillingPortalDeps,
  actor: SessionUser,
  contractId: string,
  audience: 'client' | 'staff',
): Promise<BillingPortal> {
  const contract = await selectContractPaymentAccount(deps.db, contractId);
  const visible =
    contract !== null &&
    (audience === 'client' ? clientOwnsContract(actor, contract) : canReadContract(actor, contract));
  if (!contract || !visible) throw notFound('Contract');
  if (contract.paymentMode !== 'portal') throw conflict(BILLING_PORTAL_MESSAGES.payLinkMode);

  const portalPage = `${deps.baseUrl}${portalContractPath(contract.id)}`;
  const stripe = deps.providers.stripe;
  if (!stripe || !contract.stripeCustomerId) return { url: portalPage, provider: 'builtin' };
  const returnUrl = audience === 'client' ? portalPage : `${deps.baseUrl}/contracts/${contract.id}`;
  let url: string | null;
  try {
    url = await stripe.billingPortalUrl({ providerCustomerId: contract.stripeCustomerId, returnUrl });
  } catch {
    throw new AppError('UNAVAILABLE', BILLING_PORTAL_MESSAGES.unavailable);
  }
  if (!url) throw new AppError('UNAVAILABLE', BILLING_PORTAL_MESSAGES.unavailable);
  return { url, provider: 'stripe' };
}
