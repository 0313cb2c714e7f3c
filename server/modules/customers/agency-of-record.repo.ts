import { and, desc, eq, gte, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { contracts, customerAgencies, customers } from '../../db/schema';

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

/** One period of an advertiser's representation, with both names. */
export type AgencyPeriodRow = {
  id: string;
  advertiserId: string;
  advertiserName: string;
  agencyId: string;
  agencyName: string;
  commissionBp: number;
  billingMode: 'net' | 'gross';
  fromDate: string;
  toDate: string | null;
};

/**
 * The agency of record covering `day` of each row of a customers select, as one JSON object (or null): a
 * subquery of the same statement (customer_agencies_advertiser_idx), so a list stays one statement. Written with
 * explicit table names: Drizzle leaves columns unqualified in a single-table select.
 */
export function agencyOfRecordOnSql(day: string): SQL<AgencyPeriodRow | null> {
  return sql<AgencyPeriodRow | null>`(select json_build_object(
      'id', ca.id, 'advertiserId', ca.advertiser_id, 'advertiserName', ${customers}.name,
      'agencyId', ca.agency_id, 'agencyName', ag.name, 'commissionBp', ca.commission_bp,
      'billingMode', ca.billing_mode, 'fromDate', ca.from_date, 'toDate', ca.to_date)
    from ${customerAgencies} as ca join ${customers} as ag on ag.id = ca.agency_id
    where ca.advertiser_id = ${customers}.id and ca.from_date <= ${day}::date
      and (ca.to_date is null or ca.to_date >= ${day}::date)
    limit 1)`;
}

const advertiser = alias(customers, 'advertiser');
const agency = alias(customers, 'agency');

function selectPeriods(db: Db) {
  return db
    .select({
      id: customerAgencies.id,
      advertiserId: customerAgencies.advertiserId,
      advertiserName: advertiser.name,
      agencyId: customerAgencies.agencyId,
      agencyName: agency.name,
      commissionBp: customerAgencies.commissionBp,
      billingMode: customerAgencies.billingMode,
      fromDate: customerAgencies.fromDate,
      toDate: customerAgencies.toDate,
    })
    .from(customerAgencies)
    .innerJoin(advertiser, eq(advertiser.id, customerAgencies.advertiserId))
    .innerJoin(agency, eq(agency.id, customerAgencies.agencyId));
}

/** Every period of the advertiser's representation, newest first. */
export async function selectPeriodsOfAdvertiser(db: Db, advertiserId: string): Promise<AgencyPeriodRow[]> {
  return selectPeriods(db)
    .where(eq(customerAgencies.advertiserId, advertiserId))
    .orderBy(desc(customerAgencies.fromDate), desc(customerAgencies.id));
}

/** Every period in which the agency represents (or represented) an advertiser, newest first. */
export async function selectPeriodsOfAgency(db: Db, agencyId: string): Promise<AgencyPeriodRow[]> {
  return selectPeriods(db)
    .where(eq(customerAgencies.agencyId, agencyId))
    .orderBy(desc(customerAgencies.fromDate), advertiser.name, desc(customerAgencies.id));
}

/** One period by id, with both names. */
export async function selectPeriod(db: Db, id: string): Promise<AgencyPeriodRow | undefined> {
  const [row] = await selectPeriods(db).where(eq(customerAgencies.id, id));
  return row;
}

const period = (from: string, to: string | null) => sql`daterange(${from}::date, ${to}::date, '[]')`;
const storedPeriod = sql`daterange(${customerAgencies.fromDate}, ${customerAgencies.toDate}, '[]')`;

/** The agency's period for the advertiser that overlaps these dates (the one a PUT changes), locked. */
export async function lockOverlappingPeriodOfAgency(
  tx: Db,
  advertiserId: string,
  agencyId: string,
  from: string,
  to: string | null,
): Promise<{ id: string } | undefined> {
  const [row] = await tx
    .select({ id: customerAgencies.id })
    .from(customerAgencies)
    .where(
      and(
        eq(customerAgencies.advertiserId, advertiserId),
        eq(customerAgencies.agencyId, agencyId),
        sql`${storedPeriod} && ${period(from, to)}`,
      ),
    )
    .orderBy(desc(customerAgencies.fromDate))
    .limit(1)
    .for('update');
  return row;
}

/**
 * The period a DELETE ends: the one covering `day`, of `agencyId` when given; for a given agency with none
 * covering the day, its next one to come. Locked.
 */
export async function lockPeriodToRemove(
  tx: Db,
  advertiserId: string,
  day: string,
  agencyId?: string,
): Promise<{ id: string; fromDate: string } | undefined> {
  const [row] = await tx
    .select({ id: customerAgencies.id, fromDate: customerAgencies.fromDate })
    .from(customerAgencies)
    .where(
      and(
        eq(customerAgencies.advertiserId, advertiserId),
        agencyId ? eq(customerAgencies.agencyId, agencyId) : undefined,
        or(isNull(customerAgencies.toDate), gte(customerAgencies.toDate, sql`${day}::date`)),
        agencyId ? undefined : lte(customerAgencies.fromDate, day),
      ),
    )
    .orderBy(customerAgencies.fromDate)
    .limit(1)
    .for('update');
  return row;
}

export type PeriodValues = {
  commissionBp: number;
  billingMode: 'net' | 'gross';
  fromDate: string;
  toDate: string | null;
};

export async function insertPeriod(
  tx: Db,
  values: PeriodValues & { advertiserId: string; agencyId: string; createdBy: string },
): Promise<string> {
  const [row] = await tx.insert(customerAgencies).values(values).returning({ id: customerAgencies.id });
  return row.id;
}

export async function updatePeriod(tx: Db, id: string, values: Partial<PeriodValues>): Promise<void> {
  await tx
    .update(customerAgencies)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(customerAgencies.id, id));
}

export async function deletePeriod(tx: Db, id: string): Promise<void> {
  await tx.delete(customerAgencies).where(eq(customerAgencies.id, id));
}

/** How many periods name the customer as the advertiser, and as the agency. */
export async function countPeriodsOfCustomer(
  tx: Db,
  customerId: string,
): Promise<{ asAdvertiser: number; asAgency: number }> {
  const [counts] = await tx
    .select({
      asAdvertiser: sql<number>`count(*) filter (where ${customerAgencies.advertiserId} = ${customerId})::int`,
      asAgency: sql<number>`count(*) filter (where ${customerAgencies.agencyId} = ${customerId})::int`,
    })
    .from(customerAgencies)
    .where(or(eq(customerAgencies.advertiserId, customerId), eq(customerAgencies.agencyId, customerId)));
  return counts;
}

/** How many contracts name the customer, as the customer or as the bill-to (contracts_customer_idx, contracts_bill_to_idx). */
export async function countContractsNaming(tx: Db, customerId: string): Promise<number> {
  const [{ n }] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(contracts)
    .where(or(eq(contracts.customerId, customerId), eq(contracts.billToCustomerId, customerId)));
  return n;
}

/** A rep's own customer (product.md section 3): one they created, or one they sell a contract to or bill through. */
export async function isOwnCustomer(db: Db, customerId: string, repId: string): Promise<boolean> {
  const [row] = await db
    .select({ own: sql<boolean>`true` })
    .from(customers)
    .where(
      and(
        eq(customers.id, customerId),
        or(
          eq(customers.createdBy, repId),
          sql`exists (select 1 from ${contracts} as sold where sold.sales_rep_id = ${repId}
                and (sold.customer_id = ${customerId} or sold.bill_to_customer_id = ${customerId}))`,
        ),
      ),
    );
  return Boolean(row);
}
