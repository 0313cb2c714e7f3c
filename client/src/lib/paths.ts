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
  packages: '/packages',
  commissions: '/commissions',
  reports: '/reports',
  portal: '/portal',
  settings: '/settings',
  users: '/users',
  outbox: '/outbox',
  paymentSuccess: '/payment/success',
} as const;

export const PRODUCT_NAME = 'AdCRM';
