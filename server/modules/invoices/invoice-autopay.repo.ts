import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { autopayAttempts, customers, paymentMethods } from '../../db/schema';

/**
 * What an invoice's autopay shows (product.md section 18), read from the autopay module's tables: its customer's
 * switch and default method, and the invoice's attempts with the method each charged. Reads only: autopay writes.
 */
export async function selectInvoiceAutopayFacts(db: Db, invoiceId: string, customerId: string) {
  const [customer, defaults, attempts] = await Promise.all([
    db.select({ autopayEnabled: customers.autopayEnabled }).from(customers).where(eq(customers.id, customerId)),
    db
      .select({ brand: paymentMethods.brand, last4: paymentMethods.last4, kind: paymentMethods.kind })
      .from(paymentMethods)
      .where(
        and(
          eq(paymentMethods.customerId, customerId),
          eq(paymentMethods.isDefault, true),
          eq(paymentMethods.status, 'active'),
          isNull(paymentMethods.removedAt),
        ),
      ),
    db
      .select({
        attempt: autopayAttempts,
        method: { brand: paymentMethods.brand, last4: paymentMethods.last4, kind: paymentMethods.kind },
      })
      .from(autopayAttempts)
      .innerJoin(paymentMethods, eq(paymentMethods.id, autopayAttempts.paymentMethodId))
      .where(eq(autopayAttempts.invoiceId, invoiceId))
      .orderBy(asc(autopayAttempts.attemptNumber)),
  ]);
  return { autopayEnabled: customer[0]?.autopayEnabled ?? false, defaultMethod: defaults[0] ?? null, attempts };
}
