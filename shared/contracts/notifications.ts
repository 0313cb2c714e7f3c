import { z } from 'zod';

export const NOTIFICATION_TYPES = [
  'payment_received',
  'payment_failed',
  'contract_activated',
  'contract_expiring',
  'contract_amended',
  'contract_paused',
  'contract_resumed',
  'credit_note_issued',
  'delivery_under_pace',
  'delivery_remedy',
  'inventory_hold_expired',
  'payout_requested',
  'payout_approved',
  'payout_rejected',
  'payout_disbursed',
  'webhook_disabled',
  'io_accepted',
  'io_declined',
  'activity_due',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export const notificationSchema = z.object({
  id: z.string().uuid(),
  type: z.enum(NOTIFICATION_TYPES),
  title: z.string(),
  body: z.string(),
  link: z.string().nullable(),
  readAt: z.string().nullable(),
  createdAt: z.string(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const notificationListSchema = z.object({
  unreadCount: z.number().int().nonnegative(),
  items: z.array(notificationSchema),
});
export type NotificationList = z.infer<typeof notificationListSchema>;

export const notificationListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

export const notificationIdParamsSchema = z.object({ id: z.string().uuid() });

export const unreadCountSchema = z.object({ unreadCount: z.number().int().nonnegative() });
