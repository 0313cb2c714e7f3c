import { lazy } from 'react';
import { useLocation } from 'wouter';
import type { CustomerPickerProps } from '@/features/activities/components/activity-dialog';
import { MyDayCard } from '@/features/activities/components/my-day-card';
import { useCurrentUser } from '@/features/auth/api/me';
import { useRenewContract } from '@/features/contracts/api/renew-contract';
import { AdminDashboard } from '@/features/dashboard/components/admin-dashboard';
import { ClientDashboard } from '@/features/dashboard/components/client-dashboard';
import { SalesDashboard } from '@/features/dashboard/components/sales-dashboard';
import { DashboardCardsSkeleton } from '@/features/dashboard/components/stat-card';
import { paths } from '@/lib/paths';
import { ClientInvoiceActions } from '../client-invoice-actions';
import { ClientPaymentAlerts } from '../client-payment-alerts';

// The customer search of "Log activity" (the pipeline's), loaded when that dialog first shows it.
const CustomerPicker = lazy(() =>
  import('@/features/pipeline/components/customer-picker').then(({ CustomerPicker: Picker }) => ({
    default: (props: CustomerPickerProps) => <Picker {...props} emptyText="No customer matches." />,
  })),
);

/** The dashboard by role: sales and sales_manager get the sales view, clients theirs, everyone else the admin view. */
export default function DashboardPage() {
  const { user } = useCurrentUser();
  const [, navigate] = useLocation();
  // One "Renew" for the dashboard and the contract page: the new draft opens for editing.
  const renew = useRenewContract((renewal) => navigate(paths.editContract(renewal.id)));
  if (!user) return <DashboardCardsSkeleton />;
  if (user.role === 'sales' || user.role === 'sales_manager') {
    return (
      <SalesDashboard user={user} renew={renew} myDay={<MyDayCard user={user} customerPicker={CustomerPicker} />} />
    );
  }
  if (user.role === 'client') {
    return (
      <ClientDashboard
        user={user}
        invoiceActions={(invoice) => <ClientInvoiceActions invoice={invoice} />}
        alerts={(summary) => <ClientPaymentAlerts alerts={summary} className="mb-6" />}
      />
    );
  }
  return <AdminDashboard user={user} />;
}
