import { lazy, type ReactNode, Suspense, useEffect } from 'react';
import { Route, Switch, useLocation } from 'wouter';
import { FullPageSpinner, Spinner } from '@/components/ui/spinner';
import { useCurrentUser } from '@/features/auth/api/me';
import { TOKEN_KEY } from '@/lib/api-client';
import { paths } from '@/lib/paths';
import { RouteErrorBoundary } from './route-error-boundary';

// The sign-in screen and the signed-in shell are chunks of their own too, so a visitor loads only the login
// and a signed-in user only the shell. Which one is needed is known before /api/auth/me answers (a stored token
// or not), so its download starts at once instead of after that round trip.
const loadLogin = () => import('@/features/auth/components/login-form');
const loadLayout = () => import('./layout/app-layout');
const LoginForm = lazy(() => loadLogin().then((module) => ({ default: module.LoginForm })));
const AppLayout = lazy(() => loadLayout().then((module) => ({ default: module.AppLayout })));
if (typeof localStorage !== 'undefined') void (localStorage.getItem(TOKEN_KEY) ? loadLayout() : loadLogin());

// Route-level code splitting: each screen is its own chunk.
const Dashboard = lazy(() => import('./routes/dashboard'));
const Contracts = lazy(() => import('./routes/contracts'));
const NewContract = lazy(() => import('./routes/contract-new'));
const ContractDetail = lazy(() => import('./routes/contract-detail'));
const EditContract = lazy(() => import('./routes/contract-edit'));
const Customers = lazy(() => import('./routes/customers'));
const CustomerDetail = lazy(() => import('./routes/customer-detail'));
const Products = lazy(() => import('./routes/products'));
const Inventory = lazy(() => import('./routes/inventory'));
const Packages = lazy(() => import('./routes/packages'));
const Commissions = lazy(() => import('./routes/commissions'));
const Payouts = lazy(() => import('./routes/payouts'));
const Reports = lazy(() => import('./routes/reports'));
const Portal = lazy(() => import('./routes/portal'));
const Settings = lazy(() => import('./routes/settings'));
const Users = lazy(() => import('./routes/users'));
const Outbox = lazy(() => import('./routes/outbox'));
const Audit = lazy(() => import('./routes/audit'));
const Invoices = lazy(() => import('./routes/invoices'));
const PaymentSuccess = lazy(() => import('./routes/payment-success'));
const SetPassword = lazy(() => import('./routes/set-password'));
const PayLink = lazy(() => import('./routes/pay-link'));
const Checkout = lazy(() => import('./routes/checkout'));
const NotFound = lazy(() => import('./routes/not-found'));

/** A page shown outside the signed-in shell: its own loading spinner, and an error card that fills the page. */
function StandalonePage({ location, children }: { location: string; children: ReactNode }) {
  return (
    <RouteErrorBoundary location={location} standalone>
      <Suspense fallback={<FullPageSpinner />}>{children}</Suspense>
    </RouteErrorBoundary>
  );
}

export function AppRouter() {
  const [location] = useLocation();
  const { user, isLoading } = useCurrentUser();
  // On the login screen, the shell is the next thing needed: fetch it once the screen has painted.
  const signedOut = !isLoading && !user;
  useEffect(() => {
    if (!signedOut) return;
    const timer = setTimeout(() => void loadLayout(), 1000);
    return () => clearTimeout(timer);
  }, [signedOut]);

  // Public, signed in or not: the payment pages, and a set-password link (invitation or reset).
  const publicPage =
    location === paths.paymentSuccess ? (
      <PaymentSuccess />
    ) : location.startsWith('/p/') ? (
      <PayLink />
    ) : location.startsWith('/checkout/') ? (
      <Checkout />
    ) : location === paths.setPassword ? (
      <SetPassword />
    ) : null;
  if (publicPage) return <StandalonePage location={location}>{publicPage}</StandalonePage>;
  if (isLoading) return <FullPageSpinner />;
  if (!user) {
    return (
      <StandalonePage location={location}>
        <LoginForm />
      </StandalonePage>
    );
  }

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
          <Route path={paths.inventory} component={Inventory} />
          <Route path={paths.packages} component={Packages} />
          <Route path={paths.commissions} component={Commissions} />
          <Route path={paths.payouts} component={Payouts} />
          <Route path={paths.reports} component={Reports} />
          <Route path={paths.portal} component={Portal} />
          <Route path={paths.settings} component={Settings} />
          <Route path={paths.users} component={Users} />
          <Route path={paths.outbox} component={Outbox} />
          <Route path={paths.audit} component={Audit} />
          <Route path={paths.invoices} component={Invoices} />
          <Route component={NotFound} />
        </Switch>
      </Suspense>
    </AppLayout>
  );
}
