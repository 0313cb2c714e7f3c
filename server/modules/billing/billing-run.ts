import {
  agencyCommissionDescription,
  INVOICE_DUE_DAYS,
  PACKAGE_LINE_PREFIX,
  SEASON_MONTHS,
  SETUP_FEE_DESCRIPTION,
} from '@shared/billing';
import { methodLabel } from '@shared/contracts/autopay';
import type { PriceMetric } from '@shared/contracts/product-vocabulary';
import {
  type ContractSettings,
  DEFAULT_CONTRACT_SETTINGS,
  DEFAULT_TAX_SETTINGS,
  type TaxSettings,
} from '@shared/contracts/settings';
import { BASIS_POINTS, percentToBasisPoints } from '@shared/rates';
import { and, eq, sql } from 'drizzle-orm';
import { sqlBillingContactName, sqlBillingEmail } from '../../db/billing-recipient';
import type { Db } from '../../db/client';
import { billingRuns, contracts } from '../../db/schema';
import { businessToday } from '../../lib/business-day';
import { readCompanyProfile } from '../../lib/company-profile';
import { rowsOf } from '../../lib/db-rows';
import { enqueueEmails } from '../../lib/mailer';
import { earnCommissionForInvoice } from '../commissions/commissions.ledger';
import { changeContractStatuses } from '../contract-status/contract-status.service';
import { applyCustomerCredit } from '../credit-notes/credit-notes.ledger';
import {
  type InvoiceMailRow,
  invoiceIssuedEmail,
  invoiceMailFacts,
  mailRowRecipient,
  payWhereOf,
} from '../invoices/invoices.emails';
import { emitIssuedInvoiceEvents, sqlIssueInvoices } from '../invoices/invoices.ledger';
import { getSettings } from '../settings/settings.service';

/**
 * The billing run: issues every invoice that is due up to a day (today by default) for every active
 * contract, or for one contract, catching up on missed periods. Set-based: one INSERT ... SELECT over
 * generate_series per chunk of contracts (invoices, lines and audit events in the same statement; the
 * invoices' own INSERT is the invoice ledger's part of it, invoices/invoices.ledger.ts sqlIssueInvoices), one
 * UPDATE per chunk for the contracts that start billing (their subscription and pay link, with audit events),
 * the e-mails in one INSERT ... SELECT FROM unnest per batch, and one UPDATE for the contracts whose term has
 * ended.
 *
 * Exactly one invoice per contract and period, whatever runs at once: a chunk bills only the contracts it
 * has locked, from the period after their last invoice, and the unique constraint invoices_contract_period_key
 * backs that up (a duplicate would fail the chunk, never bill twice). Every invoice inserted takes the next
 * number of its year's gapless INV series in the same statement (decision 023). Each chunk is one
 * transaction, so a run killed half way leaves whole invoices only, numbers included, and the next run
 * issues the rest. See docs/decisions/011-billing.md.
 */

export type RunBillingOptions = {
  /** Bill every period that starts on or before this day (YYYY-MM-DD). Default: the business's today. */
  asOf?: string;
  /** Only this contract (after an activation or a resume). Such runs are not recorded in billing_runs. */
  contractId?: string;
  /** The public origin for links in e-mails (pay links, the client portal). */
  baseUrl?: string;
  /** Contracts per transaction. */
  chunkSize?: number;
  /** Stops the run between chunks (what is committed stays; the next run issues the rest). */
  signal?: AbortSignal;
};

export type RunBillingResult = {
  runId: number | null;
  asOf: string;
  invoicesIssued: number;
  contractsCompleted: number;
};

export type IssuedInvoice = {
  id: string;
  number: string;
  contractId: string;
  customerId: string;
  periodIndex: number;
  periodStart: string;
  totalCents: number;
};

const DEFAULT_CHUNK = 5_000;
/** The metric billed once (shared/billing.ts billsOnce). */
const ONCE_METRIC = 'flat' satisfies PriceMetric;
/** The metric billed per 1,000 impressions: its invoice lines carry the impressions booked. */
const CPM_METRIC = 'cpm' satisfies PriceMetric;
const MIN_CHUNK = 1;
const FALLBACK_BASE_URL = 'http://localhost:3000';

/** Runs billing (all active contracts, or one) and records whole runs in billing_runs. */
export async function runBilling(db: Db, options: RunBillingOptions = {}): Promise<RunBillingResult> {
  const asOf = options.asOf ?? businessToday();
  const recorded = !options.contractId;
  const runId = recorded
    ? (await db.insert(billingRuns).values({ asOf, status: 'running' }).returning({ id: billingRuns.id }))[0].id
    : null;
  let invoicesIssued = 0;
  try {
    const [tax, contractSettings] = await Promise.all([getSettings(db, 'tax'), getSettings(db, 'contracts')]);
    const context: BillingContext = {
      asOf,
      tax,
      contractSettings,
      baseUrl: (options.baseUrl ?? FALLBACK_BASE_URL).replace(/\/+$/, ''),
      email: true,
      applyCredit: true,
    };
    let afterId: string | null = null;
    let limit = options.chunkSize ?? DEFAULT_CHUNK;
    for (;;) {
      if (options.signal?.aborted) throw new Error('The billing run was stopped');
      let chunk: ChunkResult;
      try {
        chunk = await db.transaction((tx) =>
          billChunk(tx, context, { afterId, contractId: options.contractId ?? null, limit }),
        );
      } catch (error) {
        // A chunk too big for the query time limit (a long catch-up on a slow day) is retried smaller,
        // so that one heavy chunk can never stop billing for good.
        if (isTimeout(error) && limit > MIN_CHUNK) {
          limit = Math.max(MIN_CHUNK, Math.floor(limit / 4));
          continue;
        }
        throw error;
      }
      invoicesIssued += chunk.issued.length;
      if (chunk.lastContractId === null || chunk.contractsSeen < limit) break;
      afterId = chunk.lastContractId;
    }
    const contractsCompleted = await db.transaction((tx) =>
      completeExpiredContracts(tx, context, options.contractId ?? null),
    );
    if (runId !== null) {
      await db
        .update(billingRuns)
        .set({ status: 'succeeded', invoicesIssued, finishedAt: new Date() })
        .where(eq(billingRuns.id, runId));
    }
    return { runId, asOf, invoicesIssued, contractsCompleted };
  } catch (error) {
    if (runId !== null) {
      await db
        .update(billingRuns)
        .set({
          status: 'failed',
          invoicesIssued,
          finishedAt: new Date(),
          error: errorText(error),
        })
        .where(eq(billingRuns.id, runId))
        .catch(() => {});
    }
    throw error;
  }
}

/**
 * Issues the due invoices of one contract inside the caller's transaction (for example a checkout that
 * activates a sent contract and pays its first invoice at once). Returns the invoices it issued (none
 * when they already exist). The caller kicks the mailer after commit.
 */
export async function issueDueInvoices(
  tx: Db,
  options: { contractId: string; asOf?: string; baseUrl?: string; email?: boolean },
): Promise<IssuedInvoice[]> {
  const [tax, contractSettings] = await Promise.all([getSettings(tx, 'tax'), getSettings(tx, 'contracts')]);
  const result = await billChunk(
    tx,
    {
      asOf: options.asOf ?? businessToday(),
      tax,
      contractSettings,
      baseUrl: (options.baseUrl ?? FALLBACK_BASE_URL).replace(/\/+$/, ''),
      email: options.email ?? true,
      applyCredit: false,
    },
    { afterId: null, contractId: options.contractId, limit: 1 },
  );
  return result.issued;
}

// ---------------------------------------------------------------------------------------------------------
// Internals
// ---------------------------------------------------------------------------------------------------------

type BillingContext = {
  asOf: string;
  tax: TaxSettings;
  contractSettings: ContractSettings;
  baseUrl: string;
  /** Whether each issued invoice is e-mailed (a checkout paying it at once sends the receipt instead). */
  email: boolean;
  /**
   * Whether customers' credit balances pay the invoices issued (the billing run's); not for an invoice a
   * checkout issues to charge the card at once: the balance waits for the next one.
   */
  applyCredit: boolean;
};

type ChunkResult = { issued: IssuedInvoice[]; contractsSeen: number; lastContractId: string | null };

type IssuedRow = InvoiceMailRow & { customer_id: string; period_index: number; starts_billing: boolean };

type ChunkHead = {
  contracts_seen: string | number;
  last_contract_id: string | null;
  ids: string | null;
  /** The agency commission rates (basis points) of the chunk's contracts billed to an agency, comma-separated. */
  agency_bps: string | null;
};

/**
 * One chunk of contracts (keyset by id), one transaction: which contracts, then one statement that
 * issues their due invoices with lines and audit events, then the subscriptions and missing pay links of
 * the contracts that start billing, then their e-mails.
 */
async function billChunk(
  tx: Db,
  context: BillingContext,
  chunk: { afterId: string | null; contractId: string | null; limit: number },
): Promise<ChunkResult> {
  const taxBp = percentToBasisPoints(context.tax.defaultTaxRate ?? DEFAULT_TAX_SETTINGS.defaultTaxRate);
  const taxIncluded = context.tax.taxIncluded;
  const taxLabel = context.tax.taxLabel;
  const stopAtTerm =
    context.contractSettings.pausePaymentsAfterExpiry ?? DEFAULT_CONTRACT_SETTINGS.pausePaymentsAfterExpiry;
  const asOf = context.asOf;
  // When invoices are issued: now, for a run on today's date (catching up included). A run for a past
  // date (a replayed timeline, as the demo's history is made) issues them on that date, so that reports
  // by month see them where they belong.
  const issuedAt = sql`(case when ${asOf}::date < (now() at time zone 'utc')::date
    then (${asOf}::date + time '09:00') at time zone 'utc' else now() end)`;

  // The statement below is estimated as expensive (generate_series has no statistics), which would make
  // PostgreSQL JIT-compile it for seconds per chunk while it runs in milliseconds: no JIT for this one.
  await tx.execute(sql`set local jit = off`);

  const contractFilter = chunk.contractId ? sql`and c.id = ${chunk.contractId}` : sql``;
  const keyset = chunk.afterId ? sql`and c.id > ${chunk.afterId}` : sql``;

  // The chunk's contracts are chosen first, so that the keyset moves on even when none of them is due, and
  // locked in id order: a contract's lock is the first lock of every money path (a checkout paying its first
  // invoice issues it too), so billing waits for such a path instead of deadlocking with it.
  const head = rowsOf<ChunkHead>(
    await tx.execute(sql`
      select count(*) as contracts_seen, max(id::text) as last_contract_id, string_agg(id::text, ',') as ids,
             string_agg(distinct agency_commission_bp::text, ',') as agency_bps
      from (
        select c.id, c.agency_commission_bp from contracts c
        where c.status = 'active' ${contractFilter} ${keyset}
        order by c.id
        limit ${chunk.limit}
        for no key update of c
      ) chosen`),
  )[0];
  const contractsSeen = Number(head?.contracts_seen ?? 0);
  const lastContractId = head?.last_contract_id ?? null;
  if (contractsSeen === 0 || lastContractId === null) return { issued: [], contractsSeen, lastContractId: null };
  // Only the contracts locked above. One activated since is visible to the next statement, but it is billed
  // by its activation's own run or the next one, never here unlocked: updating its row (its pay link) while
  // that run holds it and waits for one of ours would deadlock.
  const lockedIds = sql`string_to_array(${head?.ids ?? ''}, ',')::uuid[]`;
  const locked = sql`and c.id = any(${lockedIds})`;
  // A net-billed invoice's commission line says its rate as shared/billing.ts writes it ("Agency commission 15%"):
  // the texts of the chunk's rates, looked up by rate in the statement.
  const agencyBps = (head?.agency_bps ?? '').split(',').filter(Boolean).map(Number);
  const agencyLines = sql`unnest(${sql.param(agencyBps)}::int[],
    ${sql.param(agencyBps.map(agencyCommissionDescription))}::text[]) as ad(bp, description)`;

  const issued = rowsOf<IssuedRow>(
    await tx.execute(sql`
      with due_contracts as (
        select c.id, c.customer_id, c.start_date, c.auto_stop_date, c.package_id, c.package_price_cents,
               c.setup_fee_cents, c.payment_mode, c.pay_link_token, c.title, c.description,
               c.agency_commission_bp, c.agency_billing_mode,
               c.stripe_subscription_id is null or (c.payment_mode = 'pay_link' and c.pay_link_token is null)
                 as starts_billing,
               coalesce(
                 (select i.period_index + 1 from invoices i where i.contract_id = c.id
                  order by i.period_start desc limit 1),
                 0) as from_index
        from contracts c
        where c.status = 'active' and c.start_date <= ${asOf}::date ${locked}
      ),
      -- The chunk's line items, found by the chunk's list: joined to billable periods directly, every line item of
      -- every contract would be read and hashed for each chunk (generate_series below makes the planner expect
      -- many more periods than there are).
      chunk_line_items as (
        select li.* from contract_line_items li where li.contract_id = any(${lockedIds})
      ),
      periods as (
        select d.*, n as period_index, (d.start_date + make_interval(months => n))::date as period_start,
               ((d.start_date + make_interval(months => n + 1))::date - 1) as period_end
        from due_contracts d
        cross join lateral generate_series(
          d.from_index,
          ((extract(year from ${asOf}::date) - extract(year from d.start_date)) * 12
            + extract(month from ${asOf}::date) - extract(month from d.start_date))::int
        ) as n
      ),
      -- A period that starts inside a manual pause is not billed; one inside a pause for non-payment is (the
      -- service ran), on resume, due a week after it is issued rather than a week after it started.
      billable as (
        select p.*,
               exists (
                 select 1 from contract_pauses cp
                 where cp.contract_id = p.id and cp.reason = 'non_payment' and cp.paused_on <= p.period_start
                   and (cp.resumed_on is null or p.period_start < cp.resumed_on)
               ) as billed_late
        from periods p
        where p.period_start <= ${asOf}::date
          and (${!stopAtTerm} or p.auto_stop_date is null or p.period_start < p.auto_stop_date)
          and not exists (
            select 1 from contract_pauses cp
            where cp.contract_id = p.id and cp.reason = 'manual' and cp.paused_on <= p.period_start
              and (cp.resumed_on is null or p.period_start < cp.resumed_on)
          )
      ),
      open_adjustments as (
        select a.* from contract_adjustments a
        where a.invoice_id is null and a.contract_id = any(${lockedIds})
      ),
      regular_lines as (
        -- shared/billing.ts billLine: a flat line once, in full, in the period its flight starts; a monthly
        -- or CPM line in every period its flight overlaps, prorated by days where it covers only part.
        select b.id as contract_id, b.period_index, 0 as sort_group, li.position * 2 as sort_key, 'product' as kind,
               pr.name as description, li.product_id, li.quantity,
               s.unit_price_cents, li.discount_cents,
               case when cov.prorated
                 then round(s.full_cents::numeric * cov.days / cov.period_days)::bigint
                 else s.full_cents end as amount_cents,
               s.seasonal, li.price_metric, cov.covers_start, cov.covers_end,
               case when cov.prorated then cov.days end as prorated_days,
               case when cov.prorated then cov.period_days end as period_days,
               null::uuid as adjustment_id, li.id as line_id,
               -- A CPM line's booked impressions for the days billed, prorated like its amount.
               case when li.price_metric = ${CPM_METRIC} then
                 case when cov.prorated then round(li.quantity::numeric * 1000 * cov.days / cov.period_days)::bigint
                      else li.quantity::bigint * 1000 end
               end as impressions,
               null::uuid as delivery_id
        from billable b
        join chunk_line_items li on li.contract_id = b.id
        join products pr on pr.id = li.product_id
        cross join lateral (
          select extract(month from b.period_start)::int = any(${sql.param([...SEASON_MONTHS])}::int[])
                 and li.seasonal_price_cents is not null as seasonal
        ) season
        cross join lateral (
          select season.seasonal,
                 case when season.seasonal then li.seasonal_price_cents else li.unit_price_cents end as unit_price_cents,
                 greatest(0, li.quantity * (case when season.seasonal then li.seasonal_price_cents
                                                 else li.unit_price_cents end) - li.discount_cents) as full_cents
        ) s
        cross join lateral (
          select case when li.price_metric = ${ONCE_METRIC} then li.flight_start
                      else greatest(li.flight_start, b.period_start) end as covers_start,
                 case when li.price_metric = ${ONCE_METRIC} then li.flight_end
                      else least(coalesce(li.flight_end, b.period_end), b.period_end) end as covers_end
        ) span
        cross join lateral (
          select span.covers_start, span.covers_end,
                 span.covers_end - span.covers_start + 1 as days,
                 b.period_end - b.period_start + 1 as period_days,
                 li.price_metric <> ${ONCE_METRIC}
                   and span.covers_end - span.covers_start + 1 < b.period_end - b.period_start + 1 as prorated
        ) cov
        where case when li.price_metric = ${ONCE_METRIC}
                then li.flight_start between b.period_start and b.period_end
                else li.flight_start <= b.period_end and (li.flight_end is null or li.flight_end >= b.period_start) end
        union all
        select b.id, b.period_index, 1, 0, 'package', ${PACKAGE_LINE_PREFIX} || pk.name, null, 1,
               b.package_price_cents, 0, b.package_price_cents, false, null, null, null, null, null, null,
               null, null, null
        from billable b
        join packages pk on pk.id = b.package_id
        union all
        select b.id, b.period_index, 2, 0, 'setup_fee', ${SETUP_FEE_DESCRIPTION}, null, 1,
               b.setup_fee_cents, 0, b.setup_fee_cents, false, null, null, null, null, null, null,
               null, null, null
        from billable b
        where b.period_index = 0 and b.setup_fee_cents > 0
      ),
      -- A period with nothing to bill (every flight over or not begun, flat lines billed, no package) issues no
      -- invoice (product.md section 17). The amendments' pending charges and credits go on the first invoice
      -- this run issues for the contract: the first billable period when there is a charge (it then bills
      -- something), else the first one whose own lines bill something (shared/billing.ts billingSchedule).
      period_bills as (
        select b.id, b.period_index,
               exists (select 1 from regular_lines l
                       where l.contract_id = b.id and l.period_index = b.period_index and l.amount_cents > 0) as bills
        from billable b
      ),
      first_billable as (
        select r.id,
               case when exists (select 1 from open_adjustments a where a.contract_id = r.id and a.amount_cents > 0)
                 then min(r.period_index)
                 else min(r.period_index) filter (where r.bills)
               end as period_index
        from period_bills r
        group by r.id
      ),
      pending as (
        select a.id as adjustment_id, a.contract_id, f.period_index, a.description, a.product_id, a.amount_cents,
               a.covers_start, a.covers_end, row_number() over (partition by a.contract_id
                 order by a.covers_start, a.created_at, a.id) as sort_key
        from open_adjustments a
        join first_billable f on f.id = a.contract_id and f.period_index is not null
      ),
      base_lines as (
        select * from regular_lines
        union all
        select p.contract_id, p.period_index, 3, p.sort_key, 'adjustment', p.description, p.product_id, 1,
               p.amount_cents, 0, p.amount_cents, false, null, p.covers_start, p.covers_end, null, null, p.adjustment_id,
               null, null, null
        from pending p
        where p.amount_cents > 0
      ),
      -- Credits go on the invoice when it still bills something with them all (an invoice is never $0.00 or
      -- below); otherwise they wait for a later invoice (shared/billing.ts draftInvoice).
      credits_carried as (
        select f.id, f.period_index
        from first_billable f
        where (select coalesce(sum(l.amount_cents), 0) from base_lines l
               where l.contract_id = f.id and l.period_index = f.period_index)
            + (select coalesce(sum(p.amount_cents), 0) from pending p
               where p.contract_id = f.id and p.amount_cents < 0) > 0
      ),
      -- Makegoods of under-delivered periods (product.md section 12): free impressions on the first invoice
      -- this run issues in which the line runs, as a $0.00 line after the line's own.
      makegood_lines as (
        select d.contract_id, min(l.period_index) as period_index, 0 as sort_group, min(l.sort_key) + 1 as sort_key,
               'makegood' as kind,
               'Makegood: ' || min(l.description) || ', shortfall of ' || to_char(d.period_start, 'FMMonth YYYY')
                 as description,
               min(l.product_id::text)::uuid as product_id, 1 as quantity, 0::bigint as unit_price_cents,
               0::bigint as discount_cents, 0::bigint as amount_cents, false as seasonal,
               ${CPM_METRIC}::text as price_metric, null::date as covers_start, null::date as covers_end,
               null::int as prorated_days, null::int as period_days, null::uuid as adjustment_id, d.line_id,
               d.shortfall_impressions as impressions, d.id as delivery_id
        from line_deliveries d
        join base_lines l on l.line_id = d.line_id and l.kind = 'product' and l.amount_cents > 0
        where d.remedy = 'makegood' and d.makegood_invoice_id is null
          and d.contract_id in (select id from first_billable)
        group by d.id, d.contract_id, d.line_id, d.period_start, d.shortfall_impressions
      ),
      lines as (
        select * from base_lines
        union all
        select * from makegood_lines
        union all
        select p.contract_id, p.period_index, 3, p.sort_key, 'adjustment', p.description, p.product_id, 1,
               p.amount_cents, 0, p.amount_cents, false, null, p.covers_start, p.covers_end, null, null, p.adjustment_id,
               null, null, null
        from pending p
        join credits_carried c on c.id = p.contract_id and c.period_index = p.period_index
        where p.amount_cents < 0
      ),
      sums as (
        select b.id as contract_id, b.customer_id, b.start_date, b.period_index, b.period_start, b.billed_late,
               b.agency_commission_bp, b.agency_billing_mode,
               coalesce(sum(l.amount_cents), 0)::bigint as subtotal_cents,
               coalesce(sum(l.amount_cents) filter (where l.kind = 'setup_fee'), 0)::bigint as setup_fee_cents,
               coalesce(bool_or(l.seasonal), false) as in_season
        from billable b
        left join lines l on l.contract_id = b.id and l.period_index = b.period_index
        group by b.id, b.customer_id, b.start_date, b.period_index, b.period_start, b.billed_late,
                 b.agency_commission_bp, b.agency_billing_mode
      ),
      -- shared/billing.ts agencyCommissionCents: the agency's rate x the media lines (the subtotal less the setup
      -- fee), half away from zero, never below 0; 0 without agency terms. Billed net, tax and the total are on the
      -- subtotal less it (the taxed amount); billed gross, on the subtotal.
      agency as (
        select s.*,
               case when s.agency_billing_mode is null or s.agency_commission_bp is null then 0::bigint
                 else greatest(0, round((s.subtotal_cents - s.setup_fee_cents)::numeric * s.agency_commission_bp
                                        / ${BASIS_POINTS}::int))::bigint
               end as agency_commission_cents
        from sums s
      ),
      taxed as (
        select a.*,
               a.subtotal_cents - case when a.agency_billing_mode = 'net' then a.agency_commission_cents else 0 end
                 as taxed_cents
        from agency a
      ),
      figures as (
        select t.*,
               case when ${taxIncluded}
                 then round(t.taxed_cents::numeric * ${taxBp} / (${BASIS_POINTS}::int + ${taxBp}))::bigint
                 else round(t.taxed_cents::numeric * ${taxBp} / ${BASIS_POINTS}::int)::bigint
               end as tax_cents
        from taxed t
      ),
      -- Only the periods that bill something are issued: no $0.00 invoice, and no number taken for one.
      totals as (
        select f.*, case when ${taxIncluded} then f.taxed_cents else f.taxed_cents + f.tax_cents end as total_cents
        from figures f
        where f.subtotal_cents > 0
      ),
      -- A net-billed invoice's last line: the agency's commission, negative, no product ("Agency commission 15%").
      commission_lines as (
        select t.contract_id, t.period_index, 4 as sort_group, 0 as sort_key, 'agency_commission' as kind,
               ad.description, null::uuid as product_id, 1 as quantity, -t.agency_commission_cents as unit_price_cents,
               0::bigint as discount_cents, -t.agency_commission_cents as amount_cents, false as seasonal,
               null::text as price_metric, null::date as covers_start, null::date as covers_end,
               null::int as prorated_days, null::int as period_days, null::uuid as adjustment_id, null::uuid as line_id,
               null::bigint as impressions, null::uuid as delivery_id
        from totals t
        join ${agencyLines} on ad.bp = t.agency_commission_bp
        where t.agency_billing_mode = 'net'
      ),
      -- Gapless numbers: the year's INV row of number_series takes this statement's count, and stays locked
      -- until the chunk commits, so a concurrent issuer numbers after it (decision 023).
      counter as (
        insert into number_series (series, year, last_value)
        select 'INV', extract(year from (${issuedAt}) at time zone 'utc')::int, count(*) from totals
        having count(*) > 0
        on conflict (series, year) do update set last_value = number_series.last_value + excluded.last_value
        returning year, last_value
      ),
      sequenced as (
        select t.*, k.year as number_year,
               k.last_value - (select count(*) from totals) + row_number() over (order by t.period_start, t.contract_id)
                 as number_value
        from totals t
        cross join counter k
      ),
      numbered as (
        select q.*,
               'INV-' || q.number_year || '-' || lpad(q.number_value::text, greatest(6, length(q.number_value::text)), '0')
                 as number
        from sequenced q
      ),
      -- What each invoice says, named as the invoices columns; the invoice ledger inserts them (and decides
      -- their status).
      issuing as (
        select n.number, n.contract_id, n.customer_id, n.period_index, n.period_start,
               ((n.start_date + make_interval(months => n.period_index + 1))::date - 1) as period_end,
               (case when n.billed_late then greatest(n.period_start, ${asOf}::date) else n.period_start end)
                 + ${INVOICE_DUE_DAYS}::int as due_date,
               n.subtotal_cents, n.setup_fee_cents, n.agency_commission_cents, n.agency_billing_mode,
               n.tax_cents, ${taxLabel}::text as tax_label,
               ${taxBp}::int as tax_rate_bp, ${taxIncluded}::boolean as tax_included, n.total_cents, n.in_season,
               ${issuedAt} as issued_at
        from numbered n
      ),
      ins as (${sqlIssueInvoices('issuing')}),
      ins_lines as (
        insert into invoice_lines (invoice_id, position, kind, description, product_id, quantity, unit_price_cents,
                                   discount_cents, amount_cents, seasonal, price_metric, covers_start, covers_end,
                                   prorated_days, period_days, line_id, impressions)
        select ins.id,
               (row_number() over (partition by ins.id order by l.sort_group, l.sort_key))::int - 1,
               l.kind, l.description, l.product_id, l.quantity, l.unit_price_cents, l.discount_cents,
               l.amount_cents, l.seasonal, l.price_metric, l.covers_start, l.covers_end, l.prorated_days, l.period_days,
               l.line_id, l.impressions
        from ins
        join (select * from lines union all select * from commission_lines) l
          on l.contract_id = ins.contract_id and l.period_index = ins.period_index
        returning invoice_id
      ),
      ins_adjustments as (
        update contract_adjustments a set invoice_id = ins.id
        from ins
        join lines l on l.contract_id = ins.contract_id and l.period_index = ins.period_index
        where l.adjustment_id = a.id
        returning a.id
      ),
      ins_makegoods as (
        update line_deliveries d set makegood_invoice_id = ins.id, updated_at = now()
        from ins
        join lines l on l.contract_id = ins.contract_id and l.period_index = ins.period_index
        where l.delivery_id = d.id
        returning d.id
      ),
      ins_audit as (
        insert into audit_events (actor_id, action, entity, entity_id, after)
        select null, 'invoice.issued', 'invoice', ins.id::text,
               jsonb_build_object('number', ins.number, 'contractId', ins.contract_id,
                                  'periodStart', ins.period_start, 'subtotalCents', ins.subtotal_cents,
                                  'agencyCommissionCents', ins.agency_commission_cents,
                                  'taxCents', ins.tax_cents, 'totalCents', ins.total_cents)
        from ins
        returning id
      )
      select ins.id, ins.number, ins.contract_id, ins.customer_id, ins.period_index,
             ins.period_start::text as period_start, ins.period_end::text as period_end,
             ins.due_date::text as due_date, ins.status, ins.total_cents, ins.amount_paid_cents,
             d.payment_mode, d.pay_link_token, d.starts_billing,
             d.title as contract_title, d.description as contract_description,
             cu.name as customer_name, ${sqlBillingEmail('cu')} as customer_email,
             ${sqlBillingContactName('cu')} as customer_contact_person,
             (select advertiser.name from customers advertiser
              where advertiser.id = ins.customer_id and ins.customer_id <> ins.bill_to_customer_id) as advertiser_name
      from ins
      join due_contracts d on d.id = ins.contract_id
      join customers cu on cu.id = ins.bill_to_customer_id
      order by ins.period_start, ins.number`),
  );

  await startBilling(tx, issued);

  // Customers' credit balances pay their new invoices ("Credit applied") before the invoices are e-mailed.
  if (context.applyCredit && issued.length > 0) {
    const applied = await applyCustomerCredit(
      tx,
      issued.map((row) => row.id),
    );
    const byId = new Map(issued.map((row) => [row.id, row]));
    for (const credit of applied) {
      const row = byId.get(credit.invoiceId);
      if (row) Object.assign(row, { status: credit.status, amount_paid_cents: credit.amountPaidCents });
      if (credit.status === 'paid') await earnCommissionForInvoice(tx, credit.invoiceId);
    }
  }
  // Other systems hear of the chunk's invoices (webhooks): one set-based statement per event type.
  await emitIssuedInvoiceEvents(
    tx,
    issued.map((row) => row.id),
  );
  if (context.email) await queueInvoiceEmails(tx, context, issued);

  return {
    contractsSeen,
    lastContractId,
    issued: issued.map((row) => ({
      id: row.id,
      number: row.number,
      contractId: row.contract_id,
      customerId: row.customer_id,
      periodIndex: Number(row.period_index),
      periodStart: row.period_start,
      totalCents: Number(row.total_cents),
    })),
  };
}

/**
 * Billing has started for the contracts among `issued` that had no subscription recorded or, in pay_link
 * mode, no pay link: the built-in provider records its subscription (when none is recorded), and a pay_link
 * contract billed without a pay link gets one, for its invoice e-mail (set on the rows here). Either means
 * "payment processing started" (the contract can no longer be edited or deleted, only canceled); each
 * contract gets an audit event. The chunk holds these contracts' locks, and the UPDATE is conditional anyway.
 * One statement for the chunk: the reports' statement triggers on contracts compare its old and new rows in
 * linear time (migration 0024).
 */
async function startBilling(tx: Db, issued: IssuedRow[]): Promise<void> {
  const starting = [...new Set(issued.filter((row) => row.starts_billing).map((row) => row.contract_id))];
  if (starting.length === 0) return;
  const ids = sql.param(starting);
  const links = rowsOf<{ id: string; pay_link_token: string | null }>(
    await tx.execute(sql`
      with links as (
        update contracts c
        set pay_link_token = case when c.payment_mode = 'pay_link' and c.pay_link_token is null
              then translate(encode(decode(
                replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''), 'hex'),
                'base64'), '+/=', '-_')
              else c.pay_link_token end,
            stripe_payment_link_id = case when c.payment_mode = 'pay_link'
              then coalesce(c.stripe_payment_link_id, 'plink_' || substr(replace(gen_random_uuid()::text, '-', ''), 1, 24))
              else c.stripe_payment_link_id end,
            stripe_subscription_id = coalesce(c.stripe_subscription_id,
              'sub_' || substr(replace(gen_random_uuid()::text, '-', ''), 1, 24)),
            updated_at = now()
        from contracts prior
        where c.id = any(${ids}::uuid[]) and prior.id = c.id
          and (c.stripe_subscription_id is null or (c.payment_mode = 'pay_link' and c.pay_link_token is null))
        returning c.id, c.pay_link_token, c.stripe_payment_link_id, c.stripe_subscription_id,
                  prior.stripe_payment_link_id as before_link, prior.stripe_subscription_id as before_subscription
      ),
      links_audit as (
        insert into audit_events (actor_id, action, entity, entity_id, before, after)
        select null, 'contract.billing_started', 'contract', links.id::text,
               jsonb_build_object('stripeSubscriptionId', links.before_subscription,
                                  'stripePaymentLinkId', links.before_link),
               jsonb_build_object('stripeSubscriptionId', links.stripe_subscription_id,
                                  'stripePaymentLinkId', links.stripe_payment_link_id)
        from links
        returning id
      )
      select links.id, links.pay_link_token from links`),
  );
  const tokens = new Map(links.map((link) => [link.id, link.pay_link_token]));
  for (const row of issued) {
    if (tokens.has(row.contract_id)) row.pay_link_token = tokens.get(row.contract_id) ?? null;
  }
}

/**
 * One e-mail per issued invoice, with the contract's pay link or the client portal's address; an autopay
 * customer's says when its card on file will be charged (product.md section 18).
 */
async function queueInvoiceEmails(tx: Db, context: BillingContext, issued: IssuedRow[]): Promise<void> {
  if (issued.length === 0) return;
  const company = await readCompanyProfile(tx);
  const autopay = await selectAutopayDefaults(tx, [...new Set(issued.map((row) => row.customer_id))]);
  const chargeOn = context.contractSettings.autopayChargeOn ?? DEFAULT_CONTRACT_SETTINGS.autopayChargeOn;
  await enqueueEmails(
    tx,
    issued.map((row) => {
      const method = autopay.get(row.customer_id);
      return invoiceIssuedEmail({
        invoice: invoiceMailFacts(row),
        customer: mailRowRecipient(row),
        company,
        pay: payWhereOf(context.baseUrl, row),
        autopay: method
          ? { method: methodLabel(method), on: chargeOn === 'issue_date' ? context.asOf : row.due_date }
          : null,
      });
    }),
  );
}

/** The method each of these customers' invoices will be charged to: autopay on, a default active method. */
async function selectAutopayDefaults(
  tx: Db,
  customerIds: readonly string[],
): Promise<Map<string, { brand: string; last4: string; kind: string }>> {
  if (customerIds.length === 0) return new Map();
  const rows = rowsOf<{ customer_id: string; brand: string; last4: string; kind: string }>(
    await tx.execute(sql`
      select m.customer_id, m.brand, m.last4, m.kind
      from payment_methods m
      join customers cu on cu.id = m.customer_id and cu.autopay_enabled
      where m.customer_id = any(${sql.param([...customerIds])}::uuid[])
        and m.is_default and m.removed_at is null and m.status = 'active'`),
  );
  return new Map(rows.map((row) => [row.customer_id, { brand: row.brand, last4: row.last4, kind: row.kind }]));
}

/**
 * With pausePaymentsAfterExpiry on, active contracts whose auto-stop date plus the grace period has
 * come are completed through the one writer of contract status (one conditional UPDATE for all of them,
 * with an audit event each). Off: billing continues.
 */
async function completeExpiredContracts(tx: Db, context: BillingContext, contractId: string | null): Promise<number> {
  if (!context.contractSettings.pausePaymentsAfterExpiry) return 0;
  const grace = context.contractSettings.gracePeriodsEndOfDays;
  const termEnded = sql`${contracts.autoStopDate} is not null and ${contracts.autoStopDate} + ${grace}::int <= ${context.asOf}::date`;
  const due = await tx
    .select({ id: contracts.id })
    .from(contracts)
    .where(and(eq(contracts.status, 'active'), termEnded, contractId ? eq(contracts.id, contractId) : undefined));
  const completed = await changeContractStatuses(
    tx,
    due.map((row) => row.id),
    { action: 'complete', actorId: null, baseUrl: context.baseUrl, onlyIf: termEnded },
  );
  return completed.length;
}

/** A query that hit the pool's time limit or PostgreSQL's statement_timeout (57014). */
function isTimeout(error: unknown): boolean {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const message = cause instanceof Error ? cause.message : String(cause);
  return /timeout/i.test(message) || (cause as { code?: string } | null)?.code === '57014';
}

/** The database's own message (Drizzle wraps it in "Failed query: <sql>"), short, for billing_runs.error. */
function errorText(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return (cause instanceof Error ? cause.message : String(cause)).slice(0, 500);
}
