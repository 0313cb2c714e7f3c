import { type ComponentType, lazy, type ReactNode, Suspense } from 'react';
import { Redirect, Route, Switch, useLocation, useSearch } from 'wouter';
import { FullPageSpinner, Spinner } from '@/components/ui/spinner';
import { meQueryOptions, useCurrentUser } from '@/features/auth/api/me';
import { LoginForm } from '@/features/auth/components/login-form';
import { TOKEN_KEY } from '@/lib/api-client';
import { afterSignIn, paths } from '@/lib/paths';
import { preloadableLazy, usePreloaded } from '@/lib/preloadable-lazy';
import { queryClient } from '@/lib/query-client';
import { RouteErrorBoundary } from './route-error-boundary';

// The sign-in screen is part of the entry: a visitor's browser gets it with the first scripts (modulepreload
// in index.html), not one round trip after them. The signed-in shell and each screen are chunks of their own,
// loaded after sign-in; on a signed-in first load (a stored token) the shell and the screen at the address
// start downloading as soon as the entry runs, together and before /api/auth/me answers.
const AppLayout = preloadableLazy(() =>
  import('./layout/app-layout').then((module) => ({ default: module.AppLayout })),
);

type Screen = { path?: string; load: () => Promise<{ default: ComponentType }> };

/** The signed-in screens, in the order they are matched; the last one (no path) matches any address. */
const SCREENS: Screen[] = [
  { path: paths.dashboard, load: () => import('./routes/dashboard') },
  { path: paths.contracts, load: () => import('./routes/contracts') },
  { path: paths.newContract, load: () => import('./routes/contract-new') },
  { path: '/contracts/:id/edit', load: () => import('./routes/contract-edit') },
  { path: '/contracts/:id', load: () => import('./routes/contract-detail') },
  { path: paths.customers, load: () => import('./routes/customers') },
  { path: '/customers/:id', load: () => import('./routes/customer-detail') },
  { path: paths.products, load: () => import('./routes/products') },
  { path: paths.inventory, load: () => import('./routes/inventory') },
  { path: paths.pipeline, load: () => import('./routes/pipeline') },
  { path: paths.forecast, load: () => import('./routes/forecast') },
  { path: paths.packages, load: () => import('./routes/packages') },
  { path: paths.commissions, load: () => import('./routes/commissions') },
  { path: paths.payouts, load: () => import('./routes/payouts') },
  { path: paths.reports, load: () => import('./routes/reports') },
  { path: paths.portal, load: () => import('./routes/portal') },
  { path: paths.paymentMethods, load: () => import('./routes/payment-methods') },
  { path: '/portal/contracts/:id', load: () => import('./routes/portal-contract') },
  { path: paths.settings, load: () => import('./routes/settings') },
  { path: paths.users, load: () => import('./routes/users') },
  { path: paths.outbox, load: () => import('./routes/outbox') },
  { path: paths.audit, load: () => import('./routes/audit') },
  { path: paths.invoices, load: () => import('./routes/invoices') },
  { path: paths.receivables, load: () => import('./routes/receivables') },
  { path: paths.accounting, load: () => import('./routes/accounting') },
  { load: () => import('./routes/not-found') },
];
const screens = SCREENS.map(({ path, load }) => ({ path, Page: preloadableLazy(load) }));

/** Whether a screen's path (`/contracts/:id`) matches an address, as wouter's Switch matches it. */
const matches = (path: string | undefined, pathname: string) =>
  path === undefined || new RegExp(`^${path.replace(/:\w+/g, '[^/]+')}/?$`, 'i').test(pathname);

const screenAt = (pathname: string) => screens.find(({ path }) => matches(path, pathname));

/** The login address (a bookmark, a typed address): the login screen, then where the person was heading. */
const isLoginAddress = (pathname: string) => matches(paths.login, pathname);

// Public pages, signed in or not: the payment pages, an insertion order's link, a payment method's set-up link,
// and a set-password link (invitation or reset).
const PaymentSuccess = lazy(() => import('./routes/payment-success'));
const SetPassword = lazy(() => import('./routes/set-password'));
const PayLink = lazy(() => import('./routes/pay-link'));
const Checkout = lazy(() => import('./routes/checkout'));
const InsertionOrder = lazy(() => import('./routes/insertion-order'));
const PaymentSetup = lazy(() => import('./routes/payment-setup'));

function publicPage(location: string): ComponentType | null {
  if (location === paths.paymentSuccess) return PaymentSuccess;
  if (location.startsWith('/p/')) return PayLink;
  if (location.startsWith('/checkout/')) return Checkout;
  if (location.startsWith('/io/')) return InsertionOrder;
  if (location.startsWith('/setup/')) return PaymentSetup;
  if (location === paths.setPassword) return SetPassword;
  return null;
}

/** A stored token: most likely signed in (the server says for sure with /api/auth/me). */
const hasToken = () => typeof localStorage !== 'undefined' && localStorage.getItem(TOKEN_KEY) !== null;

/**
 * Starts downloading the shell and the screen at an address; a failure shows when the part renders
 * (RouteErrorBoundary offers a reload).
 */
function preloadSignedIn(pathname: string) {
  for (const part of [AppLayout, screenAt(pathname)?.Page]) part?.preload().catch(() => undefined);
}

// As soon as the entry runs, before React's first render: who is signed in (asked first, so that over HTTP/1.1
// it does not wait for a free connection behind the scripts), and with a stored token the shell and the screen.
if (typeof window !== 'undefined') {
  void queryClient.prefetchQuery(meQueryOptions);
  const { pathname, search } = window.location;
  if (hasToken() && !publicPage(pathname)) {
    preloadSignedIn(isLoginAddress(pathname) ? afterSignIn(search).split('?')[0] : pathname);
  }
}

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
  const search = useSearch();
  const { user, isLoading } = useCurrentUser();
  // At the login address the screen to come is the one the sign-in leads to.
  const destination = isLoginAddress(location) ? afterSignIn(search) : location;
  // The shell and the screen, when their downloads have started (a first load, a sign-in): this spinner until
  // they are there, rather than Suspense fallbacks that React would hold the screen back behind.
  const partsThere = usePreloaded(user ? [AppLayout, screenAt(destination.split('?')[0])?.Page] : []);

  const PublicPage = publicPage(location);
  if (PublicPage) {
    return (
      <StandalonePage location={location}>
        <PublicPage />
      </StandalonePage>
    );
  }
  // Without a stored token the login screen paints at once, while /api/auth/me still asks (a session
  // cookie alone may sign the browser in: the shell replaces the form then). With a token, a spinner until
  // the server has answered.
  if (isLoading && hasToken()) return <FullPageSpinner />;
  if (!user) {
    return (
      <StandalonePage location={location}>
        {/* Signing in: the shell's and the screen's downloads start with the sign-in request, not after it. */}
        <LoginForm onSignIn={() => preloadSignedIn(destination.split('?')[0])} />
      </StandalonePage>
    );
  }

  if (destination !== location) return <Redirect to={destination} replace />;
  if (!partsThere) return <FullPageSpinner />;

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
          {screens.map(({ path, Page }) => (
            <Route key={path ?? '*'} path={path} component={Page} />
          ))}
        </Switch>
      </Suspense>
    </AppLayout>
  );
}
