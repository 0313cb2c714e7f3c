import type { AgingBucket } from '@shared/contracts/receivables-vocabulary';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { sqlPausedForNonPayment, sqlReminderLevel } from '../../db/dunning-stage';
import { sqlAmountDue, sqlPayable } from '../../db/invoice-amounts';
import { contracts } from '../../db/schema';
import { likePattern } from '../../lib/http';

/**
 * Receivables' SQL: who owes what, one statement each. The open invoices (pending or failed:
 * invoices_open_customer_idx) are summed per customer by the invoice rules' SQL twins (db/invoice-amounts.ts:
 * amount due) and aged by days past due on the business day; a customer's dunning stage is the furthest step
 * among its overdue invoices (db/dunning-stage.ts: the reminders in dunning_steps, the contract's pause for
 * non-payment). Customers with only a credit balance come from customers_credit_idx. An open invoice's autopay
 * failed when its latest attempt (the highest attempt number: autopay_attempts_invoice_attempt_key) failed or
 * needs the customer.
 */

type Rows<T> = { rows: T[] };
const rowsOf = <T>(result: unknown) => (result as Rows<T>).rows;
const int = (value: unknown) => Number(value ?? 0);

/** 0 overdue without a reminder, 1 and 2 after the first and second reminder, 3 its contract paused for non-payment. */
export type StageLevel = 0 | 1 | 2 | 3;

export type ReceivableFilter = {
  q?: string;
  bucket?: AgingBucket;
  stageLevel?: StageLevel;
  onlyCredit?: boolean;
  /** Only customers with an open invoice, still owing, whose latest autopay attempt failed. */
  autopayFailed?: boolean;
  sort: 'balance' | 'oldest';
};

export type ReceivableFigures = {
  customerId: string;
  customerName: string;
  company: string | null;
  openCents: number;
  agingCents: Record<AgingBucket, number>;
  openInvoices: number;
  overdueInvoices: number;
  oldestDueDate: string | null;
  oldestDays: number | null;
  stageLevel: StageLevel | null;
  creditCents: number;
  lastPaymentAt: Date | null;
  lastPaymentCents: number | null;
};

/** The bucket columns of by_customer, in AGING_BUCKETS' order. */
const BUCKET_COLUMN: Record<AgingBucket, string> = {
  current: 'b_current',
  '1-30': 'b_1_30',
  '31-60': 'b_31_60',
  '61-90': 'b_61_90',
  '90+': 'b_90',
};

/**
 * The customers' receivable figures as a CTE `receivable` (one row per customer owing money or holding credit),
 * optionally for one customer only.
 */
function receivableCte(today: string, customerId?: string): SQL {
  const ofCustomer = customerId ? sql`and i.customer_id = ${customerId}` : sql``;
  const creditOf = customerId ? sql`and id = ${customerId}` : sql``;
  return sql`
    open_invoice as (
      select i.customer_id, i.due_date, ${sqlAmountDue('i')} as due, (${today}::date - i.due_date) as days,
             case when i.due_date < ${today}::date then
               case when ${sqlPausedForNonPayment('c')} then 3 else ${sqlReminderLevel('i')} end
             end as stage_level,
             coalesce((select a.status in ('failed', 'requires_action') from autopay_attempts a
                       where a.invoice_id = i.id order by a.attempt_number desc limit 1), false) as autopay_failed
      from invoices i join contracts c on c.id = i.contract_id
      where ${sqlPayable('i')} ${ofCustomer}
    ),
    by_customer as (
      select customer_id,
             sum(due) as open_cents,
             coalesce(sum(due) filter (where days <= 0), 0) as b_current,
             coalesce(sum(due) filter (where days between 1 and 30), 0) as b_1_30,
             coalesce(sum(due) filter (where days between 31 and 60), 0) as b_31_60,
             coalesce(sum(due) filter (where days between 61 and 90), 0) as b_61_90,
             coalesce(sum(due) filter (where days > 90), 0) as b_90,
             count(*) filter (where due > 0) as open_invoices,
             count(*) filter (where due > 0 and days > 0) as overdue_invoices,
             min(due_date) filter (where due > 0) as oldest_due_date,
             max(days) filter (where due > 0) as oldest_days,
             max(stage_level) as stage_level,
             coalesce(bool_or(autopay_failed and due > 0), false) as autopay_failed
      from open_invoice group by customer_id
    ),
    target as (
      select customer_id from by_customer where open_cents > 0
      union
      select id from customers where credit_balance_cents > 0 ${creditOf}
    ),
    receivable as (
      select cu.id as customer_id, cu.name as customer_name, cu.company,
             coalesce(b.open_cents, 0) as open_cents,
             coalesce(b.b_current, 0) as b_current, coalesce(b.b_1_30, 0) as b_1_30,
             coalesce(b.b_31_60, 0) as b_31_60, coalesce(b.b_61_90, 0) as b_61_90, coalesce(b.b_90, 0) as b_90,
             coalesce(b.open_invoices, 0) as open_invoices, coalesce(b.overdue_invoices, 0) as overdue_invoices,
             b.oldest_due_date, b.oldest_days, b.stage_level, coalesce(b.autopay_failed, false) as autopay_failed,
             cu.credit_balance_cents as credit_cents
      from target t
      join customers cu on cu.id = t.customer_id
      left join by_customer b on b.customer_id = t.customer_id
    )`;
}

function whereOf(filter: Omit<ReceivableFilter, 'sort'>): SQL {
  const conditions: SQL[] = [sql`true`];
  if (filter.q) conditions.push(sql`lower(customer_name) like ${likePattern(filter.q)}`);
  if (filter.bucket) conditions.push(sql`${sql.raw(BUCKET_COLUMN[filter.bucket])} > 0`);
  if (filter.stageLevel !== undefined) conditions.push(sql`stage_level = ${filter.stageLevel}`);
  if (filter.onlyCredit) conditions.push(sql`credit_cents > 0`);
  if (filter.autopayFailed) conditions.push(sql`autopay_failed`);
  return sql.join(conditions, sql` and `);
}

function orderOf(sort: ReceivableFilter['sort']): SQL {
  return sort === 'oldest'
    ? sql`oldest_days desc nulls last, open_cents desc, customer_name, customer_id`
    : sql`open_cents desc, credit_cents desc, customer_name, customer_id`;
}

type FigureRow = {
  customer_id: string;
  customer_name: string;
  company: string | null;
  open_cents: string;
  b_current: string;
  b_1_30: string;
  b_31_60: string;
  b_61_90: string;
  b_90: string;
  open_invoices: string;
  overdue_invoices: string;
  oldest_due_date: string | null;
  oldest_days: number | string | null;
  stage_level: number | string | null;
  credit_cents: string;
  last_paid_at: string | Date | null;
  last_paid_cents: string | null;
  total?: string;
};

const dayText = (value: string | Date | null) =>
  value === null ? null : value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10);

function figuresOf(r: FigureRow): ReceivableFigures {
  return {
    customerId: r.customer_id,
    customerName: r.customer_name,
    company: r.company,
    openCents: int(r.open_cents),
    agingCents: {
      current: int(r.b_current),
      '1-30': int(r.b_1_30),
      '31-60': int(r.b_31_60),
      '61-90': int(r.b_61_90),
      '90+': int(r.b_90),
    },
    openInvoices: int(r.open_invoices),
    overdueInvoices: int(r.overdue_invoices),
    oldestDueDate: dayText(r.oldest_due_date),
    oldestDays: r.oldest_days === null ? null : int(r.oldest_days),
    stageLevel: r.stage_level === null ? null : (int(r.stage_level) as StageLevel),
    creditCents: int(r.credit_cents),
    lastPaymentAt: r.last_paid_at === null ? null : new Date(r.last_paid_at),
    lastPaymentCents: r.last_paid_cents === null ? null : int(r.last_paid_cents),
  };
}

/** The last payment received by a customer (not one its credit balance made): payments_customer_paid_idx. */
const lastPayment = (alias: string) => sql`left join lateral (
    select p.paid_at as last_paid_at, p.amount_cents as last_paid_cents from payments p
    where p.customer_id = ${sql.raw(alias)}.customer_id and p.status = 'succeeded' and p.kind = 'payment'
      and p.method <> 'credit'
    order by p.paid_at desc, p.created_at desc limit 1) lp on true`;

/**
 * One statement: the customers the filter selects, a page of them in the chosen order with their last
 * payment (looked up for the page's rows only), and how many there are in all.
 */
export async function selectReceivablePage(
  db: Db,
  today: string,
  filter: ReceivableFilter,
  page: { limit: number; offset: number },
): Promise<{ rows: ReceivableFigures[]; total: number }> {
  const result = await db.execute(sql`
    with ${receivableCte(today)},
    selected as (select * from receivable where ${whereOf(filter)}),
    page as (select * from selected order by ${orderOf(filter.sort)} limit ${page.limit} offset ${page.offset})
    select page.*, lp.last_paid_at, lp.last_paid_cents, (select count(*) from selected) as total
    from page ${lastPayment('page')}
    order by ${orderOf(filter.sort)}`);
  const rows = rowsOf<FigureRow>(result);
  if (rows.length === 0 && page.offset > 0) {
    const [{ total }] = rowsOf<{ total: string }>(
      await db.execute(
        sql`with ${receivableCte(today)} select count(*) as total from receivable where ${whereOf(filter)}`,
      ),
    );
    return { rows: [], total: int(total) };
  }
  return { rows: rows.map(figuresOf), total: int(rows[0]?.total) };
}

/** Every customer the filter selects, in the chosen order, with the last payment: the CSV export. */
export async function selectReceivables(db: Db, today: string, filter: ReceivableFilter): Promise<ReceivableFigures[]> {
  const result = await db.execute(sql`
    with ${receivableCte(today)}
    select r.*, lp.last_paid_at, lp.last_paid_cents
    from (select * from receivable where ${whereOf(filter)}) r ${lastPayment('r')}
    order by ${orderOf(filter.sort)}`);
  return rowsOf<FigureRow>(result).map(figuresOf);
}

export type ReceivableTotals = {
  customers: number;
  openCents: number;
  agingCents: Record<AgingBucket, number>;
  creditCents: number;
};

/** The totals of the customers the filter selects: one aggregate over the same rows. */
export async function selectReceivableTotals(
  db: Db,
  today: string,
  filter: Omit<ReceivableFilter, 'sort'>,
): Promise<ReceivableTotals> {
  const result = await db.execute(sql`
    with ${receivableCte(today)}
    select count(*) as customers, coalesce(sum(open_cents), 0) as open_cents,
           coalesce(sum(b_current), 0) as b_current, coalesce(sum(b_1_30), 0) as b_1_30,
           coalesce(sum(b_31_60), 0) as b_31_60, coalesce(sum(b_61_90), 0) as b_61_90,
           coalesce(sum(b_90), 0) as b_90, coalesce(sum(credit_cents), 0) as credit_cents
    from receivable where ${whereOf(filter)}`);
  const [r] = rowsOf<Record<string, string>>(result);
  return {
    customers: int(r.customers),
    openCents: int(r.open_cents),
    agingCents: {
      current: int(r.b_current),
      '1-30': int(r.b_1_30),
      '31-60': int(r.b_31_60),
      '61-90': int(r.b_61_90),
      '90+': int(r.b_90),
    },
    creditCents: int(r.credit_cents),
  };
}

/**
 * One customer's figures (zeros when it owes nothing and holds no credit) and its open invoices, oldest due
 * first; null when there is no such customer.
 */
export async function selectCustomerReceivable(
  db: Db,
  today: string,
  customerId: string,
  invoiceLimit: number,
): Promise<{
  figures: ReceivableFigures;
  invoices: {
    id: string;
    number: string;
    contractId: string;
    dueDate: string;
    totalCents: number;
    dueCents: number;
    status: string;
    days: number;
  }[];
} | null> {
  const result = await db.execute(sql`
    with ${receivableCte(today, customerId)}
    select cu.id as customer_id, cu.name as customer_name, cu.company,
           coalesce(r.open_cents, 0) as open_cents, coalesce(r.b_current, 0) as b_current,
           coalesce(r.b_1_30, 0) as b_1_30, coalesce(r.b_31_60, 0) as b_31_60, coalesce(r.b_61_90, 0) as b_61_90,
           coalesce(r.b_90, 0) as b_90, coalesce(r.open_invoices, 0) as open_invoices,
           coalesce(r.overdue_invoices, 0) as overdue_invoices, r.oldest_due_date, r.oldest_days, r.stage_level,
           cu.credit_balance_cents as credit_cents, lp.last_paid_at, lp.last_paid_cents
    from (select id, id as customer_id, name, company, credit_balance_cents from customers where id = ${customerId}) cu
    left join receivable r on r.customer_id = cu.customer_id
    ${lastPayment('cu')}`);
  const [row] = rowsOf<FigureRow>(result);
  if (!row) return null;
  const invoices = await db.execute(sql`
    select i.id, i.number, i.contract_id, i.due_date, i.total_cents, ${sqlAmountDue('i')} as due, i.status,
           (${today}::date - i.due_date) as days
    from invoices i
    where i.customer_id = ${customerId} and ${sqlPayable('i')} and ${sqlAmountDue('i')} > 0
    order by i.due_date, i.number
    limit ${invoiceLimit}`);
  return {
    figures: figuresOf(row),
    invoices: rowsOf<{
      id: string;
      number: string;
      contract_id: string;
      due_date: string | Date;
      total_cents: string;
      due: string;
      status: string;
      days: number | string;
    }>(invoices).map((i) => ({
      id: i.id,
      number: i.number,
      contractId: i.contract_id,
      dueDate: dayText(i.due_date)!,
      totalCents: int(i.total_cents),
      dueCents: int(i.due),
      status: i.status,
      days: int(i.days),
    })),
  };
}

/**
 * Finance's open figures in one statement: what is owed and overdue, and what open invoices ask for from today
 * to `until` (their due dates). The cash received this month is the reports' cash figure (decision 048).
 */
export async function selectOutlookFigures(
  db: Db,
  today: string,
  until: string,
): Promise<{ openCents: number; overdueCents: number; dueSoonCents: number }> {
  const result = await db.execute(sql`
    select
      (select coalesce(sum(${sqlAmountDue('i')}), 0) from invoices i where ${sqlPayable('i')}) as open_cents,
      (select coalesce(sum(${sqlAmountDue('i')}), 0) from invoices i
        where ${sqlPayable('i')} and i.due_date < ${today}::date) as overdue_cents,
      (select coalesce(sum(${sqlAmountDue('i')}), 0) from invoices i
        where ${sqlPayable('i')} and i.due_date between ${today}::date and ${until}::date) as due_soon_cents`);
  const [r] = rowsOf<Record<string, string>>(result);
  return {
    openCents: int(r.open_cents),
    overdueCents: int(r.overdue_cents),
    dueSoonCents: int(r.due_soon_cents),
  };
}

/** The active contracts: what the billing run bills next (billing.service nextScheduledCharges reads them). */
export async function selectActiveContracts(db: Db) {
  return db.select().from(contracts).where(sql`${contracts.status} = 'active'`);
}
