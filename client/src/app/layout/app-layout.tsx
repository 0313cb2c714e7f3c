import type { User } from '@shared/contracts/auth';
import { can } from '@shared/permissions';
import { ROLE_LABELS } from '@shared/roles';
import { Bell, LogOut, Megaphone, Menu } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { useLogout } from '@/features/auth/api/logout';
import { initials } from '@/lib/format';
import { PRODUCT_NAME, paths } from '@/lib/paths';
import { cn } from '@/lib/utils';
import { adminNav, mainNav, type NavItem } from './nav';

export function AppLayout({ user, children }: { user: User; children: ReactNode }) {
  const [mobileOpen, setMobileOpen] = useState(false);
  return (
    <div className="min-h-screen">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <Header user={user} onMenu={() => setMobileOpen((v) => !v)} />
      <div className="flex">
        <Sidebar user={user} open={mobileOpen} onNavigate={() => setMobileOpen(false)} />
        <main id="main" className="min-w-0 flex-1 px-4 py-6 sm:px-8">
          <div className="mx-auto max-w-7xl">{children}</div>
        </main>
      </div>
    </div>
  );
}

function Header({ user, onMenu }: { user: User; onMenu: () => void }) {
  const logout = useLogout();
  return (
    <header className="sticky top-0 z-40 flex h-16 items-center justify-between border-b bg-white/95 px-4 backdrop-blur sm:px-6">
      <div className="flex items-center gap-3">
        <Button variant="ghost" size="icon" className="lg:hidden" aria-label="Open navigation" onClick={onMenu}>
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
        <Button variant="ghost" size="icon" aria-label="Notifications">
          <Bell aria-hidden />
        </Button>
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <button
              type="button"
              aria-label="User menu"
              className="flex items-center gap-3 rounded-md px-2 py-1 text-left hover:bg-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            >
              <span className="flex size-8 items-center justify-center rounded-full bg-indigo-100 text-xs font-semibold text-indigo-700">
                {initials(user.firstName, user.lastName)}
              </span>
              <span className="hidden text-sm leading-tight md:block">
                <span className="block font-medium text-slate-900">
                  {user.firstName} {user.lastName}
                </span>
                <span className="block text-xs text-muted-foreground">{user.email}</span>
              </span>
            </button>
          </DropdownMenuTrigger>
          <DropdownMenuContent className="w-56">
            <DropdownMenuLabel>
              <span className="block font-medium">
                {user.firstName} {user.lastName}
              </span>
              <span className="block text-xs text-muted-foreground">{user.email}</span>
            </DropdownMenuLabel>
            <DropdownMenuSeparator />
            <DropdownMenuItem onSelect={() => logout.mutate()}>
              <LogOut aria-hidden /> Log out
            </DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
      </div>
    </header>
  );
}

function Sidebar({ user, open, onNavigate }: { user: User; open: boolean; onNavigate: () => void }) {
  const visible = (items: NavItem[]) => items.filter((item) => !item.permission || can(user, item.permission));
  const admin = visible(adminNav);
  return (
    <nav
      aria-label="Main"
      className={cn(
        'fixed inset-y-16 left-0 z-30 w-64 shrink-0 overflow-y-auto border-r bg-white px-3 py-4 transition-transform lg:sticky lg:top-16 lg:h-[calc(100vh-4rem)] lg:translate-x-0',
        open ? 'translate-x-0' : '-translate-x-full',
      )}
    >
      <NavList items={visible(mainNav)} onNavigate={onNavigate} />
      {admin.length > 0 && (
        <>
          <p className="mb-2 mt-6 px-3 text-xs font-semibold uppercase tracking-wider text-muted-foreground">
            Administration
          </p>
          <NavList items={admin} onNavigate={onNavigate} />
        </>
      )}
    </nav>
  );
}

function NavList({ items, onNavigate }: { items: NavItem[]; onNavigate: () => void }) {
  const [location] = useLocation();
  return (
    <ul className="grid gap-1">
      {items.map(({ label, href, icon: Icon }) => {
        const active = href === '/' ? location === '/' : location === href || location.startsWith(`${href}/`);
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
