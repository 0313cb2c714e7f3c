import type { User } from '@shared/contracts/auth';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useDeleteUser } from '../api/delete-user';

/** Asks before deleting; closes when the call ends (a failure explains itself in a toast). */
export function DeleteUserDialog({ user, onClose }: { user: User | null; onClose: () => void }) {
  const remove = useDeleteUser();
  return (
    <ConfirmDialog
      open={user !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title="Delete user?"
      description={
        user ? (
          <>
            <strong className="font-medium text-slate-900">
              {user.firstName} {user.lastName}
            </strong>{' '}
            ({user.email}) will no longer be able to sign in. This cannot be undone.
          </>
        ) : null
      }
      confirmLabel={remove.isPending ? 'Deleting...' : 'Delete'}
      busy={remove.isPending}
      onConfirm={() => {
        if (user) remove.mutate(user, { onSettled: onClose });
      }}
    />
  );
}
