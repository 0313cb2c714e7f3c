import type { Role } from './roles';

/**
 * The one permissions table. The server authorises every route with it (a route declares the
 * permissions it needs); the client uses the same `can()` only to hide what the server would refuse.
 * `:any` means every record, `:own` only the caller's (their contracts as sales rep, their customer
 * as a client); services narrow queries by which of the two the caller holds.
 */
export const PERMISSIONS = {
  'user:manage': ['super_admin', 'admin'],
  'user:manage-super-admin': ['super_admin'],
  /** Managers see the team (read-only) without create, edit or delete (product.md section 3). */
  'user:read': ['super_admin', 'admin', 'sales_manager'],

  'customer:read:any': ['super_admin', 'admin', 'sales_manager', 'sales', 'finance'],
  'customer:read:own': ['client'],
  'customer:write': ['super_admin', 'admin', 'sales_manager', 'sales'],
  'customer:delete': ['super_admin', 'admin'],

  'product:read': ['super_admin', 'admin', 'sales_manager', 'sales', 'finance'],
  'product:write': ['super_admin', 'admin'],

  'package:read': ['super_admin', 'admin', 'sales_manager', 'sales', 'finance'],
  'package:write': ['super_admin', 'admin', 'sales_manager', 'sales'],

  'contract:read:any': ['super_admin', 'admin', 'sales_manager', 'finance'],
  'contract:read:own': ['sales'],
  'contract:write:any': ['super_admin', 'admin', 'sales_manager'],
  'contract:write:own': ['sales'],
  'contract:assign-rep': ['super_admin', 'admin', 'sales_manager'],

  'invoice:read:any': ['super_admin', 'admin', 'sales_manager', 'finance'],
  'invoice:read:own': ['sales'],
  'invoice:manage': ['super_admin', 'admin', 'finance'],
  /** A client's own customer's invoices (the portal, Pay Now, PDFs). */
  'invoice:read:client': ['client'],

  'commission:read:any': ['super_admin', 'admin', 'sales_manager', 'finance'],
  'commission:read:own': ['sales'],
  'payout:request': ['sales'],
  'payout:review': ['super_admin', 'admin', 'finance'],

  /**
   * Payment methods on file and autopay (product.md section 18): staff see a customer's methods and consent, send
   * the set-up link and turn autopay off (never on); "Charge now" on an invoice is `invoice:manage`. A client
   * adds, makes default and removes its own customer's methods and turns its autopay on or off.
   */
  'payment-method:manage': ['super_admin', 'admin', 'finance'],
  'payment-method:self': ['client'],

  /**
   * The sales pipeline (product.md section 19): deals, the board, the forecast and activities. `:any` every
   * deal (and choosing its owner), `:own` a rep's own. Managers set the reps' forecast targets; admins the
   * pipeline's stages, lost reasons and rottenDays.
   */
  'deal:any': ['super_admin', 'admin', 'sales_manager'],
  'deal:own': ['sales'],
  'forecast:targets': ['super_admin', 'admin', 'sales_manager'],
  'pipeline:settings': ['super_admin', 'admin'],

  /**
   * Agencies (product.md section 20): setting an advertiser's agency of record and reading an agency's
   * advertisers and statements. `:any` every customer; `:own` a rep's own customers (those they created or sell
   * a contract to); `agency:statement:self` an agency's own client users, for their agency only.
   */
  'agency:manage:any': ['super_admin', 'admin', 'sales_manager'],
  'agency:manage:own': ['sales'],
  'agency:statement:any': ['super_admin', 'admin', 'sales_manager', 'finance'],
  'agency:statement:own': ['sales'],
  'agency:statement:self': ['client'],

  /** Who owes what: open balances by customer, aging, dunning stage, credit (the Receivables screen, finance's dashboard cards). */
  'receivables:read': ['super_admin', 'admin', 'sales_manager', 'finance'],

  'report:read:any': ['super_admin', 'admin', 'sales_manager', 'finance'],
  'report:read:own': ['sales'],

  'settings:read': ['super_admin', 'admin', 'sales_manager', 'sales', 'finance'],
  'settings:write': ['super_admin', 'admin'],
  /**
   * The company profile the documents and customer e-mails print (product.md sections 3 and 17): read and
   * changed by admins (the Settings screen's "Company" tab). Its logo is public.
   */
  'company:manage': ['super_admin', 'admin'],

  /** Keys for the business's other systems (product.md section 16): made, listed and revoked by admins. */
  'api-key:manage': ['super_admin', 'admin'],
  /** Webhook endpoints, their secrets and delivery logs (product.md section 16): admins; never an API key. */
  'webhook:manage': ['super_admin', 'admin'],

  /**
   * The accounting export (product.md section 16, decision 043): numbered batches of invoices, credit notes,
   * payments and refunds as Xero, QuickBooks or journal files, made and downloaded by finance and admins, who
   * also read the account codes (and see the screen in the sidebar). Admins set the codes with the business
   * settings' own `settings:write` (the Settings screen's "Accounting" tab).
   */
  'accounting:export': ['super_admin', 'admin', 'finance'],

  'outbox:read': ['super_admin', 'admin'],
  'audit:read': ['super_admin', 'admin'],

  'profile:self': ['super_admin', 'admin', 'sales_manager', 'sales', 'finance', 'client'],
  'portal:access': ['client'],
  'creative:upload': ['client'],
  /**
   * Delivery of CPM lines recorded per period, on the contract page or by CSV import (product.md section 12):
   * for any contract (finance reconciles the ad server's figures too), or a sales rep's own contracts.
   */
  'delivery:write:any': ['super_admin', 'admin', 'sales_manager', 'finance'],
  'delivery:write:own': ['sales'],
  /**
   * Availability of inventory products and who holds a day (product.md section 13): the people who sell them.
   * With `:any` a day's holders show every contract; with `:own` only the caller's own (as sales rep), and
   * others' as units booked or held with their end date, nothing that names the deal or the customer.
   */
  'inventory:read:any': ['super_admin', 'admin', 'sales_manager'],
  'inventory:read:own': ['sales'],
  'notification:self': ['super_admin', 'admin', 'sales_manager', 'sales', 'finance', 'client'],

  // Navigation (ui-spec.md section 2's sidebar table; finance adds the screens it works in).
  'nav:products': ['super_admin', 'admin', 'sales'],
  'nav:packages': ['super_admin', 'admin', 'sales'],
  'nav:users': ['super_admin', 'admin', 'sales_manager'],
  'nav:reports': ['super_admin', 'admin', 'sales_manager'],
  'nav:commissions': ['super_admin', 'admin', 'sales'],
  'nav:portal': ['client'],
  'nav:settings': ['super_admin', 'admin', 'sales_manager'],
  'nav:outbox': ['super_admin', 'admin'],
  'nav:invoices': ['super_admin', 'admin', 'finance'],
  'nav:payouts': ['super_admin', 'admin', 'finance'],
  'nav:receivables': ['super_admin', 'admin', 'sales_manager', 'finance'],
  'nav:audit': ['super_admin', 'admin'],
  'nav:inventory': ['super_admin', 'admin', 'sales_manager', 'sales'],
  'nav:pipeline': ['super_admin', 'admin', 'sales_manager', 'sales'],
  'nav:forecast': ['super_admin', 'admin', 'sales_manager', 'sales'],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

export type Actor = { role: Role } | null | undefined;

export function can(actor: Actor, permission: Permission): boolean {
  if (!actor) return false;
  return (PERMISSIONS[permission] as readonly Role[]).includes(actor.role);
}

export function canAny(actor: Actor, permissions: readonly Permission[]): boolean {
  return permissions.some((permission) => can(actor, permission));
}

export function rolesWith(permissions: readonly Permission[]): Role[] {
  const roles = new Set<Role>();
  for (const permission of permissions) for (const role of PERMISSIONS[permission]) roles.add(role);
  return [...roles];
}
