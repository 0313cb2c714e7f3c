import type { outboxEmails } from '../db/schema';

type OutboxRow = typeof outboxEmails.$inferSelect;

/**
 * A stored message as its recipient receives it: the full parts the SMTP delivery sends (a message with a
 * capability link keeps them apart from what staff may read; lib/capability-links.ts).
 */
export function asDelivered<T extends OutboxRow>(row: T): T {
  return { ...row, text: row.deliveryText ?? row.text, html: row.deliveryHtml ?? row.html };
}
