import type { Product } from '@shared/contracts/products';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useDeleteProduct } from '../api/delete-product';

/**
 * Asks before deleting. The server deletes an unused product and archives one that contracts or packages
 * use; the toast says which happened.
 */
export function DeleteProductDialog({ product, onClose }: { product: Product | null; onClose: () => void }) {
  const remove = useDeleteProduct();
  return (
    <ConfirmDialog
      open={product !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title="Delete product?"
      description={
        product ? (
          <>
            <strong className="font-medium text-slate-900">{product.name}</strong> will be removed from the catalog. If
            a contract or package uses it, it is archived instead, so those keep it.
          </>
        ) : null
      }
      confirmLabel={remove.isPending ? 'Deleting...' : 'Delete'}
      busy={remove.isPending}
      onConfirm={() => {
        if (product) remove.mutate(product, { onSettled: onClose });
      }}
    />
  );
}
