import type { User } from '@shared/contracts/auth';
import { PASSWORD_LINK_HOURS } from '@shared/contracts/invitations';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogFooter, DialogFormHeader } from '@/components/ui/dialog';
import { useSendPasswordReset } from '../api/send-password-reset';

/** Confirms, then e-mails the user a set-password link. No password is chosen or seen by the admin. */
export function SendPasswordResetDialog({ user, onClose }: { user: User | null; onClose: () => void }) {
  const send = useSendPasswordReset();
  return (
    <Dialog open={user !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-md">
        <DialogFormHeader
          title="Send password reset"
          description={
            user && (
              <>
                {user.firstName} {user.lastName} will get an e-mail at <strong>{user.email}</strong> with a link to
                choose a new password. The link works once, for {PASSWORD_LINK_HOURS} hours; the current password keeps
                working until then.
              </>
            )
          }
        />
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button
            disabled={send.isPending || !user}
            onClick={() => user && send.mutate(user.id, { onSuccess: onClose })}
          >
            {send.isPending ? 'Sending...' : 'Send Link'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
