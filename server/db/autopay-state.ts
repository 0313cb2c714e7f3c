import { type SQL, sql } from 'drizzle-orm';

/**
 * Dunning and autopay are one schedule (product.md section 18): an open invoice billed to an autopay customer (on, with
 * a default active method) gets no reminder of section 14 while its charge is still to come or its retries are
 * pending; once it has no retry left (a hard decline, a charge that needs the customer, the last soft decline) or
 * the customer has no method to charge, the reminders go as before. The pause for non-payment is not held.
 * `invoice` is the alias of an invoices row.
 */
export function sqlAutopayHoldsReminders(invoice: string): SQL {
  const i = sql.raw(invoice);
  return sql`(exists (
      select 1 from customers acu
      join payment_methods am on am.customer_id = acu.id and am.is_default and am.removed_at is null and am.status = 'active'
      where acu.id = ${i}.bill_to_customer_id and acu.autopay_enabled)
    and not exists (
      select 1 from autopay_attempts aa
      where aa.invoice_id = ${i}.id and aa.retry_on is null and aa.status in ('failed', 'requires_action', 'skipped')
        and aa.attempt_number = (select max(ab.attempt_number) from autopay_attempts ab where ab.invoice_id = ${i}.id)))`;
}
