import type { ContractSchedule, ScheduleAdjustment, ScheduleItem } from '@shared/contracts/invoices';
import { arrayOf, boolean, integer, nullable, nullableString, number, object, string } from '../../lib/response-schema';

/** The answers of the billing routes (lib/response-schema.ts): only these fields are ever sent. */

/** GET /api/contracts/:id/schedule. */
export const contractScheduleResponse = object<ContractSchedule>({
  contractId: string,
  taxLabel: string,
  taxRate: number,
  taxIncluded: boolean,
  stopsOn: nullableString,
  items: arrayOf(
    object<ScheduleItem>({
      periodIndex: integer,
      periodStart: string,
      periodEnd: string,
      dueDate: string,
      subtotal: number,
      setupFee: number,
      agencyCommission: number,
      agencyBillingMode: nullableString,
      tax: number,
      total: number,
      inSeason: boolean,
      seasonalPricing: boolean,
      invoice: nullable(object<NonNullable<ScheduleItem['invoice']>>({ id: string, number: string, status: string })),
      adjustments: arrayOf(
        object<ScheduleAdjustment>({ description: string, coversStart: string, coversEnd: string, amount: number }),
      ),
    }),
  ),
});
