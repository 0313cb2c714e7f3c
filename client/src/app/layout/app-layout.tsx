import type { User } from '@shared/contracts/auth';
import { can } from '@shared/permissions';
import { ROLE_LABELS } from '@shared/roles';
import { Megaphone, Menu } from 'lucide-react';
import { lazy, type ReactNode, type RefObject, Suspense, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { BellButton } from '@/features/notifications/components/bell-button';
import { PRODUCT_NAME, paths } from '@/lib/paths';
import { cn } from '@/lib/utils';
import { OptionalPartBoundary, RouteErrorBoundary } from '../route-error-boundary';
import { adminNav, mainNav, type NavItem } from './nav';
import { UserButton } from './user-button';

// Not needed to paint a screen (docs/decisions/017-performance.md): the header's menus load when a pointer or
// the focus reaches one of their buttons, the mobile navigation when it is opened.
const loadHeaderMenus = () => import('./header-menus');
const HeaderMenus = lazy(() => loadHeaderMenus().then((module) => ({ default: module.HeaderMenus })));
const MobileNav = lazy(() => import('./mobile-nav').then((module) => ({ default: module.MobileNav })));

export function AppLayout({ user, children }: { user: User; children: ReactNode }) {
  const [mobileOpen, setMobileOpen] = useState(false);
  const [sheetUsed, setSheetUsed] = useState(false);
  const [location] = useLocation();
  const menuButton = useRef<HTMLButtonElement>(null);
  return (
    <div className="min-h-screen">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <Header
        user={user}
        menuButton={menuButton}
        onMenu={() => {
          setSheetUsed(true);
          setMobileOpen(true);
        }}
      />
      <div className="flex">
        {/* Wide screens: the sidebar beside the page. Phones and tablets: the same entries in a sheet. */}
        <nav
          aria-label="Main"
          className="sticky top-16 hidden h-[calc(100vh-4rem)] w-64 shrink-0 overflow-y-auto border-r bg-white px-3 py-4 lg:block"
        >
          <NavEntries user={user} onNavigate={() => undefined} />
        </nav>
        {/* The sheet's code (Radix Dialog) loads the first time it is opened. */}
        {sheetUsed && (
          <OptionalPartBoundary name="navigation menu">
            <Suspense fallback={null}>
              <MobileNav user={user} open={mobileOpen} onOpenChange={setMobileOpen} menuButton={menuButton} />
            </Suspense>
          </OptionalPartBoundary>
        )}
        <main id="main" className="min-w-0 flex-1 px-4 py-6 sm:px-8">
          <div className="mx-auto max-w-7xl">
            <RouteErrorBoundary location={location}>{children}</RouteErrorBoundary>
          </div>
        </main>
      </div>
    </div>
  );
}

function Header({
  user,
  menuButton,
  onMenu,
}: {
  user: User;
  menuButton: RefObject<HTMLButtonElement | null>;
  onMenu: () => void;
}) {
  // The menus' code (Radix) loads when a button is pointed at or focused, and they replace their stand-ins
  // once one is used (it opens at once).
  const [reached, setReached] = useState<'bell' | 'user' | null>(null);
  const menus = reached !== null;
  return (
    <header className="sticky top-0 z-40 flex h-16 items-center justify-between border-b bg-white/95 px-4 backdrop-blur sm:px-6">
      <div className="flex items-center gap-3">
        <Button
          ref={menuButton}
          variant="ghost"
          size="icon"
          className="lg:hidden"
          aria-label="Open navigation"
          onClick={onMenu}
        >
          <Menu aria-hidden />
        </Button>
        <Link
          href={paths.dashboard}
          className="flex items-center gap-2 rounded-md font-semibold text-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          <span className="flex size-8 items-center justify-center rounded-lg bg-primary text-white">
            <Megaphone className="size-4" aria-hidden />
          </span>
          <span className="hidden sm:inline">{PRODUCT_NAME}</span>
        </Link>
        <Badge tone="indigo" data-testid="role-badge">
          {ROLE_LABELS[user.role] ?? user.role}
        </Badge>
      </div>
      <div className="flex items-center gap-2">
        {menus ? (
          <OptionalPartBoundary name="header menus">
            <Suspense fallback={<MenuButtons user={user} onReach={setReached} />}>
              <HeaderMenus user={user} open={reached} />
            </Suspense>
          </OptionalPartBoundary>
        ) : (
          <MenuButtons user={user} onReach={setReached} />
        )}
      </div>
    </header>
  );
}

/** The header's menu buttons as they look before their menus have loaded; using one loads and opens it. */
function MenuButtons({ user, onReach }: { user: User; onReach: (menu: 'bell' | 'user') => void }) {
  const prefetch = () => void loadHeaderMenus().catch(() => undefined);
  return (
    <>
      <BellButton aria-haspopup="menu" onPointerEnter={prefetch} onFocus={prefetch} onClick={() => onReach('bell')} />
      <UserButton
        user={user}
        aria-haspopup="menu"
        onPointerEnter={prefetch}
        onFocus={prefetch}
        onClick={() => onReach('user')}
      />
    </>
  );
}

/** The sidebar's entries (ui-spec.md section 2), each shown when the user holds its permission. */
export function NavEntries({ user, onNavigate }: { user: User; onNavigate: () => void }) {
  const visible = (items: NavItem[]) => items.filter((item) => !item.permission || can(user, item.permission));
  const admin = visible(adminNav);
  return (
    <>
      <NavList items={visible(mainNav)} onNavigate={onNavigate} />
      {admin.length > 0 && (
        <>
          <p className="mb-2 mt-6 px-3 text-xs font-semibold uppercase tracking-wider text-muted-foreground">
            Administration
          </p>
          <NavList items={admin} onNavigate={onNavigate} />
        </>
      )}
    </>
  );
}

/** Whether an entry's address is the location or one of its parents ("/portal" for "/portal/contracts/x"). */
const leadsTo = (href: string, location: string) =>
  href === '/' ? location === '/' : location === href || location.startsWith(`${href}/`);

function NavList({ items, onNavigate }: { items: NavItem[]; onNavigate: () => void }) {
  const [location] = useLocation();
  // The most specific entry is the current one: /portal/payment-methods is "Payment methods", not "Client Portal".
  const current = items
    .filter(({ href }) => leadsTo(href, location))
    .reduce<string | null>((best, { href }) => (best === null || href.length > best.length ? href : best), null);
  return (
    <ul className="grid gap-1">
      {items.map(({ label, href, icon: Icon }) => {
        const active = href === current;
        return (
          <li key={href}>
            <Link
              href={href}
              onClick={onNavigate}
              aria-current={active ? 'page' : undefined}
              className={cn(
                'flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
                active
                  ? 'bg-secondary text-secondary-foreground'
                  : 'text-slate-600 hover:bg-muted hover:text-slate-900',
              )}
            >
              <Icon className="size-4" aria-hidden />
              {label}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
