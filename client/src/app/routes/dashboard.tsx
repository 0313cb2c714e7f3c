import { useCurrentUser } from '@/features/auth/api/me';
import { AdminDashboard } from '@/features/dashboard/components/admin-dashboard';
import { ClientDashboard } from '@/features/dashboard/components/client-dashboard';
import { SalesDashboard } from '@/features/dashboard/components/sales-dashboard';
import { DashboardCardsSkeleton } from '@/features/dashboard/components/stat-card';
import { ClientInvoiceActions } from '../client-invoice-actions';
import { ClientPaymentAlerts } from '../client-payment-alerts';

/** The dashboard by role: sales and sales_manager get the sales view, clients theirs, everyone else the admin view. */
export default function DashboardPage() {
  const { user } = useCurrentUser();
  if (!user) return <DashboardCardsSkeleton />;
  if (user.role === 'sales' || user.role === 'sales_manager') return <SalesDashboard user={user} />;
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
