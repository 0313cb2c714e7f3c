/** Every client route, typed: links and redirects use these, never string literals. */
export const paths = {
  dashboard: '/',
  contracts: '/contracts',
  newContract: '/contracts/new',
  contract: (id: string) => `/contracts/${id}`,
  editContract: (id: string) => `/contracts/${id}/edit`,
  customers: '/customers',
  customer: (id: string) => `/customers/${id}`,
  products: '/products',
  inventory: '/inventory',
  packages: '/packages',
  commissions: '/commissions',
  payouts: '/payouts',
  reports: '/reports',
  portal: '/portal',
  /** A client's own contract page (lines, schedule, invoices, delivery, documents). */
  portalContract: (id: string) => `/portal/contracts/${id}`,
  settings: '/settings',
  users: '/users',
  outbox: '/outbox',
  audit: '/audit',
  invoices: '/invoices',
  paymentSuccess: '/payment/success',
  setPassword: '/set-password',
  payLink: (token: string) => `/p/${token}`,
  checkout: (token: string) => `/checkout/${token}`,
} as const;

export const PRODUCT_NAME = 'AdCRM';
