import type { BillingPortal } from '@shared/contracts/checkout';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/**
 * "Manage payment details" on the client's contract page: Stripe's customer portal when the product uses Stripe,
 * otherwise the product's own page of the contract (its invoices and Pay Now).
 */
export const openClientBillingPortal = (contractId: string) =>
  api<BillingPortal>('POST', `/api/client/contracts/${encodeURIComponent(contractId)}/billing-portal`);

export function useOpenClientBillingPortal() {
  return useMutation({ mutationFn: openClientBillingPortal });
}
