import type { User } from '@shared/contracts/auth';
import { BellRing, KeyRound, LogOut, UserRound } from 'lucide-react';
import { Link } from 'wouter';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { EmailText } from '@/components/ui/email-text';
import { useLogout } from '@/features/auth/api/logout';
import { NotificationBell } from '@/features/notifications/components/notification-bell';
import { paths } from '@/lib/paths';
import { UserButton } from './user-button';

/**
 * The header's menus, notifications and the user menu (Radix DropdownMenu). Loaded after the first paint
 * (app-layout.tsx shows their buttons meanwhile); `open` opens the one a user reached for before that.
 */
export function HeaderMenus({ user, open }: { user: User; open: 'bell' | 'user' | null }) {
  const logout = useLogout();
  return (
    <>
      <NotificationBell defaultOpen={open === 'bell'} />
      <DropdownMenu defaultOpen={open === 'user'}>
        <DropdownMenuTrigger asChild>
          <UserButton user={user} />
        </DropdownMenuTrigger>
        <DropdownMenuContent className="w-56">
          <DropdownMenuLabel>
            <span className="block font-medium">
              {user.firstName} {user.lastName}
            </span>
            <EmailText email={user.email} className="block text-xs text-muted-foreground" />
          </DropdownMenuLabel>
          <DropdownMenuSeparator />
          {/* Every role's own profile, password and e-mail preferences (the Settings screen shows its tabs). */}
          <DropdownMenuItem asChild>
            <Link href={paths.settings}>
              <UserRound aria-hidden /> Profile
            </Link>
          </DropdownMenuItem>
          <DropdownMenuItem asChild>
            <Link href={`${paths.settings}?tab=security`}>
              <KeyRound aria-hidden /> Password
            </Link>
          </DropdownMenuItem>
          <DropdownMenuItem asChild>
            <Link href={`${paths.settings}?tab=notifications`}>
              <BellRing aria-hidden /> Email Notifications
            </Link>
          </DropdownMenuItem>
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={() => logout.mutate()}>
            <LogOut aria-hidden /> Log out
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
    </>
  );
}
