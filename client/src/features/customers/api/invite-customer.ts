import type { AccessLinkResponse } from '@shared/contracts/invitations';
import { useMutation } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';

/**
 * Invites the customer to the client portal: creates its client account when it has none and e-mails a
 * set-password link (or, once the account has a password, a link to the portal).
 */
export const inviteCustomer = (customerId: string) =>
  api<AccessLinkResponse>('POST', `/api/customers/${encodeURIComponent(customerId)}/invite`);

export function useInviteCustomer() {
  return useMutation({
    mutationFn: inviteCustomer,
    onSuccess: (result) => toast({ title: 'Invitation sent', description: result.message }),
    onError: (error) => toastError('Failed to send the invitation', error),
  });
}
