import { can, canAny } from '@shared/permissions';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, MailPlus, Pencil, Plus } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Link, useParams } from 'wouter';
import { Button } from '@/components/ui/button';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/feedback';
import { lazyWhen } from '@/components/ui/lazy-when';
import { PageHeader } from '@/components/ui/page-header';
import { ActivitiesCard } from '@/features/activities/components/activities-card';
import { useCurrentUser } from '@/features/auth/api/me';
import { useCustomer } from '@/features/customers/api/get-customer';
import { customerTimelineQueryKey } from '@/features/customers/api/get-customer-timeline';
import { AgencyAdvertisersCard } from '@/features/customers/components/agency-advertisers-card';
import { AgencyOfRecordCard } from '@/features/customers/components/agency-of-record-card';
import { ContactsCard } from '@/features/customers/components/contacts-card';
import { CustomerContracts } from '@/features/customers/components/customer-contracts';
import { CustomerDetails } from '@/features/customers/components/customer-details';
import { CustomerTimeline } from '@/features/customers/components/customer-timeline';
import { PaymentMethodsCard } from '@/features/customers/components/payment-methods-card';
import { InvoiceHistory } from '@/features/invoices/components/invoice-history';
import { CustomerBalance } from '@/features/receivables/components/customer-balance';
import { ApiError } from '@/lib/api-client';
import { paths } from '@/lib/paths';

// The Credit card comes with the credit-note words and their schemas (zod): it loads right after the page paints.
const CustomerCredit = lazy(() =>
  import('@/features/invoices/components/customer-credit').then((module) => ({ default: module.CustomerCredit })),
);

// Dialogs load the first time they open (docs/decisions/017-performance.md).
const CustomerFormDialog = lazyWhen(
  () => import('@/features/customers/components/customer-form-dialog').then((module) => module.CustomerFormDialog),
  (props) => props.open,
);
// The invoice an open-invoice row opens.
const InvoiceDetailDialog = lazyWhen(
  () => import('@/features/invoices/components/invoice-detail-dialog').then((module) => module.InvoiceDetailDialog),
  (props) => props.invoiceId !== null,
);
const InviteToPortalDialog = lazyWhen(
  () => import('@/features/customers/components/invite-to-portal-dialog').then((module) => module.InviteToPortalDialog),
  (props) => props.open,
);

export default function CustomerDetailPage() {
  const { id = '' } = useParams<{ id: string }>();
  const { user } = useCurrentUser();
  const queryClient = useQueryClient();
  const { data: customer, isLoading, error } = useCustomer(id);
  const [editing, setEditing] = useState(false);
  const [inviting, setInviting] = useState(false);
  const [viewingInvoice, setViewingInvoice] = useState<string | null>(null);
  const canWrite = can(user, 'customer:write');
  // A customer's contacts and story are for staff (product.md section 19).
  const seesStory = can(user, 'customer:read:any');
  const seesContracts = canAny(user, ['contract:read:any', 'contract:read:own']);
  const seesInvoices = canAny(user, ['invoice:read:any', 'invoice:read:own', 'invoice:read:client']);
  // A customer's credit is for staff who read every invoice, and for the client its own (not a rep's).
  const seesCredit = canAny(user, ['invoice:read:any', 'invoice:read:client']);
  const seesBalance = can(user, 'receivables:read');
  // The methods on file, their consent and autopay: admins and finance (product.md section 18).
  const seesPaymentMethods = can(user, 'payment-method:manage');
  const canCreateContract = canAny(user, ['contract:write:any', 'contract:write:own']);
  // Activities are the pipeline's: reps their own, managers and admins everyone's (product.md section 19).
  const seesActivities = canAny(user, ['deal:any', 'deal:own']);
  // Agencies (product.md section 20): an advertiser's agency of record is set by managers (a rep: their own
  // customers') and read by finance too; an agency's advertisers also by its own client users.
  const managesAgency = canAny(user, ['agency:manage:any', 'agency:manage:own']);
  const readsAgencyOfRecord = managesAgency || can(user, 'agency:statement:any');
  const readsAdvertisers = canAny(user, ['agency:statement:any', 'agency:statement:own', 'agency:statement:self']);
  // A malformed id is refused with 400; to the user it is the same as an unknown one.
  const notFound = error instanceof ApiError && (error.status === 404 || error.status === 400);

  return (
    <>
      <Link
        href={paths.customers}
        className="mb-4 inline-flex items-center gap-1.5 rounded-sm text-sm font-medium text-muted-foreground hover:text-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        <ArrowLeft className="size-4" aria-hidden /> Back to Customers
      </Link>

      {isLoading && (
        <div className="grid gap-4" aria-busy="true">
          <Skeleton className="h-10 w-72" />
          <Skeleton className="h-56 rounded-xl" />
          <Skeleton className="h-40 rounded-xl" />
        </div>
      )}
      {notFound && (
        <EmptyState title="Customer not found">
          It may have been deleted, or the link is wrong.{' '}
          <Link href={paths.customers} className="font-medium text-primary hover:underline">
            See all customers
          </Link>
          .
        </EmptyState>
      )}
      {error && !notFound && <ErrorState title="Error loading customer">Reload the page to try again.</ErrorState>}
      {customer && (
        <>
          <PageHeader
            title={customer.name}
            description={customer.company ?? undefined}
            actions={
              (canWrite || canCreateContract) && (
                <div className="flex flex-wrap gap-2">
                  {canWrite && (
                    <Button variant="outline" onClick={() => setInviting(true)}>
                      <MailPlus aria-hidden /> Invite to Client Portal
                    </Button>
                  )}
                  {canWrite && (
                    <Button variant="outline" onClick={() => setEditing(true)}>
                      <Pencil aria-hidden /> Edit Customer
                    </Button>
                  )}
                  {canCreateContract && (
                    <Button asChild>
                      <Link href={`${paths.newContract}?customerId=${encodeURIComponent(customer.id)}`}>
                        <Plus aria-hidden /> New Contract
                      </Link>
                    </Button>
                  )}
                </div>
              )
            }
          />
          <div className="grid grid-cols-1 gap-6">
            <CustomerDetails customer={customer} showNotes={user?.role !== 'client'} />
            {customer.kind === 'advertiser' && readsAgencyOfRecord && (
              <AgencyOfRecordCard customer={customer} canManage={managesAgency} />
            )}
            {customer.kind === 'agency' && readsAdvertisers && (
              <AgencyAdvertisersCard agencyId={customer.id} agencyName={customer.name} />
            )}
            {seesStory && <ContactsCard customerId={customer.id} customerName={customer.name} canWrite={canWrite} />}
            {seesBalance && <CustomerBalance customerId={customer.id} onOpenInvoice={setViewingInvoice} />}
            {seesPaymentMethods && <PaymentMethodsCard customerId={customer.id} customerName={customer.name} />}
            {seesActivities && (
              <ActivitiesCard
                customer={customer}
                canChooseOwner={can(user, 'deal:any')}
                // The story lists activities too: it is read again after one is logged, changed or done.
                onChanged={() => queryClient.invalidateQueries({ queryKey: customerTimelineQueryKey(customer.id) })}
              />
            )}
            {seesContracts && <CustomerContracts customerId={customer.id} />}
            {seesInvoices && <InvoiceHistory customerId={customer.id} />}
            {seesCredit && (
              <Suspense fallback={<Skeleton className="h-64 rounded-xl" />}>
                <CustomerCredit customerId={customer.id} customerName={customer.name} />
              </Suspense>
            )}
            {seesStory && <CustomerTimeline customerId={customer.id} customerName={customer.name} />}
          </div>
          {canWrite && <CustomerFormDialog open={editing} onOpenChange={setEditing} customer={customer} />}
          {canWrite && <InviteToPortalDialog open={inviting} onOpenChange={setInviting} customer={customer} />}
          {seesBalance && <InvoiceDetailDialog invoiceId={viewingInvoice} onClose={() => setViewingInvoice(null)} />}
        </>
      )}
    </>
  );
}
