import { type AgencyStatement, type AgencyStatementEntry, STATEMENT_ENTRY_KINDS } from '@shared/contracts/agencies';
import { AGING_BUCKETS, type AgingBucket } from '@shared/contracts/receivables-vocabulary';
import { arrayOf, nullableString, number, object, string } from '../../lib/response-schema';

/** GET /api/agencies/{id}/statement (format json): only these fields are ever sent (lib/response-schema.ts). */
const entryResponse = object<AgencyStatementEntry>({
  date: string,
  kind: { type: 'string', enum: [...STATEMENT_ENTRY_KINDS] },
  number: nullableString,
  invoiceId: string,
  invoiceNumber: string,
  issueDate: string,
  dueDate: string,
  advertiserId: string,
  advertiserName: string,
  contractId: string,
  contractName: string,
  amount: number,
  documentAmount: number,
  commission: number,
  commissionMode: nullableString,
  method: nullableString,
  balance: number,
});

export const agencyStatementResponse = object<AgencyStatement>({
  agencyId: string,
  agencyName: string,
  from: string,
  to: string,
  openingBalance: number,
  entries: arrayOf(entryResponse),
  invoiced: number,
  credited: number,
  paid: number,
  refunded: number,
  closingBalance: number,
  aging: object<Record<AgingBucket, number>>(
    Object.fromEntries(AGING_BUCKETS.map((bucket) => [bucket, number])) as Record<AgingBucket, typeof number>,
  ),
  commission: object<AgencyStatement['commission']>({ netDeducted: number, grossOwed: number, total: number }),
});
