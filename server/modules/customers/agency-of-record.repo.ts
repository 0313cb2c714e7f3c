import { and, eq, gte, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { customerAgencies } from '../../db/schema';

/** An advertiser's agency of record on one day: who bills for it, the commission and the billing mode. */
export type AgencyTerms = { agencyId: string; commissionBp: number; billingMode: 'net' | 'gross' };

/**
 * The agency of record of `advertiserId` on `day` (YYYY-MM-DD), or null: at most one by the exclusion constraint
 * customer_agencies_no_overlap. The contracts module asks it for a new contract's default bill-to.
 */
export async function selectAgencyOfRecordOn(db: Db, advertiserId: string, day: string): Promise<AgencyTerms | null> {
  const [row] = await db
    .select({
      agencyId: customerAgencies.agencyId,
      commissionBp: customerAgencies.commissionBp,
      billingMode: customerAgencies.billingMode,
    })
    .from(customerAgencies)
    .where(
      and(
        eq(customerAgencies.advertiserId, advertiserId),
        lte(customerAgencies.fromDate, day),
        or(isNull(customerAgencies.toDate), gte(customerAgencies.toDate, sql`${day}::date`)),
      ),
    )
    .limit(1);
  return row ?? null;
}
