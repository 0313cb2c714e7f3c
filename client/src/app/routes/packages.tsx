import type { Package } from '@shared/contracts/packages';
import { can } from '@shared/permissions';
import { Package as PackageIcon, Plus } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { AccessDenied, CardGridSkeleton, EmptyState, ErrorState } from '@/components/ui/feedback';
import { lazyWhen } from '@/components/ui/lazy-when';
import { PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { SearchInput } from '@/components/ui/search-input';
import { useCurrentUser } from '@/features/auth/api/me';
import { PACKAGES_PAGE_SIZE, usePackages } from '@/features/packages/api/get-packages';
import { PackageCard } from '@/features/packages/components/package-card';
import { useDebouncedValue } from '@/lib/use-debounced-value';

// Dialogs load the first time they open (docs/decisions/017-performance.md).
const PackageFormDialog = lazyWhen(
  () => import('@/features/packages/components/package-form-dialog').then((module) => module.PackageFormDialog),
  (props) => props.open,
);
const DeletePackageDialog = lazyWhen(
  () => import('@/features/packages/components/delete-package-dialog').then((module) => module.DeletePackageDialog),
  (props) => props.pkg !== null,
);

type Editing = { pkg: Package | null } | null;

/** Sales-level roles only (ui-spec section 2): everyone else sees Access Denied. */
export default function PackagesPage() {
  const { user } = useCurrentUser();
  const allowed = can(user, 'package:write');
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(0);
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Package | null>(null);
  const { data, isLoading, isFetching, error } = usePackages({ q, page }, { enabled: allowed });

  // A new search starts again from the first page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the search changes
  useEffect(() => setPage(0), [q]);
  // Deleting the last package of the last page steps back a page.
  useEffect(() => {
    if (data && data.rows.length === 0 && page > 0) {
      setPage(Math.max(0, Math.ceil(data.total / PACKAGES_PAGE_SIZE) - 1));
    }
  }, [data, page]);

  if (!allowed) return <AccessDenied message="You don't have permission to manage packages" />;

  const pages = data ? Math.max(1, Math.ceil(data.total / PACKAGES_PAGE_SIZE)) : 1;

  return (
    <>
      <PageHeader
        title="Packages"
        description="Bundles of products sold together for one monthly price."
        actions={
          <Button onClick={() => setEditing({ pkg: null })}>
            <Plus aria-hidden /> Create Package
          </Button>
        }
      />

      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center">
        <SearchInput
          id="package-search"
          label="Search packages"
          placeholder="Search by name or description"
          value={search}
          onChange={setSearch}
        />
        <p className="text-sm text-muted-foreground sm:ml-auto" aria-live="polite" data-testid="packages-count">
          {data ? `${data.total} package${data.total === 1 ? '' : 's'}` : '\u00a0'}
        </p>
      </div>

      {isLoading && <CardGridSkeleton count={3} />}
      {error && !data && <ErrorState title="Could not load packages">Reload the page to try again.</ErrorState>}
      {data && data.rows.length === 0 && (
        <EmptyState icon={<PackageIcon />} title={q ? 'No packages match your search' : 'No packages yet'}>
          {q ? 'Try another name or word from the description.' : 'Create the first one with "Create Package".'}
        </EmptyState>
      )}
      {data && data.rows.length > 0 && (
        <>
          <ul
            aria-label="Packages"
            aria-busy={isFetching}
            className={`grid grid-cols-1 gap-4 transition-opacity sm:grid-cols-2 xl:grid-cols-3 ${isFetching ? 'opacity-70' : ''}`}
          >
            {data.rows.map((pkg) => (
              <li key={pkg.id} className="grid min-w-0">
                <PackageCard pkg={pkg} onEdit={() => setEditing({ pkg })} onDelete={() => setDeleting(pkg)} />
              </li>
            ))}
          </ul>
          <Pagination page={page} pages={pages} onPageChange={setPage} />
        </>
      )}

      <PackageFormDialog
        open={editing !== null}
        onOpenChange={(open) => {
          if (!open) setEditing(null);
        }}
        pkg={editing?.pkg ?? null}
      />
      <DeletePackageDialog pkg={deleting} onClose={() => setDeleting(null)} />
    </>
  );
}
