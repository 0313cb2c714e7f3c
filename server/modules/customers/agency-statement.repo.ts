import type { AgingBucket } from '@shared/contracts/receivables-vocabulary';
import { type SQL, sql } from 'drizzle-orm';
import { sqlBillingContactName, sqlBillingEmail } from '../../db/billing-recipient';
import type { Db } from '../../db/client';
import { rowsOf } from '../../lib/db-rows';

/**
 * The agency statement's SQL (product.md section 20; decision 060, "Statements"): two statements per statement,
 * whatever the number of invoices (the figures, and the dated entries), over the invoices billed to the agency
 * (invoices_bill_to_idx) and their payments and credit notes (payments_invoice_idx, credit_notes_invoice_idx).
 *
 * The rule, in one place (`ledgerCtes`):
 * - the agency's invoices are those billed to it (`bill_to_customer_id`), issued before the end of `to`, never a
 *   void one (a void cancels the invoice with its payments, credit note and refunds: none of them is listed);
 * - a movement is a succeeded payment (minus; a credit-balance payment included), a refund (plus), or a credit
 *   note's applied part (minus: what lowered the amount due; the part beyond it went to the credit balance and
 *   owes nothing), each dated when it happened, but never before its invoice was issued (a back-dated payment
 *   counts on the invoice's issue date), so no movement lands before its invoice on a statement;
 * - a balance at a moment is the invoices issued before it plus the movements before it. Per invoice, that is its
 *   amount due at that moment (total - paid + refunded - applied credits), so the closing balance is the sum of
 *   the amounts still due at `to` of the agency's invoices (the reconciliation), and is aged by their due dates.
 * Days are the business's (BUSINESS_TIMEZONE): [from 00:00, to + 1 day 00:00) in that zone.
 */

type Range = { agencyId: string; from: string; to: string; timeZone: string };

const num = (value: unknown) => Number(value ?? 0);

/** The CTEs `bounds`, `inv` (the agency's invoices up to `to`) and `moves` (their movements up to `to`). */
function ledgerCtes(range: Range): SQL {
  return sql`
    bounds as (
      select (${range.from}::date)::timestamp at time zone ${range.timeZone} as lo,
             (${range.to}::date + 1)::timestamp at time zone ${range.timeZone} as hi
    ),
    inv as (
      select i.id, i.number, i.contract_id, i.customer_id, i.issued_at, i.due_date, i.total_cents, i.status,
             i.paid_at, i.agency_commission_cents, i.agency_billing_mode
      from invoices i, bounds b
      where i.bill_to_customer_id = ${range.agencyId} and i.status <> 'void' and i.issued_at < b.hi
    ),
    moves as (
      select p.invoice_id, case when p.kind = 'refund' then 'refund' else 'payment' end as kind,
             greatest(p.paid_at, inv.issued_at) as at,
             case when p.kind = 'refund' then p.amount_cents else -p.amount_cents end as delta,
             p.amount_cents as document_cents, p.reference as number, p.method, p.id as ref_id
      from payments p join inv on inv.id = p.invoice_id, bounds b
      where p.status = 'succeeded' and greatest(p.paid_at, inv.issued_at) < b.hi
      union all
      select c.invoice_id, 'credit_note', greatest(c.issued_at, inv.issued_at), -c.applied_cents, c.amount_cents,
             c.number, null, c.id
      from credit_notes c join inv on inv.id = c.invoice_id, bounds b
      where greatest(c.issued_at, inv.issued_at) < b.hi
    )`;
}

export type StatementFigures = {
  openingCents: number;
  closingCents: number;
  agingCents: Record<AgingBucket, number>;
  netCommissionCents: number;
  grossCommissionCents: number;
};

/**
 * The statement's figures in one statement: the opening balance (invoices issued before `from` plus their
 * movements before it), the closing balance as the sum of each invoice's amount due at `to`, aged by days past
 * its due date on `to` (receivables' buckets: not yet due, 1-30, 31-60, 61-90, more than 90), and the commission:
 * net mode, deducted on the invoices issued in the range; gross mode, owed on the invoices paid in the range.
 */
export async function selectStatementFigures(db: Db, range: Range): Promise<StatementFigures> {
  const [row] = rowsOf<Record<string, string | number | null>>(
    await db.execute(sql`
      with ${ledgerCtes(range)},
      per_invoice as (
        select inv.*, inv.total_cents + coalesce(m.delta, 0) as due_at_to, (${range.to}::date - inv.due_date) as days
        from inv left join (select invoice_id, sum(delta) as delta from moves group by invoice_id) m
          on m.invoice_id = inv.id
      )
      select
        (select coalesce(sum(total_cents), 0) from inv, bounds b where inv.issued_at < b.lo)
          + (select coalesce(sum(delta), 0) from moves, bounds b where moves.at < b.lo) as opening,
        coalesce(sum(due_at_to), 0) as closing,
        coalesce(sum(due_at_to) filter (where days <= 0), 0) as b_current,
        coalesce(sum(due_at_to) filter (where days between 1 and 30), 0) as b_1_30,
        coalesce(sum(due_at_to) filter (where days between 31 and 60), 0) as b_31_60,
        coalesce(sum(due_at_to) filter (where days between 61 and 90), 0) as b_61_90,
        coalesce(sum(due_at_to) filter (where days > 90), 0) as b_90,
        coalesce(sum(agency_commission_cents) filter (
          where agency_billing_mode = 'net' and issued_at >= (select lo from bounds)), 0) as net_commission,
        coalesce(sum(agency_commission_cents) filter (
          where agency_billing_mode = 'gross' and status = 'paid'
            and paid_at >= (select lo from bounds) and paid_at < (select hi from bounds)), 0) as gross_commission
      from per_invoice`),
  );
  return {
    openingCents: num(row?.opening),
    closingCents: num(row?.closing),
    agingCents: {
      current: num(row?.b_current),
      '1-30': num(row?.b_1_30),
      '31-60': num(row?.b_31_60),
      '61-90': num(row?.b_61_90),
      '90+': num(row?.b_90),
    },
    netCommissionCents: num(row?.net_commission),
    grossCommissionCents: num(row?.gross_commission),
  };
}

export type StatementEntryRow = {
  date: string;
  kind: 'invoice' | 'credit_note' | 'payment' | 'refund';
  number: string | null;
  invoiceId: string;
  invoiceNumber: string;
  issueDate: string;
  dueDate: string;
  advertiserId: string;
  advertiserName: string;
  contractId: string;
  contractName: string;
  deltaCents: number;
  documentCents: number;
  commissionCents: number;
  commissionMode: 'net' | 'gross' | null;
  method: string | null;
};

type RawEntry = {
  date: string;
  kind: StatementEntryRow['kind'];
  number: string | null;
  invoice_id: string;
  invoice_number: string;
  issue_date: string;
  due_date: string;
  advertiser_id: string;
  advertiser_name: string;
  contract_id: string;
  contract_name: string;
  delta: string | number;
  document_cents: string | number;
  commission_cents: string | number;
  commission_mode: 'net' | 'gross' | null;
  method: string | null;
};

/**
 * The entries dated in the range, oldest first (an invoice before the movements of the same moment): each invoice
 * issued in it, each movement of the agency's invoices in it. One statement.
 */
export async function selectStatementEntries(db: Db, range: Range): Promise<StatementEntryRow[]> {
  const zone = range.timeZone;
  const rows = rowsOf<RawEntry>(
    await db.execute(sql`
      with ${ledgerCtes(range)},
      dated as (
        select inv.id as invoice_id, 'invoice' as kind, inv.issued_at as at, 0 as seq, inv.number as number,
               inv.total_cents as delta, inv.total_cents as document_cents, null as method, inv.id as ref_id
        from inv, bounds b where inv.issued_at >= b.lo
        union all
        select m.invoice_id, m.kind, m.at, 1, m.number, m.delta, m.document_cents, m.method, m.ref_id
        from moves m, bounds b where m.at >= b.lo
      )
      select to_char((d.at at time zone ${zone})::date, 'YYYY-MM-DD') as date, d.kind, d.number,
             inv.id as invoice_id, inv.number as invoice_number,
             to_char((inv.issued_at at time zone ${zone})::date, 'YYYY-MM-DD') as issue_date,
             to_char(inv.due_date, 'YYYY-MM-DD') as due_date,
             adv.id as advertiser_id, adv.name as advertiser_name, c.id as contract_id,
             coalesce(nullif(trim(c.title), ''), nullif(trim(c.description), ''), 'Contract #' || right(c.id::text, 8))
               as contract_name,
             d.delta, d.document_cents,
             case when d.kind = 'invoice' then inv.agency_commission_cents else 0 end as commission_cents,
             case when d.kind = 'invoice' then inv.agency_billing_mode end as commission_mode,
             d.method
      from dated d
      join inv on inv.id = d.invoice_id
      join customers adv on adv.id = inv.customer_id
      join contracts c on c.id = inv.contract_id
      order by d.at, d.seq, inv.number, d.number, d.ref_id`),
  );
  return rows.map((row) => ({
    date: row.date,
    kind: row.kind,
    number: row.number,
    invoiceId: row.invoice_id,
    invoiceNumber: row.invoice_number,
    issueDate: row.issue_date,
    dueDate: row.due_date,
    advertiserId: row.advertiser_id,
    advertiserName: row.advertiser_name,
    contractId: row.contract_id,
    contractName: row.contract_name,
    deltaCents: num(row.delta),
    documentCents: num(row.document_cents),
    commissionCents: num(row.commission_cents),
    commissionMode: row.commission_mode,
    method: row.method,
  }));
}

/** The agency a statement is for, as its documents and e-mail address it (its billing contact, else itself). */
export type StatementAgencyRow = {
  id: string;
  name: string;
  kind: string;
  company: string | null;
  email: string;
  address: string | null;
  city: string | null;
  state: string | null;
  zipCode: string | null;
  country: string | null;
  billingEmail: string;
  billingName: string | null;
};

export async function selectStatementAgency(db: Db, agencyId: string): Promise<StatementAgencyRow | undefined> {
  const [row] = rowsOf<StatementAgencyRow>(
    await db.execute(sql`
      select cu.id, cu.name, cu.kind, cu.company, cu.email, cu.address, cu.city, cu.state, cu.zip_code as "zipCode",
             cu.country, ${sqlBillingEmail('cu')} as "billingEmail", ${sqlBillingContactName('cu')} as "billingName"
      from customers cu where cu.id = ${agencyId}`),
  );
  return row;
}

/**
 * The agencies with something to state for the month [lo, hi) (business days): an invoice billed to them issued
 * in it, or a balance at its end (an invoice still owing then: issued before the end, not void, not paid before
 * it, with its amount due at the end above zero). One statement.
 */
export async function selectAgenciesWithActivity(db: Db, range: Omit<Range, 'agencyId'>): Promise<string[]> {
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`
      with bounds as (
        select (${range.from}::date)::timestamp at time zone ${range.timeZone} as lo,
               (${range.to}::date + 1)::timestamp at time zone ${range.timeZone} as hi
      ),
      candidate as (
        select i.id, i.bill_to_customer_id as agency_id, i.issued_at, i.total_cents
        from invoices i join customers cu on cu.id = i.bill_to_customer_id and cu.kind = 'agency', bounds b
        where i.status <> 'void' and i.issued_at < b.hi and not (i.status = 'paid' and i.paid_at < b.lo)
      )
      select distinct agency_id as id from candidate, bounds b
      where issued_at >= b.lo
         or total_cents
            - coalesce((select sum(case when p.kind = 'refund' then -p.amount_cents else p.amount_cents end)
                        from payments p where p.invoice_id = candidate.id and p.status = 'succeeded'
                          and greatest(p.paid_at, candidate.issued_at) < b.hi), 0)
            - coalesce((select sum(c.applied_cents) from credit_notes c where c.invoice_id = candidate.id
                          and greatest(c.issued_at, candidate.issued_at) < b.hi), 0) > 0
      order by id`),
  );
  return rows.map((row) => row.id);
}

/**
 * Claims the agency's statement of the month (its first day) for this run: true when the row is new, false when
 * another run (this instance's or another's) has it already. The primary key decides.
 */
export async function claimStatementRun(tx: Db, agencyId: string, month: string): Promise<boolean> {
  const rows = rowsOf<{ agency_id: string }>(
    await tx.execute(sql`
      insert into agency_statement_runs (agency_id, month) values (${agencyId}, ${month}::date)
      on conflict do nothing returning agency_id`),
  );
  return rows.length > 0;
}
