import { type SQL, sql } from 'drizzle-orm';

/**
 * The SQL of an invoice's dunning stage (shared/contracts/invoice-vocabulary.ts dunningStageOf), over an
 * invoices row and its contracts row named by their aliases: the latest reminder sent (0 none, 1 the first,
 * 2 the second; dunning_steps' primary key answers it), and whether its contract is paused for non-payment.
 */
export function sqlReminderLevel(invoice: string): SQL<number> {
  return sql<number>`(select coalesce(max(case d.step when 'second_reminder' then 2 when 'first_reminder' then 1 else 0 end), 0)
    from dunning_steps d where d.invoice_id = ${sql.raw(invoice)}.id)`;
}

export function sqlPausedForNonPayment(contract: string): SQL<boolean> {
  const column = (name: string) => sql.raw(`${contract}.${name}`);
  return sql<boolean>`(${column('status')} = 'paused' and ${column('pause_reason')} = 'non_payment')`;
}
