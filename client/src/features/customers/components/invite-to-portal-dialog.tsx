import type { Customer } from '@shared/contracts/customers';
import { PASSWORD_LINK_HOURS } from '@shared/contracts/invitations';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogFooter, DialogFormHeader } from '@/components/ui/dialog';
import { useInviteCustomer } from '../api/invite-customer';

/** Confirms, then invites the customer to the client portal by e-mail (no password is ever sent). */
export function InviteToPortalDialog({
  customer,
  open,
  onOpenChange,
}: {
  customer: Customer;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const invite = useInviteCustomer();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-md">
        <DialogFormHeader
          title="Invite to Client Portal"
          description={
            <>
              {customer.name} will get an e-mail at <strong>{customer.email}</strong>. A new client account is created
              when the customer has none; the e-mail then carries a link to choose a password, which works once for{' '}
              {PASSWORD_LINK_HOURS} hours. An account that already has a password gets a link to the portal.
            </>
          }
        />
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button
            disabled={invite.isPending}
            onClick={() => invite.mutate(customer.id, { onSuccess: () => onOpenChange(false) })}
          >
            {invite.isPending ? 'Sending...' : 'Send Invitation'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
