import type { Permission } from '@shared/permissions';
import {
  BarChart3,
  Boxes,
  Calendar,
  CalendarRange,
  CircleDollarSign,
  FileSpreadsheet,
  FileText,
  HandCoins,
  LayoutDashboard,
  type LucideIcon,
  Mail,
  Package,
  Receipt,
  ScrollText,
  Settings,
  TrendingUp,
  UserCircle,
  Users,
  UsersRound,
  Wallet,
} from 'lucide-react';
import { paths } from '@/lib/paths';

export type NavItem = { label: string; href: string; icon: LucideIcon; permission?: Permission };

/** The sidebar of ui-spec.md section 2; each entry shows when the user holds its permission (shared/permissions.ts). */
export const mainNav: NavItem[] = [
  { label: 'Dashboard', href: paths.dashboard, icon: LayoutDashboard },
  { label: 'Contracts', href: paths.contracts, icon: FileText },
  { label: 'Customers', href: paths.customers, icon: UsersRound },
  { label: 'Pipeline', href: paths.pipeline, icon: TrendingUp, permission: 'nav:pipeline' },
  { label: 'Forecast', href: paths.forecast, icon: CalendarRange, permission: 'nav:forecast' },
  { label: 'Products', href: paths.products, icon: Boxes, permission: 'nav:products' },
  { label: 'Inventory', href: paths.inventory, icon: Calendar, permission: 'nav:inventory' },
  { label: 'Packages', href: paths.packages, icon: Package, permission: 'nav:packages' },
  { label: 'Users', href: paths.users, icon: Users, permission: 'nav:users' },
  { label: 'Reports', href: paths.reports, icon: BarChart3, permission: 'nav:reports' },
  { label: 'Commissions', href: paths.commissions, icon: HandCoins, permission: 'nav:commissions' },
  { label: 'Payouts', href: paths.payouts, icon: Wallet, permission: 'nav:payouts' },
  { label: 'Invoices', href: paths.invoices, icon: Receipt, permission: 'nav:invoices' },
  { label: 'Receivables', href: paths.receivables, icon: CircleDollarSign, permission: 'nav:receivables' },
  { label: 'Accounting', href: paths.accounting, icon: FileSpreadsheet, permission: 'accounting:export' },
  { label: 'Client Portal', href: paths.portal, icon: UserCircle, permission: 'nav:portal' },
  // The wallet is the payouts' icon too (never both in one sidebar): a card icon here would put the card fields' icon
  // in the signed-in shell's chunk, which the public payment pages would then load.
  { label: 'Payment methods', href: paths.paymentMethods, icon: Wallet, permission: 'payment-method:self' },
];

export const adminNav: NavItem[] = [
  { label: 'Settings', href: paths.settings, icon: Settings, permission: 'nav:settings' },
  { label: 'Outbox', href: paths.outbox, icon: Mail, permission: 'nav:outbox' },
  { label: 'Audit Trail', href: paths.audit, icon: ScrollText, permission: 'nav:audit' },
];
