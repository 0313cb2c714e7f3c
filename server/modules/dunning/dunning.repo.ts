import { type SQL, sql } from 'drizzle-orm';
import { sqlAutopayHoldsReminders } from '../../db/autopay-state';
import { sqlBillingContactName, sqlBillingEmail } from '../../db/billing-recipient';
import type { Db } from '../../db/client';
import { sqlAmountDue, sqlPayable } from '../../db/invoice-amounts';
import type { InvoiceMailRow } from '../invoices/invoices.emails';
import { emitWebhookEvent } from '../webhooks/webhook-events';

/** node-postgres and PGlite both answer raw queries with { rows }. */
const rowsOf = <T>(result: unknown): T[] => ((result as { rows?: T[] }).rows ?? []) as T[];

const ofContract = (contractId: string | null, alias: string): SQL =>
  contractId ? sql`and ${sql.raw(alias)}.contract_id = ${contractId}` : sql``;

/** A reminder step recorded now, with what its e-mail says. */
export type ReminderRow = InvoiceMailRow & {
  step: 'first_reminder' | 'second_reminder';
  credited_cents: string | number;
};

/**
 * Records every reminder step that is due on an unpaid invoice and not yet done: `days` after its due
 * date (steps set to 0 are off). ONE INSERT ... ON CONFLICT DO NOTHING: the primary key (invoice, step)
 * decides, so concurrent runs record (and e-mail) each step once. Answers the steps recorded now, with what
 * their e-mails say, addressed to the payer: the invoice's bill-to (an agency for its advertiser, product.md
 * section 20) at its billing contact. Open invoices are found by invoices_open_due_idx.
 */
export async function recordDueReminders(
  tx: Db,
  options: { asOf: string; steps: { step: ReminderRow['step']; days: number }[]; contractId: string | null },
): Promise<ReminderRow[]> {
  const steps = options.steps.filter((s) => s.days > 0);
  if (steps.length === 0) return [];
  const earliest = Math.min(...steps.map((s) => s.days));
  const values = sql.join(
    steps.map((s) => sql`(${s.step}, ${s.days}::int)`),
    sql`, `,
  );
  return rowsOf<ReminderRow>(
    await tx.execute(sql`
      with due as (
        select i.id as invoice_id, s.step
        from invoices i
        cross join (values ${values}) as s(step, days)
        where ${sqlPayable('i')} and ${sqlAmountDue('i')} > 0
          and i.due_date <= ${options.asOf}::date - ${earliest}::int
          and i.due_date + s.days <= ${options.asOf}::date
          and not ${sqlAutopayHoldsReminders('i')}
          ${ofContract(options.contractId, 'i')}
        order by i.id, s.step
      ),
      recorded as (
        insert into dunning_steps (invoice_id, step)
        select invoice_id, step from due
        on conflict do nothing
        returning invoice_id, step
      )
      select r.invoice_id as id, r.step, i.number, i.period_start::text as period_start, i.period_end::text as period_end,
             i.due_date::text as due_date, i.status, i.total_cents, i.amount_paid_cents, i.credited_cents,
             c.id as contract_id, c.title as contract_title, c.description as contract_description, c.payment_mode,
             c.pay_link_token, cu.name as customer_name, ${sqlBillingEmail('cu')} as customer_email,
             ${sqlBillingContactName('cu')} as customer_contact_person,
             (select advertiser.name from customers advertiser
              where advertiser.id = i.customer_id and i.customer_id <> i.bill_to_customer_id) as advertiser_name
      from recorded r
      join invoices i on i.id = r.invoice_id
      join contracts c on c.id = i.contract_id
      join customers cu on cu.id = i.bill_to_customer_id
      order by i.due_date, i.number, r.step`),
  );
}

/** Invoices unpaid `days` or more after their due date (by asOf) whose contract is still running. */
const longOverdue = (asOf: string, days: number) => sql`
  ${sqlPayable('i')} and ${sqlAmountDue('i')} > 0 and i.due_date + ${days}::int <= ${asOf}::date`;

/**
 * Active contracts with an invoice unpaid `days` after its due date that has not paused its contract
 * before (a contract staff resumed by hand is not paused again for the same invoice). Answers each
 * contract with those invoices.
 */
export async function selectContractsToPause(
  db: Db,
  options: { asOf: string; days: number; contractId: string | null },
): Promise<{ contractId: string; invoiceIds: string[]; numbers: string[] }[]> {
  const rows = rowsOf<{ contract_id: string; invoice_ids: string[]; numbers: string[] }>(
    await db.execute(sql`
      select i.contract_id, array_agg(i.id::text order by i.due_date) as invoice_ids,
             array_agg(i.number order by i.due_date) as numbers
      from invoices i
      join contracts c on c.id = i.contract_id and c.status = 'active'
      where ${longOverdue(options.asOf, options.days)} ${ofContract(options.contractId, 'i')}
        and not exists (select 1 from dunning_steps d where d.invoice_id = i.id and d.step = 'pause')
      group by i.contract_id
      order by i.contract_id`),
  );
  return rows.map((r) => ({ contractId: r.contract_id, invoiceIds: r.invoice_ids, numbers: r.numbers }));
}

/** The pause step of these invoices, once each (their contract was paused for them). */
export async function recordPauseSteps(tx: Db, invoiceIds: readonly string[]): Promise<void> {
  if (invoiceIds.length === 0) return;
  await tx.execute(sql`
    insert into dunning_steps (invoice_id, step)
    select unnest(${sql.param([...invoiceIds])}::uuid[]), 'pause'
    on conflict do nothing`);
}

/** No invoice of the contract is still unpaid after its due date (the condition to resume it). */
export const noOverdueInvoice = (asOf: string): SQL => sql`not exists (
  select 1 from invoices i
  where i.contract_id = contracts.id and ${sqlPayable('i')} and ${sqlAmountDue('i')} > 0
    and i.due_date < ${asOf}::date)`;

/** Contracts paused for non-payment none of whose invoices is overdue any more. */
export async function selectContractsToResume(
  db: Db,
  options: { asOf: string; contractId: string | null },
): Promise<string[]> {
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`
      select contracts.id from contracts
      where contracts.status = 'paused' and contracts.pause_reason = 'non_payment'
        ${options.contractId ? sql`and contracts.id = ${options.contractId}` : sql``}
        and ${noOverdueInvoice(options.asOf)}
      order by contracts.id`),
  );
  return rows.map((r) => r.id);
}

/** The contract an invoice belongs to. */
export async function selectContractOfInvoice(db: Db, invoiceId: string): Promise<string | null> {
  const rows = rowsOf<{ contract_id: string }>(
    await db.execute(sql`select contract_id from invoices where id = ${invoiceId}`),
  );
  return rows[0]?.contract_id ?? null;
}

/**
 * `invoice.overdue` for every invoice unpaid after its due date (by asOf) that has not had it: once per
 * invoice ever (the event's unique key decides, so concurrent runs raise it once), in one statement.
 */
export async function emitOverdueInvoices(
  tx: Db,
  options: { asOf: string; contractId: string | null },
): Promise<number> {
  return emitWebhookEvent(
    tx,
    'invoice.overdue',
    {
      where: sql`${sqlPayable('r')} and ${sqlAmountDue('r')} > 0 and r.due_date < ${options.asOf}::date
        ${ofContract(options.contractId, 'r')}`,
    },
    { once: true },
  );
}
