/** Every client route, typed: links and redirects use these, never string literals. */
export const paths = {
  dashboard: '/',
  login: '/login',
  contracts: '/contracts',
  newContract: '/contracts/new',
  contract: (id: string) => `/contracts/${id}`,
  editContract: (id: string) => `/contracts/${id}/edit`,
  customers: '/customers',
  customer: (id: string) => `/customers/${id}`,
  products: '/products',
  inventory: '/inventory',
  pipeline: '/pipeline',
  forecast: '/forecast',
  packages: '/packages',
  commissions: '/commissions',
  payouts: '/payouts',
  reports: '/reports',
  portal: '/portal',
  /** A client's own contract page (lines, schedule, invoices, delivery, documents). */
  portalContract: (id: string) => `/portal/contracts/${id}`,
  /** A client's payment methods on file and its autopay switch. */
  paymentMethods: '/portal/payment-methods',
  settings: '/settings',
  users: '/users',
  outbox: '/outbox',
  audit: '/audit',
  invoices: '/invoices',
  receivables: '/receivables',
  accounting: '/accounting',
  paymentSuccess: '/payment/success',
  setPassword: '/set-password',
  payLink: (token: string) => `/p/${token}`,
  checkout: (token: string) => `/checkout/${token}`,
  insertionOrder: (token: string) => `/io/${token}`,
  /** The public page where a customer saves a payment method (a set-up link). */
  paymentSetup: (token: string) => `/setup/${token}`,
} as const;

/**
 * Where a sign-in at the login address leads: its `next` parameter when that is a path of this app (never
 * another site, never the login address again), else the dashboard.
 */
export function afterSignIn(search: string): string {
  const next = new URLSearchParams(search).get('next');
  if (!next?.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return paths.dashboard;
  return new URL(next, 'http://app.invalid').pathname === paths.login ? paths.dashboard : next;
}

export const PRODUCT_NAME = 'AdCRM';
