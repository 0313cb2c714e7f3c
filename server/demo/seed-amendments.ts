import { addContractLineSchema } from '@shared/contracts/contract-api';
import { amendmentRefusal, computeAutoStopDate } from '@shared/contracts/contract-lifecycle';
import { centsToPlain } from '@shared/money';
import { and, asc, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../db/client';
import { contracts, products, users } from '../db/schema';
import { businessToday } from '../lib/business-day';
import { addContractLine } from '../modules/contracts/contract-amendments.service';

/**
 * One amendment, made the way staff make it (product.md section 11): on the oldest running contract whose
 * edit is locked, its sales rep adds a Timed QR Code Placement from today. The part of the period already
 * invoiced becomes a pending charge that the contract's next invoice carries, shown on its schedule.
 */
export async function seedAmendments(db: Db, options: { baseUrl?: string; today?: string } = {}): Promise<void> {
  const today = options.today ?? businessToday();
  const running = await db
    .select()
    .from(contracts)
    .where(and(eq(contracts.status, 'active'), isNotNull(contracts.salesRepId)))
    .orderBy(asc(contracts.startDate), asc(contracts.id));
  const contract = running.find((c) => {
    const termEnd = computeAutoStopDate(c.startDate, c.termMonths);
    return amendmentRefusal(c) === null && (termEnd === null || termEnd > today);
  });
  const [qr] = await db.select().from(products).where(eq(products.adType, 'timed_qr')).limit(1);
  if (!contract?.salesRepId || !qr) return;
  const [rep] = await db.select().from(users).where(eq(users.id, contract.salesRepId));
  if (!rep) return;
  const line = addContractLineSchema.parse({
    productId: qr.id,
    quantity: 1,
    unitPrice: centsToPlain(qr.defaultPriceCents),
    discount: 0,
    flightStart: today,
  });
  await addContractLine({ db, baseUrl: options.baseUrl ?? 'http://localhost:3000' }, rep, contract.id, line, today);
}
