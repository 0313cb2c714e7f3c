import { PAYABLE_INVOICE_STATUSES } from '@shared/invoice-amounts';
import { type SQL, sql } from 'drizzle-orm';

/**
 * The SQL twin of shared/invoice-amounts.ts for aggregates and filters: the same statuses and the same
 * clamp, over an invoices row named `alias` (server/db/invoice-amounts.test.ts holds both to one table).
 */
export function sqlPayable(alias: string): SQL {
  return sql`${sql.raw(`${alias}.status`)} in (${sql.join(
    PAYABLE_INVOICE_STATUSES.map((status) => sql`${status}`),
    sql`, `,
  )})`;
}

export function sqlAmountDue(alias: string): SQL {
  const column = (name: string) => sql.raw(`${alias}.${name}`);
  return sql`(case when ${sqlPayable(alias)} then greatest(0, ${column('total_cents')} - ${column('amount_paid_cents')} - ${column('credited_cents')}) else 0 end)`;
}
