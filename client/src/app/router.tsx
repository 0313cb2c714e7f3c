import { lazy, Suspense } from 'react';
import { Route, Switch, useLocation } from 'wouter';
import { FullPageSpinner, Spinner } from '@/components/ui/feedback';
import { useCurrentUser } from '@/features/auth/api/me';
import { LoginForm } from '@/features/auth/components/login-form';
import { paths } from '@/lib/paths';
import { AppLayout } from './layout/app-layout';

// Route-level code splitting: each screen is its own chunk.
const Dashboard = lazy(() => import('./routes/dashboard'));
const Contracts = lazy(() => import('./routes/contracts'));
const NewContract = lazy(() => import('./routes/contract-new'));
const ContractDetail = lazy(() => import('./routes/contract-detail'));
const EditContract = lazy(() => import('./routes/contract-edit'));
const Customers = lazy(() => import('./routes/customers'));
const CustomerDetail = lazy(() => import('./routes/customer-detail'));
const Products = lazy(() => import('./routes/products'));
const Packages = lazy(() => import('./routes/packages'));
const Commissions = lazy(() => import('./routes/commissions'));
const Reports = lazy(() => import('./routes/reports'));
const Portal = lazy(() => import('./routes/portal'));
const Settings = lazy(() => import('./routes/settings'));
const Users = lazy(() => import('./routes/users'));
const Outbox = lazy(() => import('./routes/outbox'));
const PaymentSuccess = lazy(() => import('./routes/payment-success'));
const NotFound = lazy(() => import('./routes/not-found'));

export function AppRouter() {
  const [location] = useLocation();
  const { user, isLoading } = useCurrentUser();

  // Public, signed in or not.
  if (location === paths.paymentSuccess) {
    return (
      <Suspense fallback={<FullPageSpinner />}>
        <PaymentSuccess />
      </Suspense>
    );
  }
  if (isLoading) return <FullPageSpinner />;
  if (!user) return <LoginForm />;

  return (
    <AppLayout user={user}>
      <Suspense
        fallback={
          <div className="flex justify-center py-24">
            <Spinner />
          </div>
        }
      >
        <Switch>
          <Route path={paths.dashboard} component={Dashboard} />
          <Route path={paths.contracts} component={Contracts} />
          <Route path={paths.newContract} component={NewContract} />
          <Route path="/contracts/:id/edit" component={EditContract} />
          <Route path="/contracts/:id" component={ContractDetail} />
          <Route path={paths.customers} component={Customers} />
          <Route path="/customers/:id" component={CustomerDetail} />
          <Route path={paths.products} component={Products} />
          <Route path={paths.packages} component={Packages} />
          <Route path={paths.commissions} component={Commissions} />
          <Route path={paths.reports} component={Reports} />
          <Route path={paths.portal} component={Portal} />
          <Route path={paths.settings} component={Settings} />
          <Route path={paths.users} component={Users} />
          <Route path={paths.outbox} component={Outbox} />
          <Route component={NotFound} />
        </Switch>
      </Suspense>
    </AppLayout>
  );
}
