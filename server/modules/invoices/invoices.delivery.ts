import type { DeliveryPeriod, DeliveryRemedy } from '@shared/contracts/delivery';
import { centsToAmount } from '@shared/money';
import type { Db } from '../../db/client';
import { businessToday } from '../../lib/business-day';
import { type PeriodRow, selectInvoicePeriods } from './billed-periods.repo';

/**
 * Proof of performance, read side (product.md section 12): a CPM line's billed periods are its invoice lines
 * (kind product, price metric cpm, the line's id and booked impressions), so they are records of the
 * invoices, read by the invoices module like credit notes are (billed-periods.repo.ts); the delivery recorded
 * for one is the line_deliveries row of the same line and period start (written by the delivery module).
 */

/** The statements, for the delivery module through invoices.service.ts. */
export { type PeriodRow, selectPeriodPage, selectPeriodsByDay, selectPeriodsByKey } from './billed-periods.repo';

/** A billed CPM period as the API answers it, from its row (billed-periods.repo.ts). */
export function toDeliveryPeriod(row: PeriodRow, today: string): DeliveryPeriod {
  const recorded = row.delivery_id !== null;
  const live = liveBooking(row);
  const settled = row.settled_at !== null && row.settled_at !== undefined;
  // A settled period is final (its final_at is set when it settles, or was by migration 0028 before).
  const final = recorded && (settled || (row.final_at !== null && row.final_at !== undefined));
  return {
    contractId: row.contract_id,
    contractTitle: row.contract_title,
    lineId: row.line_id,
    productName: row.product_name,
    month: row.month,
    periodStart: row.period_start,
    periodEnd: row.period_end,
    invoiceId: row.invoice_id,
    invoiceNumber: row.invoice_number,
    booked: recorded ? Number(row.booked_impressions) : live.booked,
    makegood: recorded ? Number(row.recorded_makegood_impressions) : live.makegood,
    delivered: recorded ? Number(row.delivered_impressions) : null,
    clicks: row.clicks === null ? null : Number(row.clicks),
    ended: row.period_end < today,
    final,
    status: !recorded ? 'awaiting' : settled ? 'settled' : final ? 'delivered' : 'reported',
    remedy: (row.remedy as DeliveryRemedy | null) ?? null,
    shortfall: Number(row.shortfall_impressions ?? 0),
    creditNote:
      row.credit_note_id && row.credit_note_number
        ? {
            id: row.credit_note_id,
            number: row.credit_note_number,
            amount: centsToAmount(Number(row.credit_note_amount_cents)),
          }
        : null,
    makegoodInvoice:
      row.makegood_invoice_id && row.makegood_invoice_number
        ? { id: row.makegood_invoice_id, number: row.makegood_invoice_number }
        : null,
    recordedAt: recorded && row.recorded_at ? new Date(row.recorded_at).toISOString() : null,
    recordedByName:
      row.recorder_first_name === null ? null : `${row.recorder_first_name} ${row.recorder_last_name ?? ''}`.trim(),
  };
}

/** An invoice's proof of performance: its CPM lines' booked and delivered impressions for its period. */
export async function invoiceDeliveryPeriods(db: Db, invoiceId: string): Promise<DeliveryPeriod[]> {
  const today = businessToday();
  return (await selectInvoicePeriods(db, invoiceId)).map((row) => toDeliveryPeriod(row, today));
}

/** What the period's invoice booked for the line: the billed volume plus the makegood it carries. */
export function liveBooking(row: PeriodRow): { booked: number; makegood: number; paid: number } {
  const paid = Number(row.paid_impressions);
  const makegood = Number(row.makegood_impressions);
  return { booked: paid + makegood, makegood, paid };
}
