import { canEditContract, editRefusal } from '@shared/contracts/contract-lifecycle';
import { ArrowLeft } from 'lucide-react';
import { Link, useLocation, useParams } from 'wouter';
import { AccessDenied, ErrorState, Skeleton } from '@/components/ui/feedback';
import { PageHeader } from '@/components/ui/page-header';
import { useContract } from '@/features/contracts/api/get-contract';
import { ContractForm } from '@/features/contracts/components/contract-form';
import { ContractStatusBadge } from '@/features/contracts/components/contract-status-badge';
import { EditRefusalBadge } from '@/features/contracts/components/edit-refusal-badge';
import { useContractAccess } from '@/features/contracts/hooks/use-contract-access';
import { contractTitle } from '@/features/contracts/lib/format';
import { ApiError } from '@/lib/api-client';
import { paths } from '@/lib/paths';

export default function EditContractPage() {
  const { id } = useParams<{ id: string }>();
  const [, navigate] = useLocation();
  const { canRead, canWrite } = useContractAccess();
  const { data: contract, isLoading, error } = useContract(id, { enabled: canRead });

  if (!canRead) return <AccessDenied message="You don't have permission to view contracts" />;

  const back = (
    <Link
      href={paths.contract(id)}
      className="mb-4 inline-flex items-center gap-1 rounded text-sm text-primary hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
    >
      <ArrowLeft className="size-4" aria-hidden /> Back to contract
    </Link>
  );

  if (isLoading) {
    return (
      <>
        {back}
        <Skeleton className="mb-6 h-8 w-64" />
        <Skeleton className="h-96 rounded-xl" />
      </>
    );
  }
  if (error || !contract) {
    const notFound = error instanceof ApiError && error.status === 404;
    return (
      <>
        {back}
        <ErrorState title={notFound ? 'Contract not found' : 'Error loading contract'}>
          {notFound ? 'It may have been deleted, or it is not one of yours.' : 'Reload the page to try again.'}
        </ErrorState>
      </>
    );
  }

  const editable = canEditContract(contract) && contract.canEdit;
  return (
    <>
      {back}
      <PageHeader
        title={`Edit ${contractTitle(contract)}`}
        description={contract.customer?.name ?? contract.customerName ?? undefined}
        actions={<ContractStatusBadge status={contract.status} />}
      />
      {!canWrite ? (
        <AccessDenied message="You don't have permission to edit contracts" />
      ) : editable ? (
        <ContractForm
          contract={contract}
          onSuccess={() => navigate(paths.contract(contract.id))}
          onCancel={() => navigate(paths.contract(contract.id))}
        />
      ) : (
        <div className="grid justify-items-start gap-3 rounded-xl border bg-white p-6 shadow-sm">
          <EditRefusalBadge contract={contract} className="text-sm" />
          <p className="text-sm text-muted-foreground">
            {editRefusal(contract) ?? 'This contract can no longer be edited.'}
          </p>
        </div>
      )}
    </>
  );
}
