import { canRecordDelivery } from '@shared/contracts/contract-access';
import { canDeleteContract, canEditContract } from '@shared/contracts/contract-lifecycle';
import { shortContractId } from '@shared/contracts/contract-vocabulary';
import { AlertCircle, ArrowLeft, Pencil, Trash2 } from 'lucide-react';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { Button } from '@/components/ui/button';
import { AccessDenied, ErrorState, Skeleton } from '@/components/ui/feedback';
import { lazyWhen } from '@/components/ui/lazy-when';
import { useCurrentUser } from '@/features/auth/api/me';
import { useContract } from '@/features/contracts/api/get-contract';
import { ContractDetails } from '@/features/contracts/components/contract-details';
import { ContractStatusActions } from '@/features/contracts/components/contract-status-actions';
import { ContractStatusBadge } from '@/features/contracts/components/contract-status-badge';
import { EditRefusalBadge } from '@/features/contracts/components/edit-refusal-badge';
import { InventoryHoldNote } from '@/features/contracts/components/inventory-hold-note';
import { NextStepNote } from '@/features/contracts/components/next-step-note';
import { PauseReasonNote } from '@/features/contracts/components/pause-reason-note';
import { PaymentInfoCard } from '@/features/contracts/components/payment-info-card';
import { RenewalLinks, RenewButton } from '@/features/contracts/components/renewal-links';
import { useContractAccess } from '@/features/contracts/hooks/use-contract-access';
import { contractTitle, formatDate } from '@/features/contracts/lib/format';
import { NON_PAYMENT_PAUSE_EXPLANATION, pausedForNonPayment } from '@/features/contracts/lib/pause-reason';
import { ContractCreativesCard } from '@/features/creatives/components/contract-creatives-card';
import { BillingSchedule } from '@/features/invoices/components/billing-schedule';
import { InvoiceHistory } from '@/features/invoices/components/invoice-history';
import { ApiError } from '@/lib/api-client';
import { paths } from '@/lib/paths';

// The delivery card loads after the contract has painted, for contracts with a CPM line only.
// The insertion order card loads for a contract that was sent with one.
const ContractInsertionOrderCard = lazy(() =>
  import('@/features/insertion-orders/components/contract-io-card').then((m) => ({
    default: m.ContractInsertionOrderCard,
  })),
);
const DeliveryCard = lazy(() =>
  import('@/features/delivery/components/delivery-card').then((m) => ({ default: m.DeliveryCard })),
);

// Dialogs load the first time they open (docs/decisions/017-performance.md).
const InvoiceDetailDialog = lazyWhen(
  () => import('@/features/invoices/components/invoice-detail-dialog').then((module) => module.InvoiceDetailDialog),
  (props) => props.invoiceId !== null,
);
const DeleteContractDialog = lazyWhen(
  () => import('@/features/contracts/components/delete-contract-dialog').then((module) => module.DeleteContractDialog),
  (props) => props.contract !== null,
);

const backLink = (
  <Link
    href={paths.contracts}
    className="mb-4 inline-flex items-center gap-1 rounded text-sm text-primary hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
  >
    <ArrowLeft className="size-4" aria-hidden /> Back to contracts
  </Link>
);

export default function ContractDetailPage() {
  const { id } = useParams<{ id: string }>();
  const [, navigate] = useLocation();
  const { canRead, canWrite } = useContractAccess();
  const { user } = useCurrentUser();
  const { data: contract, isLoading, error } = useContract(id, { enabled: canRead });
  const [deleting, setDeleting] = useState(false);
  const [viewingInvoice, setViewingInvoice] = useState<string | null>(null);

  if (!canRead) return <AccessDenied message="You don't have permission to view contracts" />;
  if (!id) return <Failure title="Error: No Contract ID">The address does not name a contract.</Failure>;
  if (isLoading) {
    return (
      <>
        {backLink}
        <Skeleton className="mb-6 h-9 w-72" />
        <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
          <Skeleton className="h-96 rounded-xl" />
          <Skeleton className="h-64 rounded-xl" />
        </div>
      </>
    );
  }
  if (error || !contract) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 400)) {
      return <Failure title="Contract not found">It may have been deleted, or it is not one you can see.</Failure>;
    }
    return <Failure title="Error loading contract">Reload the page to try again.</Failure>;
  }

  const editable = canEditContract(contract);
  const mayEdit = canWrite && editable && contract.canEdit;
  const mayDelete = canWrite && canDeleteContract(contract) && contract.canDelete;

  return (
    <>
      {backLink}
      <div className="mb-6 flex flex-wrap items-start justify-between gap-4">
        <div className="grid gap-2">
          <div className="flex flex-wrap items-center gap-3">
            <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{contractTitle(contract)}</h1>
            <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
              <ContractStatusBadge status={contract.status} className="text-sm" />
              <PauseReasonNote contract={contract} className="text-sm" />
            </span>
          </div>
          <p className="text-sm text-muted-foreground">
            {[
              contract.title ? `#${shortContractId(contract.id)}` : null,
              contract.customer?.name ?? contract.customerName ?? 'Unknown Customer',
              `created ${formatDate(contract.createdAt)}`,
            ]
              .filter(Boolean)
              .join(' · ')}
          </p>
          {pausedForNonPayment(contract) && (
            <p
              className="flex items-start gap-2 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
              data-testid="non-payment-pause"
            >
              <AlertCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
              {NON_PAYMENT_PAUSE_EXPLANATION}
            </p>
          )}
          <NextStepNote contract={contract} />
          <InventoryHoldNote contract={contract} />
          <RenewalLinks contract={contract} />
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {!editable && <EditRefusalBadge contract={contract} className="text-sm" />}
          {mayEdit && (
            <Button variant="outline" asChild>
              <Link href={paths.editContract(contract.id)}>
                <Pencil aria-hidden /> Edit
              </Link>
            </Button>
          )}
          {canWrite && <RenewButton contract={contract} />}
          {mayDelete && (
            <Button
              variant="outline"
              className="text-destructive hover:bg-red-50 hover:text-destructive"
              onClick={() => setDeleting(true)}
            >
              <Trash2 aria-hidden /> Delete
            </Button>
          )}
        </div>
      </div>

      {canWrite && (
        <div className="mb-6">
          <ContractStatusActions contract={contract} />
        </div>
      )}

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start">
        <ContractDetails contract={contract} />
        <div className="lg:sticky lg:top-20">
          <PaymentInfoCard contract={contract} canWrite={canWrite} />
        </div>
      </div>

      <div className="mt-6 grid gap-6">
        {contract.insertionOrder && (
          <Suspense fallback={<Skeleton className="h-40 rounded-xl" />}>
            <ContractInsertionOrderCard contractId={contract.id} />
          </Suspense>
        )}
        <InvoiceHistory contractId={contract.id} title="Invoice history" />
        <BillingSchedule contractId={contract.id} status={contract.status} />
        <ContractCreativesCard contractId={contract.id} />
        {/* Delivery is recorded by finance, managers and admins on any contract, by a sales rep on their own. */}
        {contract.lineItems.some((line) => line.priceMetric === 'cpm') && (
          <Suspense fallback={<Skeleton className="h-40 rounded-xl" />}>
            <DeliveryCard
              contract={contract}
              canWrite={user ? canRecordDelivery(user, contract) : false}
              onOpenInvoice={setViewingInvoice}
            />
          </Suspense>
        )}
      </div>
      <InvoiceDetailDialog invoiceId={viewingInvoice} onClose={() => setViewingInvoice(null)} />

      {mayDelete && (
        <DeleteContractDialog
          contract={deleting ? contract : null}
          onClose={() => setDeleting(false)}
          onDeleted={() => navigate(paths.contracts)}
        />
      )}
    </>
  );
}

function Failure({ title, children }: { title: string; children: ReactNode }) {
  return (
    <>
      {backLink}
      <ErrorState title={title}>{children}</ErrorState>
    </>
  );
}
