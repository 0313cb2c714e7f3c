import type { PaymentMethods, PaymentSetupLinkSent } from '@shared/contracts/autopay';
import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { customersQueryKey } from './get-customers';

/**
 * A customer's payment methods on file and its autopay, as staff see them (payment-method:manage, product.md
 * section 18): read, the set-up link e-mailed, autopay turned off (never on: only the customer turns it on).
 */
const base = (customerId: string) => `/api/customers/${encodeURIComponent(customerId)}`;

export const customerPaymentMethodsQueryOptions = (customerId: string) =>
  queryOptions({
    queryKey: [...customersQueryKey, 'payment-methods', customerId],
    queryFn: () => api<PaymentMethods>('GET', `${base(customerId)}/payment-methods`),
    staleTime: 0,
  });

export function useCustomerPaymentMethods(customerId: string, options: { enabled?: boolean } = {}) {
  return useQuery({ ...customerPaymentMethodsQueryOptions(customerId), enabled: options.enabled ?? true });
}

/** E-mails the customer a link (7 days, once) to the page where it saves a payment method itself. */
export const sendPaymentSetupLink = (customerId: string) =>
  api<PaymentSetupLinkSent>('POST', `${base(customerId)}/payment-setup-link`);

export function useSendPaymentSetupLink() {
  return useMutation({
    mutationFn: sendPaymentSetupLink,
    onSuccess: (sent) => toast({ title: `Set-up link sent to ${sent.sentTo}` }),
    onError: (error) => toastError('Failed to send the set-up link', error),
  });
}

/** Staff may only turn autopay off: the route takes `{ enabled: false }` and nothing else. */
export const turnAutopayOff = (customerId: string) =>
  api<PaymentMethods>('PUT', `${base(customerId)}/autopay`, { enabled: false });

/** What turning autopay off does: the answer replaces the card's data; invoices drop their scheduled charge. */
export const turnAutopayOffMutation = (queryClient: QueryClient, customerId: string) => ({
  mutationFn: () => turnAutopayOff(customerId),
  onSuccess: (methods: PaymentMethods) => {
    queryClient.setQueryData(customerPaymentMethodsQueryOptions(customerId).queryKey, methods);
    toast({ title: 'Autopay turned off', description: 'Invoices are no longer charged automatically.' });
    return queryClient.invalidateQueries({ queryKey: ['/api/invoices'] });
  },
  onError: (error: unknown) => {
    toastError('Failed to turn autopay off', error);
  },
});

export function useTurnAutopayOff(customerId: string) {
  return useMutation(turnAutopayOffMutation(useQueryClient(), customerId));
}
