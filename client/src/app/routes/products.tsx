import type { AdType, Product } from '@shared/contracts/products';
import { can } from '@shared/permissions';
import { Boxes } from 'lucide-react';
import { useState } from 'react';
import { CardGridPage, useCardGridSearch } from '@/components/card-grid-page';
import { AccessDenied } from '@/components/ui/feedback';
import { lazyWhen } from '@/components/ui/lazy-when';
import { useCurrentUser } from '@/features/auth/api/me';
import { PRODUCTS_PAGE_SIZE, type ProductStatusFilter, useProducts } from '@/features/products/api/get-products';
import { ProductCard } from '@/features/products/components/product-card';
import { AdTypeFilterSelect, ProductStatusSelect } from '@/features/products/components/product-filters';

// Dialogs load the first time they open (docs/decisions/017-performance.md).
const ProductFormDialog = lazyWhen(
  () => import('@/features/products/components/product-form-dialog').then((module) => module.ProductFormDialog),
  (props) => props.open,
);
const DeleteProductDialog = lazyWhen(
  () => import('@/features/products/components/delete-product-dialog').then((module) => module.DeleteProductDialog),
  (props) => props.product !== null,
);

type Editing = { product: Product | null } | null;

export default function ProductsPage() {
  const { user } = useCurrentUser();
  const allowed = can(user, 'product:read');
  const canManage = can(user, 'product:write');
  const [status, setStatus] = useState<ProductStatusFilter>('all');
  const [adType, setAdType] = useState<AdType | 'all'>('all');
  const list = useCardGridSearch([status, adType]);
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Product | null>(null);
  const query = useProducts({ q: list.q, status, adType, page: list.page }, { enabled: allowed });

  if (!allowed) return <AccessDenied message="You don't have permission to view products" />;

  const filtered = list.q !== '' || status !== 'all' || adType !== 'all';

  return (
    <CardGridPage
      title="Products"
      description="The ad placements you sell, with their default prices."
      create={canManage ? { label: 'Add Product', onClick: () => setEditing({ product: null }) } : undefined}
      list={list}
      searchBox={{
        id: 'product-search',
        label: 'Search products',
        placeholder: 'Search by name, description or ad type',
        className: 'sm:min-w-64',
      }}
      filters={
        <>
          <ProductStatusSelect value={status} onChange={setStatus} />
          <AdTypeFilterSelect value={adType} onChange={setAdType} />
        </>
      }
      wrapFilters
      count={{ testId: 'products-count', singular: 'product', plural: 'products' }}
      query={query}
      pageSize={PRODUCTS_PAGE_SIZE}
      errorTitle="Could not load products"
      empty={{
        icon: <Boxes />,
        title: filtered ? 'No products match your search' : 'No products yet',
        text: filtered
          ? 'Try another name, ad type or filter.'
          : canManage
            ? 'Add the first one with "Add Product".'
            : 'Products appear here once an administrator adds them.',
      }}
      gridLabel="Products"
      keyOf={(product) => product.id}
      card={(product) => (
        <ProductCard
          product={product}
          canManage={canManage}
          onEdit={() => setEditing({ product })}
          onDelete={() => setDeleting(product)}
        />
      )}
    >
      {canManage && (
        <>
          <ProductFormDialog
            open={editing !== null}
            onOpenChange={(open) => {
              if (!open) setEditing(null);
            }}
            product={editing?.product ?? null}
          />
          <DeleteProductDialog product={deleting} onClose={() => setDeleting(null)} />
        </>
      )}
    </CardGridPage>
  );
}
