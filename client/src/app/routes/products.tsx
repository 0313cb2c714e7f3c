import type { AdType, Product } from '@shared/contracts/products';
import { can } from '@shared/permissions';
import { Boxes, Plus } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { AccessDenied, CardGridSkeleton, EmptyState, ErrorState } from '@/components/ui/feedback';
import { lazyWhen } from '@/components/ui/lazy-when';
import { PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { SearchInput } from '@/components/ui/search-input';
import { useCurrentUser } from '@/features/auth/api/me';
import { PRODUCTS_PAGE_SIZE, type ProductStatusFilter, useProducts } from '@/features/products/api/get-products';
import { ProductCard } from '@/features/products/components/product-card';
import { AdTypeFilterSelect, ProductStatusSelect } from '@/features/products/components/product-filters';
import { useDebouncedValue } from '@/lib/use-debounced-value';

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
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim(), 300);
  const [status, setStatus] = useState<ProductStatusFilter>('all');
  const [adType, setAdType] = useState<AdType | 'all'>('all');
  const [page, setPage] = useState(0);
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Product | null>(null);
  const { data, isLoading, isFetching, error } = useProducts({ q, status, adType, page }, { enabled: allowed });

  // A new search or filter starts again from the first page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the filter changes
  useEffect(() => setPage(0), [q, status, adType]);
  // Deleting the last product of the last page steps back a page.
  useEffect(() => {
    if (data && data.rows.length === 0 && page > 0) {
      setPage(Math.max(0, Math.ceil(data.total / PRODUCTS_PAGE_SIZE) - 1));
    }
  }, [data, page]);

  if (!allowed) return <AccessDenied message="You don't have permission to view products" />;

  const pages = data ? Math.max(1, Math.ceil(data.total / PRODUCTS_PAGE_SIZE)) : 1;
  const filtered = q !== '' || status !== 'all' || adType !== 'all';

  return (
    <>
      <PageHeader
        title="Products"
        description="The ad placements you sell, with their default prices."
        actions={
          canManage && (
            <Button onClick={() => setEditing({ product: null })}>
              <Plus aria-hidden /> Add Product
            </Button>
          )
        }
      />

      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-center">
        <SearchInput
          id="product-search"
          label="Search products"
          placeholder="Search by name, description or ad type"
          value={search}
          onChange={setSearch}
          className="sm:min-w-64"
        />
        <ProductStatusSelect value={status} onChange={setStatus} />
        <AdTypeFilterSelect value={adType} onChange={setAdType} />
        <p className="text-sm text-muted-foreground sm:ml-auto" aria-live="polite" data-testid="products-count">
          {data ? `${data.total} product${data.total === 1 ? '' : 's'}` : '\u00a0'}
        </p>
      </div>

      {isLoading && <CardGridSkeleton count={6} />}
      {error && !data && <ErrorState title="Could not load products">Reload the page to try again.</ErrorState>}
      {data && data.rows.length === 0 && (
        <EmptyState icon={<Boxes />} title={filtered ? 'No products match your search' : 'No products yet'}>
          {filtered
            ? 'Try another name, ad type or filter.'
            : canManage
              ? 'Add the first one with "Add Product".'
              : 'Products appear here once an administrator adds them.'}
        </EmptyState>
      )}
      {data && data.rows.length > 0 && (
        <>
          <ul
            aria-label="Products"
            aria-busy={isFetching}
            className={`grid grid-cols-1 gap-4 transition-opacity sm:grid-cols-2 xl:grid-cols-3 ${isFetching ? 'opacity-70' : ''}`}
          >
            {data.rows.map((product) => (
              <li key={product.id} className="grid min-w-0">
                <ProductCard
                  product={product}
                  canManage={canManage}
                  onEdit={() => setEditing({ product })}
                  onDelete={() => setDeleting(product)}
                />
              </li>
            ))}
          </ul>
          <Pagination page={page} pages={pages} onPageChange={setPage} />
        </>
      )}

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
    </>
  );
}
