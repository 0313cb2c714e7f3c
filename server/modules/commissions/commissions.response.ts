import type { Commission, CommissionRep, CommissionSummary, Payout } from '@shared/contracts/commissions';
import { arrayOf, nullableNumber, nullableString, number, object, string } from '../../lib/response-schema';

/** The answers of the commission and payout routes (lib/response-schema.ts): only these fields are ever sent. */
export const commissionSummaryResponse = object<CommissionSummary>({
  available: number,
  pending: number,
  requested: number,
  disbursed: number,
  thisMonth: number,
  total: number,
});

export const commissionListResponse = arrayOf(
  object<Commission>({
    id: string,
    createdAt: string,
    status: string,
    amount: number,
    rate: number,
    baseAmount: number,
    invoiceId: string,
    invoiceNumber: nullableString,
    contractId: string,
    contractShortId: string,
    contractTitle: nullableString,
    customerId: nullableString,
    customerName: nullableString,
    repId: string,
    repName: nullableString,
    payoutId: nullableString,
  }),
);

export const commissionRepListResponse = arrayOf(object<CommissionRep>({ id: string, name: string, email: string }));

export const payoutResponse = object<Payout>({
  id: string,
  repId: string,
  repName: nullableString,
  status: string,
  requestedAt: string,
  requestedAmount: number,
  approvedAmount: nullableNumber,
  rejectReason: nullableString,
  reviewedAt: nullableString,
  reviewedByName: nullableString,
  disbursedAt: nullableString,
});
export const payoutListResponse = arrayOf(payoutResponse);
