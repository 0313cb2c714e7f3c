import type { BillingPortal } from '@shared/contracts/checkout';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/**
 * The customer portal of a portal-mode contract, for staff: a Stripe customer-portal session when the product uses
 * Stripe (opened with the customer), otherwise the address of the client's own contract page, to send.
 */
export const openContractBillingPortal = (contractId: string) =>
  api<BillingPortal>('POST', `/api/contracts/${encodeURIComponent(contractId)}/billing-portal`);

export function useOpenContractBillingPortal() {
  return useMutation({ mutationFn: openContractBillingPortal });
}
