import type { Notification } from '@shared/contracts/notifications';
import { CheckCheck } from 'lucide-react';
import { useLocation } from 'wouter';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Skeleton } from '@/components/ui/feedback';
import { formatTimeAgo } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useNotifications } from '../api/get-notifications';
import { useMarkAllNotificationsRead } from '../api/mark-all-notifications-read';
import { useMarkNotificationRead } from '../api/mark-notification-read';
import { BellButton } from './bell-button';

/**
 * The header's notifications button: the unread count on the bell, and a menu of the newest notifications.
 * Choosing one marks it read and opens its record; "Mark all read" clears the count. A menu (arrow keys,
 * Escape, focus returned to the bell) so it works from the keyboard and with screen readers.
 */
/** `defaultOpen`: open at once (the header opens it when the bell was used before the menu had loaded). */
export function NotificationBell({ defaultOpen = false }: { defaultOpen?: boolean }) {
  const notifications = useNotifications();
  const markRead = useMarkNotificationRead();
  const markAll = useMarkAllNotificationsRead();
  const [, navigate] = useLocation();
  const unread = notifications.data?.unreadCount ?? 0;
  const items = notifications.data?.items ?? [];

  const open = (item: Notification) => {
    if (!item.readAt) markRead.mutate(item.id);
    if (item.link) navigate(item.link);
  };

  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>
        <BellButton />
      </DropdownMenuTrigger>
      <DropdownMenuContent
        aria-label="Notifications"
        className="w-[min(24rem,calc(100vw-1rem))] p-0"
        collisionPadding={8}
      >
        <div className="flex items-center justify-between gap-2 px-3 py-2">
          <p className="text-sm font-semibold text-slate-900">
            Notifications
            {unread > 0 && <span className="ml-1 font-normal text-muted-foreground">({unread} unread)</span>}
          </p>
        </div>
        <DropdownMenuSeparator />
        <div className="max-h-[min(24rem,70vh)] overflow-y-auto p-1">
          {notifications.isLoading ? (
            <div className="grid gap-2 p-2" aria-busy="true">
              {Array.from({ length: 3 }, (_, i) => (
                <Skeleton key={i} className="h-12" />
              ))}
            </div>
          ) : notifications.isError ? (
            <p className="px-3 py-6 text-center text-sm text-muted-foreground">Notifications could not be loaded.</p>
          ) : items.length === 0 ? (
            <p className="px-3 py-6 text-center text-sm text-muted-foreground">You're all caught up.</p>
          ) : (
            items.map((item) => (
              <DropdownMenuItem
                key={item.id}
                onSelect={() => open(item)}
                className="items-start gap-3 px-3 py-2.5"
                data-testid="notification-item"
                aria-label={`${item.readAt ? '' : 'Unread: '}${item.title}. ${item.body}`}
              >
                <span
                  aria-hidden
                  className={cn('mt-1.5 size-2 shrink-0 rounded-full', item.readAt ? 'bg-transparent' : 'bg-primary')}
                />
                <span className="min-w-0 flex-1">
                  <span
                    className={cn('block text-sm', item.readAt ? 'text-slate-700' : 'font-semibold text-slate-900')}
                  >
                    {item.title}
                  </span>
                  <span className="block break-words text-xs text-muted-foreground">{item.body}</span>
                  <time className="mt-0.5 block text-[11px] text-muted-foreground" dateTime={item.createdAt}>
                    {formatTimeAgo(item.createdAt)}
                  </time>
                </span>
              </DropdownMenuItem>
            ))
          )}
        </div>
        {unread > 0 && (
          <>
            <DropdownMenuSeparator />
            <DropdownMenuItem
              className="m-1 justify-center font-medium text-primary"
              onSelect={(event) => {
                event.preventDefault();
                markAll.mutate();
              }}
            >
              <CheckCheck aria-hidden /> Mark all read
            </DropdownMenuItem>
          </>
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
