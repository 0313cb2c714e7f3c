import type { Package } from '@shared/contracts/packages';
import { can } from '@shared/permissions';
import { Package as PackageIcon } from 'lucide-react';
import { useState } from 'react';
import { CardGridPage, useCardGridSearch } from '@/components/card-grid-page';
import { AccessDenied } from '@/components/ui/feedback';
import { lazyWhen } from '@/components/ui/lazy-when';
import { useCurrentUser } from '@/features/auth/api/me';
import { PACKAGES_PAGE_SIZE, usePackages } from '@/features/packages/api/get-packages';
import { PackageCard } from '@/features/packages/components/package-card';

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
  const list = useCardGridSearch();
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Package | null>(null);
  const query = usePackages({ q: list.q, page: list.page }, { enabled: allowed });

  if (!allowed) return <AccessDenied message="You don't have permission to manage packages" />;

  return (
    <CardGridPage
      title="Packages"
      description="Bundles of products sold together for one monthly price."
      create={{ label: 'Create Package', onClick: () => setEditing({ pkg: null }) }}
      list={list}
      searchBox={{ id: 'package-search', label: 'Search packages', placeholder: 'Search by name or description' }}
      count={{ testId: 'packages-count', singular: 'package', plural: 'packages' }}
      query={query}
      pageSize={PACKAGES_PAGE_SIZE}
      skeletonCount={3}
      errorTitle="Could not load packages"
      empty={{
        icon: <PackageIcon />,
        title: list.q ? 'No packages match your search' : 'No packages yet',
        text: list.q ? 'Try another name or word from the description.' : 'Create the first one with "Create Package".',
      }}
      gridLabel="Packages"
      keyOf={(pkg) => pkg.id}
      card={(pkg) => <PackageCard pkg={pkg} onEdit={() => setEditing({ pkg })} onDelete={() => setDeleting(pkg)} />}
    >
      <PackageFormDialog
        open={editing !== null}
        onOpenChange={(open) => {
          if (!open) setEditing(null);
        }}
        pkg={editing?.pkg ?? null}
      />
      <DeletePackageDialog pkg={deleting} onClose={() => setDeleting(null)} />
    </CardGridPage>
  );
}
