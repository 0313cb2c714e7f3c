import type { User } from '@shared/contracts/auth';
import type { ComponentProps } from 'react';
import { initials } from '@/lib/format';

/** The header's user button (initials, name and e-mail): the user menu's trigger, and its stand-in until the menu has loaded. */
export function UserButton({ user, ...props }: { user: User } & ComponentProps<'button'>) {
  return (
    <button
      type="button"
      aria-label="User menu"
      className="flex items-center gap-3 rounded-md px-2 py-1 text-left hover:bg-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      {...props}
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
  );
}
