import type { Package } from '@shared/contracts/packages';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useDeletePackage } from '../api/delete-package';

/** Asks before deleting; closes when the call ends (a refusal explains itself in a toast). */
export function DeletePackageDialog({ pkg, onClose }: { pkg: Package | null; onClose: () => void }) {
  const remove = useDeletePackage();
  return (
    <ConfirmDialog
      open={pkg !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title="Delete package?"
      description={
        pkg ? (
          <>
            <strong className="font-medium text-slate-900">{pkg.name}</strong> and its items will be removed. A package
            that contracts use cannot be deleted. This cannot be undone.
          </>
        ) : null
      }
      confirmLabel={remove.isPending ? 'Deleting...' : 'Delete'}
      busy={remove.isPending}
      onConfirm={() => {
        if (pkg) remove.mutate(pkg, { onSettled: onClose });
      }}
    />
  );
}
