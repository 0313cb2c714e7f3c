import { Bell } from 'lucide-react';
import type { ComponentProps } from 'react';
import { Button } from '@/components/ui/button';
import { useNotifications } from '../api/get-notifications';

/**
 * The header's notifications button with the unread count on the bell: the menu's trigger
 * (notification-bell.tsx), and its stand-in until the menu's code has loaded (app-layout.tsx), so the count
 * is there from the first paint.
 */
export function BellButton(props: ComponentProps<'button'>) {
  const notifications = useNotifications();
  const unread = notifications.data?.unreadCount ?? 0;
  return (
    <Button
      variant="ghost"
      size="icon"
      className="relative"
      aria-label={unread ? `Notifications, ${unread} unread` : 'Notifications'}
      data-testid="notification-bell"
      {...props}
    >
      <Bell aria-hidden />
      {unread > 0 && (
        <span
          aria-hidden
          data-testid="notification-count"
          className="absolute -right-0.5 -top-0.5 flex h-5 min-w-5 items-center justify-center rounded-full bg-red-600 px-1 text-[11px] font-semibold leading-none text-white ring-2 ring-white"
        >
          {unread > 99 ? '99+' : unread}
        </span>
      )}
    </Button>
  );
}
