import { PAYABLE_INVOICE_STATUSES, VOIDABLE_INVOICE_STATUSES } from '@shared/invoice-amounts';
import { type SQL, sql } from 'drizzle-orm';

/**
 * The SQL twin of shared/invoice-amounts.ts for statements, aggregates and filters: the same statuses, the
 * same clamps (server/db/invoice-amounts.test.ts holds both to one table).
 *
 * Each rule reads an invoices row: the columns of the row named `alias`, or an `InvoiceFigures` whose
 * expressions stand for some of them, for the row a statement is about to write (a payment being added:
 * `{ alias: 'invoices', amountPaidCents: sql`invoices.amount_paid_cents + 100` }`).
 */
export type InvoiceFigures = {
  alias: string;
  status?: SQL;
  totalCents?: SQL;
  amountPaidCents?: SQL;
  creditedCents?: SQL;
};

type InvoiceRef = string | InvoiceFigures;

function figuresOf(row: InvoiceRef) {
  const figures = typeof row === 'string' ? { alias: row } : row;
  const column = (name: string) => sql.raw(`${figures.alias}.${name}`);
  return {
    status: figures.status ?? column('status'),
    total: figures.totalCents ?? column('total_cents'),
    paid: figures.amountPaidCents ?? column('amount_paid_cents'),
    credited: figures.creditedCents ?? column('credited_cents'),
  };
}

function statusIn(status: SQL, statuses: readonly string[]): SQL {
  return sql`${status} in (${sql.join(
    statuses.map((value) => sql`${value}`),
    sql`, `,
  )})`;
}

/** isPayable. */
export function sqlPayable(row: InvoiceRef): SQL {
  return statusIn(figuresOf(row).status, PAYABLE_INVOICE_STATUSES);
}

/** isVoidable. */
export function sqlVoidable(row: InvoiceRef): SQL {
  return statusIn(figuresOf(row).status, VOIDABLE_INVOICE_STATUSES);
}

/** amountDueCents. */
export function sqlAmountDue(row: InvoiceRef): SQL {
  const { total, paid, credited } = figuresOf(row);
  return sql`(case when ${sqlPayable(row)} then greatest(0, ${total} - ${paid} - ${credited}) else 0 end)`;
}

/** uncreditedCents. */
export function sqlUncredited(row: InvoiceRef): SQL {
  const { total, credited } = figuresOf(row);
  return sql`greatest(0, ${total} - ${credited})`;
}

/** creditableCents. */
export function sqlCreditable(row: InvoiceRef): SQL {
  const { status } = figuresOf(row);
  return sql`(case when ${status} = 'void' then 0 else ${sqlUncredited(row)} end)`;
}

/** refundableCents. */
export function sqlRefundable(row: InvoiceRef): SQL {
  return sql`least(${figuresOf(row).paid}, ${sqlUncredited(row)})`;
}

/** settles. */
export function sqlSettles(row: InvoiceRef): SQL {
  const { total, paid, credited } = figuresOf(row);
  return sql`(${paid} + ${credited} >= ${total})`;
}
