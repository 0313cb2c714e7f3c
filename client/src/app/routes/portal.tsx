import { can } from '@shared/permissions';
import { lazy, Suspense } from 'react';
import { AccessDenied, Skeleton } from '@/components/ui/feedback';
import { PageHeader } from '@/components/ui/page-header';
import { useCurrentUser } from '@/features/auth/api/me';
import { ClientCreatives } from '@/features/creatives/components/client-creatives';
import { CreativeUpload } from '@/features/creatives/components/creative-upload';
import { CreditNotePdfButton } from '@/features/invoices/components/credit-note-pdf-button';
import { PayAllButton } from '@/features/payments/components/pay-all-button';
import { usePortalContracts } from '@/features/portal/api/get-client-contracts';
import { useClientSummary } from '@/features/portal/api/get-client-summary';
import { ClientContractsTable, clientContractName } from '@/features/portal/components/client-contracts-table';
import { ClientCreditNotes } from '@/features/portal/components/client-credit-notes';
import { PortalOverview } from '@/features/portal/components/portal-overview';
import { RecentInvoices } from '@/features/portal/components/recent-invoices';
import { ClientInvoiceActions } from '../client-invoice-actions';
import { ClientPaymentAlerts } from '../client-payment-alerts';

// The performance card, the portal's last card, loads after the rest has painted.
const PerformanceCard = lazy(() =>
  import('@/features/delivery/components/performance-card').then((m) => ({ default: m.PerformanceCard })),
);

/**
 * The Client Portal (client accounts only): the client's figures, contracts, recent invoices with Pay Now
 * and the PDF ("Pay all due" beside them when more than one invoice is due), credit notes and the credit balance, creative uploads, and the delivery of its CPM campaigns
 * as our team recorded it. Everything is the client's own.
 */
export default function PortalPage() {
  const { user } = useCurrentUser();
  const allowed = can(user, 'portal:access');
  if (!allowed) return <AccessDenied message="This portal is only available for client accounts" />;
  return <Portal firstName={user?.firstName ?? ''} customerId={user?.customerId ?? null} />;
}

function Portal({ firstName, customerId }: { firstName: string; customerId: string | null }) {
  const contracts = usePortalContracts();
  const summary = useClientSummary();
  const targets = (contracts.data?.rows ?? []).map((c) => ({
    id: c.id,
    name: clientContractName(c),
    status: c.status,
  }));
  return (
    <>
      <PageHeader
        title="Client Portal"
        description={`Welcome back${firstName ? `, ${firstName}` : ''}. Your campaigns, payments and creatives in one place.`}
      />
      <div className="grid gap-6">
        {summary.data && <ClientPaymentAlerts alerts={summary.data} />}
        <PortalOverview />
        <ClientContractsTable customerId={customerId} />
        <RecentInvoices
          customerId={customerId}
          actions={(invoice) => <ClientInvoiceActions invoice={invoice} />}
          action={
            summary.data && summary.data.payAllCount > 1 ? <PayAllButton amount={summary.data.payAllAmount} /> : null
          }
        />
        <ClientCreditNotes customerId={customerId} actions={(note) => <CreditNotePdfButton note={note} />} />
        <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_24rem] lg:items-start">
          <ClientCreatives contractName={clientContractName} />
          <CreativeUpload contracts={targets} />
        </div>
        <Suspense fallback={<Skeleton className="h-40 rounded-xl" />}>
          <PerformanceCard contractName={clientContractName} />
        </Suspense>
      </div>
    </>
  );
}
