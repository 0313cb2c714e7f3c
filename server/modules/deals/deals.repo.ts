import { randomUUID } from 'node:crypto';
import type { DealSort, StageKind, StageMilestone } from '@shared/contracts/deal-vocabulary';
import type { Role } from '@shared/roles';
import { and, asc, count, desc, eq, inArray, isNull, notInArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { contracts, customers, dealLines, deals, pipelineStages, products, users } from '../../db/schema';
import { type BoundedTotal, boundedTotal, countBound } from '../../lib/bounded-count';
import { rowsOf } from '../../lib/db-rows';
import { likePattern } from '../../lib/http';

export type DealRow = typeof deals.$inferSelect;
export type StageRow = typeof pipelineStages.$inferSelect;
export type DealLineRow = {
  dealId: string;
  productId: string;
  productName: string;
  quantity: number;
  unitPriceCents: number;
};

/** A deal with what its answer names: customer, owner, stage and contract. */
export type DealListRow = {
  deal: DealRow;
  customerName: string;
  ownerFirstName: string;
  ownerLastName: string;
  stage: StageRow;
  contractTitle: string | null;
  contractStatus: string | null;
};

/** Which deals a list or summary covers; `ownerId` is also the scope of a rep who sees only their own. */
export type DealFilter = {
  q?: string;
  stageId?: string;
  kind?: StageKind;
  ownerId?: string;
  customerId?: string;
  source?: string;
  closeFrom?: string;
  closeTo?: string;
  /** Open deals without activity since this moment (true) or the others (false). */
  stale?: { value: boolean; before: Date };
};

export async function selectStages(db: Db): Promise<StageRow[]> {
  return db.select().from(pipelineStages).orderBy(asc(pipelineStages.position), asc(pipelineStages.id));
}

function conditionsOf(filter: DealFilter): SQL | undefined {
  const conditions: SQL[] = [];
  if (filter.q) {
    // The title by deals_search_idx, the customer by customers_search_idx (its name, e-mail or company): two
    // index scans whose few matches are then ordered (an OR would walk the whole order index instead).
    const pattern = likePattern(filter.q);
    conditions.push(sql`${deals.id} in (
      select x.id from deals x where lower(x.title) like ${pattern}
      union all
      select x.id from deals x where x.customer_id in (
        select c.id from customers c
        where lower(c.name || ' ' || c.email || ' ' || coalesce(c.company, '')) like ${pattern}))`);
  }
  if (filter.stageId) conditions.push(eq(deals.stageId, filter.stageId));
  if (filter.kind) conditions.push(eq(pipelineStages.kind, filter.kind));
  if (filter.ownerId) conditions.push(eq(deals.ownerId, filter.ownerId));
  if (filter.customerId) conditions.push(eq(deals.customerId, filter.customerId));
  if (filter.source) conditions.push(eq(deals.source, filter.source));
  if (filter.closeFrom) conditions.push(sql`${deals.expectedCloseDate} >= ${filter.closeFrom}::date`);
  if (filter.closeTo) conditions.push(sql`${deals.expectedCloseDate} <= ${filter.closeTo}::date`);
  if (filter.stale) {
    const stale = sql`(${pipelineStages.kind} = 'open' and ${deals.lastActivityAt} < ${filter.stale.before.toISOString()}::timestamptz)`;
    conditions.push(filter.stale.value ? stale : sql`not ${stale}`);
  }
  return conditions.length ? and(...conditions) : undefined;
}

const SORT_COLUMNS: Record<DealSort, SQL | typeof deals.title> = {
  title: deals.title,
  amount: sql`${deals.amountCents}`,
  expectedCloseDate: sql`${deals.expectedCloseDate}`,
  probability: sql`coalesce(${deals.probability}, ${pipelineStages.probability})`,
  updatedAt: sql`${deals.updatedAt}`,
  createdAt: sql`${deals.createdAt}`,
};

const listColumns = {
  deal: deals,
  customerName: customers.name,
  ownerFirstName: users.firstName,
  ownerLastName: users.lastName,
  stage: pipelineStages,
  contractTitle: contracts.title,
  contractStatus: contracts.status,
};

function listQuery(db: Db) {
  return db
    .select(listColumns)
    .from(deals)
    .innerJoin(customers, eq(customers.id, deals.customerId))
    .innerJoin(users, eq(users.id, deals.ownerId))
    .innerJoin(pipelineStages, eq(pipelineStages.id, deals.stageId))
    .leftJoin(contracts, eq(contracts.id, deals.contractId));
}

/**
 * A page of deals in the chosen order (most recently changed first by default), and how many match, counted up
 * to the bound of lib/bounded-count.ts (a lower bound past it): two statements, the page's served by the
 * deals_updated_idx or deals_stage_idx order.
 */
export async function selectDealPage(
  db: Db,
  filter: DealFilter,
  page: { sort?: string; limit: number; offset: number },
): Promise<{ rows: DealListRow[] } & BoundedTotal> {
  const where = conditionsOf(filter);
  const key = (page.sort?.replace(/^-/, '') ?? 'updatedAt') as DealSort;
  const descending = page.sort ? page.sort.startsWith('-') : true;
  const column = SORT_COLUMNS[key] ?? SORT_COLUMNS.updatedAt;
  // Nulls last for the columns that have them; the others as their indexes run (deals_updated_idx, either way).
  const nullable = key === 'expectedCloseDate';
  const order = descending
    ? sql`${column} desc ${nullable ? sql`nulls last` : sql``}`
    : sql`${column} asc ${nullable ? sql`nulls last` : sql``}`;
  const tieBreak = descending ? desc(deals.id) : asc(deals.id);
  const bound = countBound(page);
  const matches = db
    .select({ one: sql`1` })
    .from(deals)
    .innerJoin(pipelineStages, eq(pipelineStages.id, deals.stageId))
    .where(where)
    .limit(bound + 1)
    .as('matches');
  const [rows, [{ total }]] = await Promise.all([
    listQuery(db).where(where).orderBy(order, tieBreak).limit(page.limit).offset(page.offset),
    db.select({ total: count() }).from(matches),
  ]);
  return { rows, ...boundedTotal(total, bound) };
}

export async function selectDeal(db: Db, id: string): Promise<DealListRow | undefined> {
  const [row] = await listQuery(db).where(eq(deals.id, id)).limit(1);
  return row;
}

/** The lines of the given deals with their products' names, in order. */
export async function selectDealLines(db: Db, dealIds: readonly string[]): Promise<DealLineRow[]> {
  if (dealIds.length === 0) return [];
  return db
    .select({
      dealId: dealLines.dealId,
      productId: dealLines.productId,
      productName: products.name,
      quantity: dealLines.quantity,
      unitPriceCents: dealLines.unitPriceCents,
    })
    .from(dealLines)
    .innerJoin(products, eq(products.id, dealLines.productId))
    .where(inArray(dealLines.dealId, [...dealIds]))
    .orderBy(asc(dealLines.dealId), asc(dealLines.position));
}

/**
 * Each stage with its deals' count, total and weighted total in cents (amount x the effective probability /
 * 100, rounded half up per deal, as shared/money's shareOfCents does for whole cents): one statement, stages
 * without deals included.
 */
export async function selectStageTotals(
  db: Db,
  filter: DealFilter,
): Promise<{ stage: StageRow; count: number; totalCents: number; weightedCents: number }[]> {
  const where = conditionsOf(filter);
  const matching = db
    .select({
      stageId: deals.stageId,
      n: sql<number>`count(*)`.as('n'),
      total: sql<string>`coalesce(sum(${deals.amountCents}), 0)`.as('total'),
      weighted:
        sql<string>`coalesce(sum((${deals.amountCents} * coalesce(${deals.probability}, ${pipelineStages.probability}) + 50) / 100), 0)`.as(
          'weighted',
        ),
    })
    .from(deals)
    .innerJoin(pipelineStages, eq(pipelineStages.id, deals.stageId))
    .where(where)
    .groupBy(deals.stageId)
    .as('matching');
  const rows = await db
    .select({ stage: pipelineStages, n: matching.n, total: matching.total, weighted: matching.weighted })
    .from(pipelineStages)
    .leftJoin(matching, eq(matching.stageId, pipelineStages.id))
    .orderBy(asc(pipelineStages.position), asc(pipelineStages.id));
  return rows.map((row) => ({
    stage: row.stage,
    count: Number(row.n ?? 0),
    totalCents: Number(row.total ?? 0),
    weightedCents: Number(row.weighted ?? 0),
  }));
}

export async function insertDeal(tx: Db, values: typeof deals.$inferInsert): Promise<DealRow> {
  const now = new Date();
  const [row] = await tx
    .insert(deals)
    .values({ createdAt: now, updatedAt: now, lastActivityAt: now, ...values })
    .returning();
  return row;
}

/** The deal's lines replaced by these, in order. */
export async function replaceDealLines(
  tx: Db,
  dealId: string,
  lines: readonly { productId: string; quantity: number; unitPrice: number }[],
): Promise<void> {
  await tx.delete(dealLines).where(eq(dealLines.dealId, dealId));
  if (lines.length === 0) return;
  await tx.insert(dealLines).values(
    lines.map((line, position) => ({
      dealId,
      position,
      productId: line.productId,
      quantity: line.quantity,
      unitPriceCents: line.unitPrice,
    })),
  );
}

/** The products named, those that exist. */
export async function selectProductIds(tx: Db, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await tx
    .select({ id: products.id })
    .from(products)
    .where(inArray(products.id, [...ids]))
    .for('key share');
  return new Set(rows.map((row) => row.id));
}

/**
 * The one change of a deal: its columns set and its version raised, only while its version is still
 * `version` (the caller's), in one conditional UPDATE; undefined when someone changed it meanwhile.
 */
export async function updateDealAtVersion(
  tx: Db,
  id: string,
  version: number,
  set: Partial<typeof deals.$inferInsert>,
): Promise<DealRow | undefined> {
  const [row] = await tx
    .update(deals)
    .set({ ...set, version: sql`${deals.version} + 1`, updatedAt: new Date(), lastActivityAt: new Date() })
    .where(and(eq(deals.id, id), eq(deals.version, version)))
    .returning();
  return row;
}

/** Deletes the deal if it is still at `version`, open and without a contract; whether it did. */
export async function deleteOpenDeal(tx: Db, id: string, version: number): Promise<boolean> {
  const deleted = await tx
    .delete(deals)
    .where(
      and(
        eq(deals.id, id),
        eq(deals.version, version),
        isNull(deals.contractId),
        sql`${deals.stageId} in (select id from pipeline_stages where kind = 'open')`,
      ),
    )
    .returning({ id: deals.id });
  return deleted.length > 0;
}

/** The active users of these roles among `ids`. */
export async function selectUsersWithRoles(
  db: Db,
  ids: readonly string[],
  roles: readonly Role[],
): Promise<{ id: string; firstName: string; lastName: string }[]> {
  if (ids.length === 0) return [];
  return db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(and(inArray(users.id, [...ids]), inArray(users.role, [...roles]), eq(users.isActive, true)));
}

export async function customerExists(db: Db, id: string): Promise<boolean> {
  const [row] = await db.select({ id: customers.id }).from(customers).where(eq(customers.id, id)).limit(1);
  return Boolean(row);
}

/** The deals' last activity moved up to `at` (never back), in one UPDATE; their version stays (not an edit). */
export async function touchDealActivity(tx: Db, dealIds: readonly string[], at: Date): Promise<void> {
  if (dealIds.length === 0) return;
  await tx
    .update(deals)
    .set({ lastActivityAt: sql`greatest(${deals.lastActivityAt}, ${at.toISOString()}::timestamptz)` })
    .where(inArray(deals.id, [...dealIds]));
}

// ---------------------------------------------------------------------------------------------------------
// Deals following their contracts (deals.follow.ts)
// ---------------------------------------------------------------------------------------------------------

export type MovedDeal = { id: string; ownerId: string; fromStageId: string; toStageId: string; contractId: string };

/**
 * Moves the deals of these contracts whose stage is of one of `fromKinds` (and not already `toStageId`) to
 * `toStageId`, in one UPDATE; a closing move sets closed_at and the lost reason (null for a win). Answers
 * the deals moved with the stage each left.
 */
export async function moveDealsOfContracts(
  tx: Db,
  contractIds: readonly string[],
  move: { toStageId: string; fromKinds: readonly StageKind[]; closes: boolean; lostReason: string | null; where?: SQL },
): Promise<MovedDeal[]> {
  if (contractIds.length === 0) return [];
  const now = new Date();
  const result = await tx.execute(sql`
    update deals d set
      stage_id = ${move.toStageId}, version = d.version + 1, updated_at = ${now.toISOString()}::timestamptz,
      last_activity_at = ${now.toISOString()}::timestamptz,
      closed_at = ${move.closes ? sql`${now.toISOString()}::timestamptz` : sql`null`},
      lost_reason = ${move.lostReason}
    from deals old join pipeline_stages s on s.id = old.stage_id
    where old.id = d.id and d.contract_id = any(${sql.param([...contractIds])}::uuid[])
      and s.kind = any(${sql.param([...move.fromKinds])}::text[]) and d.stage_id <> ${move.toStageId}
      ${move.where ? sql`and ${move.where}` : sql``}
    returning d.id, d.owner_id, old.stage_id as from_stage_id, d.contract_id`);
  type Moved = { id: string; owner_id: string; from_stage_id: string; contract_id: string };
  return rowsOf<Moved>(result).map((row) => ({
    id: row.id,
    ownerId: row.owner_id,
    fromStageId: row.from_stage_id,
    toStageId: move.toStageId,
    contractId: row.contract_id,
  }));
}

/** The stage with this milestone, or the won or lost one. */
export async function selectStageBy(
  db: Db,
  by: { milestone: StageMilestone } | { kind: 'won' | 'lost' },
): Promise<StageRow | undefined> {
  const where = 'milestone' in by ? eq(pipelineStages.milestone, by.milestone) : eq(pipelineStages.kind, by.kind);
  const [row] = await db.select().from(pipelineStages).where(where).orderBy(asc(pipelineStages.position)).limit(1);
  return row;
}

/** The status of these contracts and whether each has an accepted insertion order. */
export async function selectContractStanding(
  db: Db,
  contractId: string,
): Promise<{ status: string; signed: boolean } | undefined> {
  const result = await db.execute(sql`
    select c.status, exists (
      select 1 from insertion_orders io where io.contract_id = c.id and io.status = 'accepted'
    ) as signed
    from contracts c where c.id = ${contractId}`);
  return rowsOf<{ status: string; signed: boolean }>(result)[0];
}

// ---------------------------------------------------------------------------------------------------------
// The pipeline's stages (Settings, "Pipeline")
// ---------------------------------------------------------------------------------------------------------

/** Locks the stages (FOR UPDATE) so that two saves of the settings run one after the other. */
export async function lockStages(tx: Db): Promise<StageRow[]> {
  return tx.select().from(pipelineStages).orderBy(asc(pipelineStages.position)).for('update');
}

/** How many deals each of these stages holds. */
export async function countDealsInStages(tx: Db, stageIds: readonly string[]): Promise<Map<string, number>> {
  if (stageIds.length === 0) return new Map();
  const rows = await tx
    .select({ stageId: deals.stageId, n: count() })
    .from(deals)
    .where(inArray(deals.stageId, [...stageIds]))
    .groupBy(deals.stageId);
  return new Map(rows.map((row) => [row.stageId, row.n]));
}

/**
 * The stages saved as given, in order: those with an id updated, the others inserted, and every stage not in
 * the list deleted (the caller has checked they hold no deals), in one upsert. Milestones are cleared first so
 * that one may move from a stage to another.
 */
export async function saveStages(
  tx: Db,
  stages: readonly {
    id: string | null;
    name: string;
    probability: number;
    kind: StageKind;
    milestone: StageMilestone | null;
  }[],
): Promise<void> {
  const keep = stages.flatMap((stage) => (stage.id ? [stage.id] : []));
  await tx.delete(pipelineStages).where(keep.length ? notInArray(pipelineStages.id, keep) : sql`true`);
  await tx.update(pipelineStages).set({ milestone: null }).where(sql`${pipelineStages.milestone} is not null`);
  await tx
    .insert(pipelineStages)
    .values(
      stages.map((stage, position) => ({
        id: stage.id ?? randomUUID(),
        name: stage.name,
        position,
        probability: stage.probability,
        kind: stage.kind,
        milestone: stage.milestone,
      })),
    )
    .onConflictDoUpdate({
      target: pipelineStages.id,
      set: {
        name: sql`excluded.name`,
        position: sql`excluded.position`,
        probability: sql`excluded.probability`,
        kind: sql`excluded.kind`,
        milestone: sql`excluded.milestone`,
      },
    });
}

/**
 * The open deals whose money lands in [from, to] (their flight, or their expected close date when they have no
 * flight), with the probability they are weighted by, only these with `ids`: the forecast's pipeline
 * (deals_stage_idx serves the open stages).
 */
export async function selectOpenDealsLanding(
  db: Db,
  window: { from: string; to: string; ids?: readonly string[] },
): Promise<
  {
    id: string;
    ownerId: string;
    amountCents: number;
    probability: number;
    flightStart: string | null;
    flightEnd: string | null;
    expectedCloseDate: string | null;
  }[]
> {
  const starts = sql`coalesce(${deals.flightStart}, ${deals.expectedCloseDate})`;
  const ends = sql`coalesce(${deals.flightEnd}, ${deals.flightStart}, ${deals.expectedCloseDate})`;
  return db
    .select({
      id: deals.id,
      ownerId: deals.ownerId,
      amountCents: deals.amountCents,
      probability: sql<number>`coalesce(${deals.probability}, ${pipelineStages.probability})`.mapWith(Number),
      flightStart: deals.flightStart,
      flightEnd: deals.flightEnd,
      expectedCloseDate: deals.expectedCloseDate,
    })
    .from(deals)
    .innerJoin(pipelineStages, eq(pipelineStages.id, deals.stageId))
    .where(
      and(
        eq(pipelineStages.kind, 'open'),
        sql`${starts} <= ${window.to}::date`,
        sql`${ends} >= ${window.from}::date`,
        window.ids ? sql`${deals.id} = any(${sql.param([...window.ids])}::uuid[])` : undefined,
      ),
    );
}

// ---------------------------------------------------------------------------------------------------------
// Renewal deals (renewal-deals.service.ts)
// ---------------------------------------------------------------------------------------------------------

export type RenewalCandidateRow = typeof contracts.$inferSelect;

/**
 * Running contracts that got a renewal notice for their current end date and have no renewal deal for it yet
 * (renewal_notices' and deals_renewal_key's rows decide), with a rep.
 */
export async function selectRenewalCandidates(db: Db): Promise<RenewalCandidateRow[]> {
  return db
    .select()
    .from(contracts)
    .where(
      and(
        inArray(contracts.status, ['active', 'paused']),
        sql`${contracts.salesRepId} is not null`,
        sql`exists (select 1 from renewal_notices n
                    where n.contract_id = ${contracts.id} and n.auto_stop_date = ${contracts.autoStopDate})`,
        sql`not exists (select 1 from deals d
                        where d.renewal_of_contract_id = ${contracts.id} and d.renewal_end_date = ${contracts.autoStopDate})`,
      ),
    );
}

/** Renewal deals inserted once per contract and end date (ON CONFLICT on deals_renewal_key); the new ones. */
export async function insertRenewalDeals(
  tx: Db,
  rows: readonly (typeof deals.$inferInsert)[],
): Promise<{ id: string; title: string; amountCents: number; customerId: string }[]> {
  if (rows.length === 0) return [];
  const now = new Date();
  return tx
    .insert(deals)
    .values(rows.map((row) => ({ createdAt: now, updatedAt: now, lastActivityAt: now, ...row })))
    .onConflictDoNothing({ target: [deals.renewalOfContractId, deals.renewalEndDate] })
    .returning({ id: deals.id, title: deals.title, amountCents: deals.amountCents, customerId: deals.customerId });
}

/**
 * Each open renewal deal without a contract gets the renewal drafted for its contract (contracts_renewal_of_key:
 * one per contract) and moves to `toStageId` when that stage comes later: one UPDATE. The deals linked.
 */
export async function linkRenewalDrafts(
  tx: Db,
  toStageId: string | null,
  contractIds?: readonly string[],
): Promise<MovedDeal[]> {
  const now = new Date().toISOString();
  const result = await tx.execute(sql`
    update deals d set contract_id = r.id, version = d.version + 1, updated_at = ${now}::timestamptz,
      last_activity_at = ${now}::timestamptz,
      stage_id = case when ${toStageId}::uuid is not null and target.position > s.position then target.id else d.stage_id end
    from contracts r, pipeline_stages s
      left join pipeline_stages target on target.id = ${toStageId}::uuid
    where r.renewal_of_id = d.renewal_of_contract_id and s.id = d.stage_id and s.kind = 'open'
      and d.contract_id is null and r.status <> 'canceled'
      and not exists (select 1 from deals other where other.contract_id = r.id)
      ${contractIds ? sql`and d.renewal_of_contract_id = any(${sql.param([...contractIds])}::uuid[])` : sql``}
    returning d.id, d.owner_id, s.id as from_stage_id, d.stage_id as to_stage_id, d.contract_id`);
  type Row = { id: string; owner_id: string; from_stage_id: string; to_stage_id: string; contract_id: string };
  return rowsOf<Row>(result).map((row) => ({
    id: row.id,
    ownerId: row.owner_id,
    fromStageId: row.from_stage_id,
    toStageId: row.to_stage_id,
    contractId: row.contract_id,
  }));
}

/**
 * Open renewal deals whose contract ended (its end date passed) without a renewal that is not canceled: moved to
 * the lost stage with `reason`, in one UPDATE. The deals closed.
 */
export async function closeUnrenewed(tx: Db, lostStageId: string, reason: string, today: string): Promise<MovedDeal[]> {
  const now = new Date().toISOString();
  const result = await tx.execute(sql`
    update deals d set stage_id = ${lostStageId}, lost_reason = ${reason}, closed_at = ${now}::timestamptz,
      version = d.version + 1, updated_at = ${now}::timestamptz, last_activity_at = ${now}::timestamptz
    from pipeline_stages s
    where s.id = d.stage_id and s.kind = 'open' and d.renewal_of_contract_id is not null
      and d.renewal_end_date < ${today}::date
      and not exists (select 1 from contracts r where r.renewal_of_id = d.renewal_of_contract_id and r.status <> 'canceled')
    returning d.id, d.owner_id, s.id as from_stage_id, d.renewal_of_contract_id as contract_id`);
  type Row = { id: string; owner_id: string; from_stage_id: string; contract_id: string };
  return rowsOf<Row>(result).map((row) => ({
    id: row.id,
    ownerId: row.owner_id,
    fromStageId: row.from_stage_id,
    toStageId: lostStageId,
    contractId: row.contract_id,
  }));
}
