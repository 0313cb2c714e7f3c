import type { User } from '@shared/contracts/auth';
import { Megaphone } from 'lucide-react';
import type { RefObject } from 'react';
import { Sheet, SheetContent, SheetTitle } from '@/components/ui/sheet';
import { PRODUCT_NAME } from '@/lib/paths';
import { NavEntries } from './app-layout';

/** Phones and tablets: the sidebar's entries in a sheet (Radix Dialog), loaded the first time it opens. */
export function MobileNav({
  user,
  open,
  onOpenChange,
  menuButton,
}: {
  user: User;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  menuButton: RefObject<HTMLButtonElement | null>;
}) {
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent
        aria-describedby={undefined}
        className="lg:hidden"
        // Closing gives the focus back to the menu button that opened the sheet.
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          menuButton.current?.focus();
        }}
      >
        <SheetTitle className="flex items-center gap-2 px-3 pt-1 font-semibold text-slate-900">
          <span className="flex size-8 items-center justify-center rounded-lg bg-primary text-white">
            <Megaphone className="size-4" aria-hidden />
          </span>
          {PRODUCT_NAME}
        </SheetTitle>
        <nav aria-label="Main">
          <NavEntries user={user} onNavigate={() => onOpenChange(false)} />
        </nav>
      </SheetContent>
    </Sheet>
  );
}
